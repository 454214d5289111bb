import { DomainNameserversSpec, Identity } from '../protocol';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { sameSet } from './diff';
import type { FieldDiff } from './diff';
import {
  checkRegistrationHeld, listPerRegistration, notHeld, registrationNameservers, whyRegistrationMissing, writeRegistration,
} from './domains';
import { ReconcileError } from './errors';
import type { KindReconciler } from './kind';
import { Observed, observed } from './observed';

/**
 * The nameservers of a registered domain name (api-notes "Domain names
 * (registrations)"). Observed through one read of the registration's nameservers per
 * context (`GET /domain/{name}/nameservers`), compared as a set, and written as the
 * difference against a fresh read: `ns` what the registry lacks, `old-ns` what it has and
 * the declaration does not, never a name in both. Every write is read back; a write
 * whose outcome is unknown is computed again from a fresh read before it is repeated
 * (the registry refuses an `old-ns` it no longer has). Remove forgets: the registration
 * keeps its nameservers.
 */

function observedNameservers(domain: string, nameservers: readonly string[], parent = ''): Observed {
  const identity: Identity = { kind: 'domain-nameservers', key: domain, placement: '', parent };
  return observed(identity, domain, { domain, nameservers: [...nameservers].sort() }, {});
}

async function observeNameservers(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const live = await registrationNameservers(ctx, id.key);
  return live && observedNameservers(id.key, live, id.parent);
}

/** Every registration's nameservers: the list, then one read per registration. */
const listNameservers = (ctx: ReconcileContext): Promise<Observed[]> =>
  listPerRegistration(ctx, (domain) => registrationNameservers(ctx, domain), (domain, live) => observedNameservers(domain, live));

function diffNameservers(spec: DomainNameserversSpec, live: Observed): FieldDiff[] {
  const current = (live.fields.nameservers as string[] | undefined) ?? [];
  return sameSet(spec.nameservers, current) ? [] : [{ field: 'nameservers', declared: spec.nameservers, live: current }];
}

/** The registration's nameservers read after `tick`, or the error that names what is missing. */
async function fresh(ctx: ReconcileContext, spec: DomainNameserversSpec): Promise<string[]> {
  const live = await registrationNameservers(ctx, spec.domain, ctx.lists.tick());
  if (!live) throw new ReconcileError(`${spec.path}: domain ${(await notHeld(ctx, spec.domain)) ?? `"${spec.domain}" could not be read`}`, 'domain');
  return live;
}

async function ensureNameservers(ctx: ReconcileContext, spec: DomainNameserversSpec): Promise<Observed> {
  let live = await fresh(ctx, spec);
  const difference = () => ({
    add: spec.nameservers.filter((n) => !live.includes(n)),
    remove: live.filter((n) => !spec.nameservers.includes(n)),
  });
  const first = difference();
  if (!first.add.length && !first.remove.length) {
    ctx.info(`adopted the nameservers of ${spec.domain} (${live.join(', ')})`);
    return observedNameservers(spec.domain, live);
  }
  await converge(ctx, {
    what: `${spec.path}: set the nameservers of ${spec.domain} to ${spec.nameservers.join(', ')}`,
    log: (l) => ctx.warn(l),
    isDone: async () => {
      live = await fresh(ctx, spec);
      return sameSet(live, spec.nameservers);
    },
    // Always the difference against the latest read: a repeated write never names an old-ns the registry no longer has.
    write: () => writeRegistration(ctx, 'nameservers', spec.domain, () => ctx.client.domains.changeNameservers(spec.domain, difference())),
  });
  ctx.info(`set the nameservers of ${spec.domain}: added ${first.add.join(', ') || 'none'}, removed ${first.remove.join(', ') || 'none'}`);
  return observedNameservers(spec.domain, live);
}

export const domainNameserversReconciler = {
  observe: observeNameservers,
  list: listNameservers,
  diff: async (_ctx, spec, live) => diffNameservers(spec, live),
  ensure: ensureNameservers,
  // Forgets: the registration keeps its nameservers (nothing to write, no one knows what was there before).
  remove: async (ctx, id) => ctx.info(`forgot the nameservers of ${id.key}: the registration keeps the nameservers it has`),
  whyMissing: whyRegistrationMissing,
  entries: (o) => [{ id: o.identity.key, detail: ((o.fields.nameservers as string[] | undefined) ?? []).join(' ') }],
  checkAccount: (ctx, spec, checked) => checkRegistrationHeld(ctx, spec.domain, checked),
} satisfies KindReconciler<'domain-nameservers'>;
