import { DomainTransferLockSpec, Identity } from '../protocol';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import type { FieldDiff } from './diff';
import {
  checkRegistrationHeld, listPerRegistration, notHeld, registrationTransferAllowed, whyRegistrationMissing, writeRegistration,
} from './domains';
import { ReconcileError } from './errors';
import type { KindReconciler } from './kind';
import { Observed, observed } from './observed';

/**
 * The transfer lock of a registered domain name (api-notes: `GET /domain/{name}/canTransfer`,
 * true = unlocked; `POST … {"enable": false}` locks). One read per registration per
 * context; every write read back. Remove forgets: the registration keeps its lock.
 */

function observedLock(domain: string, allowed: boolean, parent = ''): Observed {
  const identity: Identity = { kind: 'domain-transfer-lock', key: domain, placement: '', parent };
  return observed(identity, domain, { domain, locked: !allowed }, {});
}

async function observeLock(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const allowed = await registrationTransferAllowed(ctx, id.key);
  return allowed === undefined ? undefined : observedLock(id.key, allowed, id.parent);
}

/** Every registration's lock: the list, then one read per registration. */
const listLocks = (ctx: ReconcileContext): Promise<Observed[]> =>
  listPerRegistration(ctx, (domain) => registrationTransferAllowed(ctx, domain), (domain, allowed) => observedLock(domain, allowed));

function diffLock(spec: DomainTransferLockSpec, live: Observed): FieldDiff[] {
  return live.fields.locked === spec.locked ? [] : [{ field: 'locked', declared: spec.locked, live: live.fields.locked }];
}

async function freshAllowed(ctx: ReconcileContext, spec: DomainTransferLockSpec): Promise<boolean> {
  const allowed = await registrationTransferAllowed(ctx, spec.domain, ctx.lists.tick());
  if (allowed === undefined) throw new ReconcileError(`${spec.path}: domain ${(await notHeld(ctx, spec.domain)) ?? `"${spec.domain}" could not be read`}`, 'domain');
  return allowed;
}

async function ensureLock(ctx: ReconcileContext, spec: DomainTransferLockSpec): Promise<Observed> {
  let allowed = await freshAllowed(ctx, spec);
  const words = spec.locked ? 'locked' : 'unlocked';
  if (allowed === !spec.locked) {
    ctx.info(`adopted the transfer lock of ${spec.domain} (${words})`);
    return observedLock(spec.domain, allowed);
  }
  await converge(ctx, {
    what: `${spec.path}: ${spec.locked ? 'lock' : 'unlock'} the transfer of ${spec.domain}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (allowed = await freshAllowed(ctx, spec)) === !spec.locked,
    write: () => writeRegistration(ctx, 'lock', spec.domain, () => ctx.client.domains.setTransferAllowed(spec.domain, !spec.locked)),
  });
  ctx.info(`${words} the transfer of ${spec.domain}`);
  return observedLock(spec.domain, allowed);
}

export const domainTransferLockReconciler = {
  observe: observeLock,
  list: listLocks,
  diff: async (_ctx, spec, live) => diffLock(spec, live),
  ensure: ensureLock,
  remove: async (ctx, id) => ctx.info(`forgot the transfer lock of ${id.key}: the registration keeps its lock as it is`),
  whyMissing: whyRegistrationMissing,
  entries: (o) => [{ id: o.identity.key, detail: o.fields.locked ? 'locked' : 'unlocked' }],
  checkAccount: (ctx, spec, checked) => checkRegistrationHeld(ctx, spec.domain, checked),
} satisfies KindReconciler<'domain-transfer-lock'>;
