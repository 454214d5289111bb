import { validationError } from './assumed';
import { Router, bare } from './router';
import { setBrand, targetAccount } from './backend/accounts';
import { keyDigest } from './auth';
import { ControlContext } from './context';
import { parseFaultRequest } from './faults';
import { createAccount, FIXTURE_BALANCE_CENTS } from './fixtures';
import { addControlRoutes } from './nouns';
import { amountToCents, centsToAmount } from './util';
import { expectBody, expectString, parseId } from './validate';

/**
 * The control API under /__emulator/: test and development hooks that the real API
 * does not have. No API key is needed, so it answers loopback clients only
 * (127.0.0.0/8, ::1, ::ffff:127.x.x.x); others get 403. Responses are bare JSON.
 *
 * The routes here act on the emulator and on accounts; an API noun adds its own
 * (`control` of its definition, e.g. `POST /__emulator/dns`).
 */

export type { ControlContext, ControlTarget } from './context';

/** Whether a socket's remote address is a loopback address. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether a request's Host header names the loopback interface (or is absent). A web
 * page can make a browser on this machine send requests to the emulator under its
 * own domain name (DNS rebinding): they come from a loopback address, but carry the
 * page's host name. The control API and page answer only loopback names.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const h = host.trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
  if (name === '[::1]') return true;
  const bare = name.replace(/\.$/, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export function controlRouter(): Router<ControlContext> {
  const router = new Router<ControlContext>();

  router.add('POST', '/__emulator/reset', ({ emu }) => {
    emu.reset();
    return bare({ ok: true });
  });
  router.add('GET', '/__emulator/state', ({ emu }) => bare(emu.snapshot()));

  router.add('GET', '/__emulator/requests', ({ emu }) => bare(emu.requestLog.list()));
  router.add('DELETE', '/__emulator/requests', ({ emu }) => {
    emu.requestLog.clear();
    return bare({ ok: true });
  });

  router.add('GET', '/__emulator/faults', ({ emu }) => bare(emu.faults.list()));
  router.add('POST', '/__emulator/faults', ({ emu, body }) => {
    const { rules, seed } = parseFaultRequest(body);
    const used = emu.faults.set(rules, seed);
    return bare({ ok: true, rules: rules.length, seed: used });
  });
  router.add('DELETE', '/__emulator/faults', ({ emu }) => {
    const released = emu.clearFaults();
    return bare({ ok: true, released });
  });

  router.add('POST', '/__emulator/brand', ({ emu, body }) => {
    const input = expectBody(body);
    const name = expectString(input.name, 'name', { min: 1, max: 200 });
    const logoUrl = expectString(input.logoUrl, 'logoUrl', { max: 2048 });
    if (logoUrl !== '' && !/^https?:\/\/\S+$/.test(logoUrl)) throw validationError('logoUrl must be an http(s) URL or ""');
    const id = emu.store.transact((state) => {
      const account = targetAccount(state, input.account);
      setBrand(account, { name, logoUrl });
      return account.id;
    });
    return bare({ ok: true, account: id, brand: { name, logoUrl } });
  });
  router.add('DELETE', '/__emulator/brand', ({ emu, query }) => {
    const id = emu.store.transact((state) => {
      const account = targetAccount(state, query.get('account') ?? undefined);
      setBrand(account, null);
      return account.id;
    });
    return bare({ ok: true, account: id, brand: null });
  });

  router.add('POST', '/__emulator/accounts', ({ emu, body }) => {
    const input = expectBody(body);
    const apiKey = expectString(input.apiKey, 'apiKey', { min: 1, max: 1024 });
    const balanceCents = input.balance === undefined ? FIXTURE_BALANCE_CENTS : readAmount(input.balance, 'balance');
    const account = emu.store.transact((state) => {
      let id: number;
      if (input.id === undefined) {
        id = Math.max(...state.accounts.map((a) => a.id)) + 1;
      } else {
        const parsed = parseId(input.id);
        if (parsed === undefined || parsed < 1) throw validationError('id must be a positive integer');
        id = parsed;
      }
      return createAccount(state, id, keyDigest(apiKey), balanceCents);
    });
    return bare({ ok: true, id: account.id, balance: centsToAmount(account.balanceCents) });
  });

  router.add('POST', '/__emulator/balance', ({ emu, body }) => {
    const input = expectBody(body);
    const cents = readAmount(input.balance, 'balance');
    const id = emu.store.transact((state) => {
      const account = targetAccount(state, input.account);
      account.balanceCents = cents;
      return account.id;
    });
    return bare({ ok: true, account: id, balance: centsToAmount(cents) });
  });

  router.add('POST', '/__emulator/settings', ({ emu, body }) => {
    const input = expectBody(body);
    if (input.provisionDelayMs !== undefined) emu.provisionDelayMs = readDelay(input.provisionDelayMs);
    return bare({ ok: true, settings: { provisionDelayMs: emu.provisionDelayMs } });
  });

  addControlRoutes(router);
  return router;
}

function readAmount(value: unknown, path: string): number {
  const amount = typeof value === 'string' && /^[0-9]+(\.[0-9]{1,2})?$/.test(value) ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || amount > 1e12) {
    throw validationError(`${path} must be a non-negative amount`);
  }
  return amountToCents(amount);
}

export function readDelay(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 86_400_000) {
    throw validationError('provisionDelayMs must be an integer number of milliseconds from 0 to 86400000');
  }
  return value;
}
