import { conflictingObjectError, validationError } from '../../../src/emulator/assumed';
import type { ApiContext } from '../../../src/emulator/context';
import { notFound } from '../../../src/emulator/errors';
import type { ApiNoun } from '../../../src/emulator/nouns';
import { requirePackage } from '../../../src/emulator/nouns/packages/backend';
import { html } from '../../../src/emulator/page/html';
import { plural } from '../../../src/emulator/page/parts';
import { withAssumed } from '../../../src/emulator/profile';
import { bare, Router, wrapped } from '../../../src/emulator/router';
import { arrayOf, fields, int, str } from '../../../src/emulator/shape';
import type { AccountDump } from '../../../src/emulator/snapshot';
import { sha256Hex } from '../../../src/emulator/util';
import { expectArray, expectBody, expectObject, expectString } from '../../../src/emulator/validate';

/**
 * The emulator noun of the contract suite's test-only kind (never shipped), written as a
 * real noun is and registered with one call (register.ts):
 *
 *   GET  /package/{id}/lockers   [{id: "l1", name, label}]   (label: the default profile only)
 *   POST /package/{id}/lockers   {"new": {name, label?, passcode}} | {"update": {"l1": {label?, passcode?}}} | {"delete": ["l1"]}
 *
 * The passcode is kept as its sha256 only; the dump says whether one is set.
 */

declare module '../../../src/emulator/backend/model' {
  interface Package {
    lockers: Locker[];
  }
  interface Counters {
    lockerId: number;
  }
}

declare module '../../../src/emulator/snapshot' {
  interface PackageDump {
    /** Optional only because other tests build dumps by hand, without this test's noun. */
    lockers?: Array<{ id: string; name: string; label: string; passcodeSha256: string }>;
  }
}

export interface Locker {
  id: number;
  name: string;
  label: string;
  passcodeSha256: string;
}

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

function entry(l: Locker, showAssumed: boolean): Record<string, unknown> {
  return { id: `l${l.id}`, name: l.name, ...(showAssumed ? { label: l.label } : {}) };
}

function create(ctx: ApiContext, lockers: Locker[], value: unknown): Locker {
  const input = expectObject(value, 'new');
  const name = expectString(input.name, 'new.name', { min: 1, max: 32 });
  if (!NAME.test(name)) throw validationError('new.name must be lowercase letters, digits or hyphens');
  if (lockers.some((l) => l.name === name)) throw conflictingObjectError(`locker ${name} exists already`);
  const label = input.label === undefined ? '' : expectString(input.label, 'new.label', { max: 80 });
  return { id: ctx.state.counters.lockerId++, name, label, passcodeSha256: sha256Hex(expectString(input.passcode, 'new.passcode', { min: 1 })) };
}

function update(lockers: Locker[], value: unknown): void {
  for (const [id, change] of Object.entries(expectObject(value, 'update'))) {
    const locker = lockers.find((l) => `l${l.id}` === id);
    if (!locker) throw notFound(`no locker ${id}`);
    const patch = expectObject(change, `update.${id}`);
    if (patch.label !== undefined) locker.label = expectString(patch.label, `update.${id}.label`, { max: 80 });
    if (patch.passcode !== undefined) locker.passcodeSha256 = sha256Hex(expectString(patch.passcode, `update.${id}.passcode`, { min: 1 }));
  }
}

function addRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/lockers', (ctx) => bare(requirePackage(ctx.account, ctx.params.pkg).lockers.map((l) => entry(l, withAssumed(ctx.profile)))));
  router.add('POST', '/package/:pkg/lockers', (ctx) => {
    const body = expectBody(ctx.body);
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    if (body.new === undefined && body.update === undefined && body.delete === undefined) throw validationError('give new, update or delete');
    if (body.delete !== undefined) {
      const gone = new Set(expectArray(body.delete, 'delete'));
      pkg.lockers = pkg.lockers.filter((l) => !gone.has(`l${l.id}`));
    }
    if (body.update !== undefined) update(pkg.lockers, body.update);
    const made = body.new === undefined ? undefined : create(ctx, pkg.lockers, body.new);
    if (made) pkg.lockers.push(made);
    return wrapped(made ? { id: `l${made.id}` } : true);
  });
}

const lockerCount = (account: AccountDump) => account.packages.reduce((n, p) => n + (p.lockers?.length ?? 0), 0);

function section(account: AccountDump) {
  const lockers = account.packages.flatMap((p) => (p.lockers ?? []).map((l) => ({ pkg: p.name, ...l })));
  return html`
    <section aria-labelledby="lockers-heading">
      <h2 id="lockers-heading">Lockers</h2>
      ${lockers.length === 0
        ? html`<p class="empty">No lockers in this account yet.</p>`
        : html`<table>
        <caption>${plural(lockers.length, 'locker')}</caption>
        <thead><tr><th scope="col">Package</th><th scope="col">Locker</th><th scope="col">Label</th></tr></thead>
        <tbody>${lockers.map((l) => html`<tr><td>${l.pkg}</td><th scope="row">${l.name}</th><td>${l.label}</td></tr>`)}</tbody>
      </table>`}
    </section>`;
}

export const lockersNoun = {
  name: 'lockers',
  since: 9,
  counters: { lockerId: 1 },
  package: {
    check: { lockers: arrayOf((l) => fields(l, { id: int, name: str, label: str, passcodeSha256: str })) },
    fresh: () => ({ lockers: [] }),
    dump: (pkg) => ({ lockers: pkg.lockers.map((l) => ({ id: `l${l.id}`, name: l.name, label: l.label, passcodeSha256: l.passcodeSha256 })) }),
  },
  routes: addRoutes,
  page: { figures: [{ label: 'Lockers', value: lockerCount }], section },
} satisfies ApiNoun;
