import { validationError } from './assumed';
import { notFound } from './errors';
import { Router, bare } from './router';
import { Store } from './backend/store';
import { Account, State } from './backend/model';
import { createAccount, findAccount, setBrand } from './backend/accounts';
import { keyDigest } from './auth';
import { Faults, parseFaultRequest } from './faults';
import { RequestLog } from './request-log';
import { EmulatorStateDump } from './snapshot';
import { FIXTURE_BALANCE_CENTS } from './fixtures';
import { amountToCents, centsToAmount } from './util';
import { expectBody, expectId, expectString, parseId } from './validate';
import { editRecord, recordView, requireZone, WRITABLE_TYPES, WritableType } from './backend/dns';
import { requirePackage } from './backend/packages';
import { readRecordEntry } from './routes/dns';

/**
 * The control API under /__emulator/: test and development hooks that the real API
 * does not have. No API key is needed, so it answers loopback clients only
 * (127.0.0.0/8, ::1, ::ffff:127.x.x.x); others get 403. Responses are bare JSON.
 */

/** What the control API acts on (implemented by the server). */
export interface ControlTarget {
  readonly store: Store;
  readonly faults: Faults;
  readonly requestLog: RequestLog;
  provisionDelayMs: number;
  /** Back to fixtures (keeping the configured key); clears faults and the request log. */
  reset(): void;
  /** Removes every fault rule and lets the requests a latency fault is holding go on at once; returns how many it let go. */
  clearFaults(): number;
  snapshot(): EmulatorStateDump;
}

export interface ControlContext {
  emu: ControlTarget;
  body: unknown;
  query: URLSearchParams;
}

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

  router.add('POST', '/__emulator/dns', ({ emu, body }) => {
    const input = expectBody(body);
    const record = emu.store.transact((state) => editDnsRecord(targetAccount(state, input.account), input));
    return bare({ ok: true, record });
  });

  return router;
}

/**
 * `{account?, package (id or domain), zone, ref, record: {host?, <the type's fields>}}`: changes a record
 * in place, keeping its ref, as an edit in the control panel does (the API has no
 * update). `host` is relative like in a write; absent, the host stays.
 */
function editDnsRecord(account: Account, input: Record<string, unknown>): Record<string, unknown> {
  const pkgRef = typeof input.package === 'string' ? expectString(input.package, 'package', { min: 1 }) : String(expectId(input.package, 'package'));
  const pkg = requirePackage(account, pkgRef);
  const zone = requireZone(pkg, expectString(input.zone, 'zone', { min: 1 }));
  const ref = expectId(input.ref, 'ref');
  const current = zone.records.find((r) => r.ref === ref);
  if (!current) throw notFound(`record ${ref} is not in zone ${zone.apex}`);
  if (!(WRITABLE_TYPES as readonly string[]).includes(current.type)) {
    throw validationError(`record ${ref} is a ${current.type} record, which the control panel does not edit`);
  }
  const next = readRecordEntry(current.type as WritableType, input.record, zone.apex, 'record', current.host);
  return recordView(editRecord(zone, ref, next), { numbersAsText: false, trailingDot: false });
}

/** The account named by an optional `account` id, else the default account. */
function targetAccount(state: State, value: unknown): Account {
  if (value === undefined || value === null) return findAccount(state, state.defaultAccountId) as Account;
  const id = parseId(value);
  const account = id === undefined ? undefined : findAccount(state, id);
  if (!account) throw notFound(`account ${String(value)} not found`);
  return account;
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
