import type { ForwarderEntry } from '../client';
import { ForwarderSpec, Identity, sameRemote, splitMailKey } from '../protocol';
import type { ReconcileContext } from './context';
import { createdThisRun } from './created';
import { converge } from './converge';
import type { FieldDiff } from './diff';
import type { KindReconciler } from './kind';
import {
  callsForLookUp, confirmedBy, listMail, LookUpFirst, mailConfirmList, observeMail, packageOfMailDomain, readMail, readMailIfPresent,
  whyMailMissing, writeMail,
} from './mail-common';
import { Observed, observed } from './observed';

/**
 * A forwarder is identified by domain + local part and owns that local part's
 * forwarding: exactly one forwarder to the declared remote. Its target is changed the
 * way the live service does it: create the new one, confirm it, then delete the old.
 */
export const address = (spec: Pick<ForwarderSpec, 'localPart' | 'domain'>) => `${spec.localPart}@${spec.domain}`;

/** `fresh`: as the API shows it now (a confirmation); otherwise a shared look-up may be older (see readMail). */
async function forwardersOf(ctx: ReconcileContext, spec: ForwarderSpec, fresh = true): Promise<ForwarderEntry[]> {
  return (await readMail(ctx, spec, fresh)).forwarders.filter((f) => f.local.toLowerCase() === spec.localPart);
}

export async function ensureForwarder(ctx: ReconcileContext, spec: ForwarderSpec): Promise<void> {
  const outcome = await reconcileForwarder(ctx, spec, !createdThisRun(ctx, spec.packageDomain));
  ctx.info(`${outcome} forwarder ${address(spec)} -> ${spec.remote}`);
}

/**
 * `lookFirst` false (ensure on a package this apply created): the forwarder cannot
 * exist yet, so it is created without reading the domain first; a 409 to that create
 * proves otherwise, and the whole reconcile runs again with the look-up.
 */
export async function reconcileForwarder(
  ctx: ReconcileContext, spec: ForwarderSpec, lookFirst = true,
): Promise<'created' | 'adopted' | 'retargeted'> {
  let live = lookFirst ? await forwardersOf(ctx, spec, false) : [];
  const hadOthers = live.some((f) => !sameRemote(f.remote, spec.remote));
  const existed = live.length > 0;
  if (!live.some((f) => sameRemote(f.remote, spec.remote))) {
    let attempts = 0;
    try {
      await converge(ctx, {
        what: `${spec.path}: create forwarder ${address(spec)} -> ${spec.remote}`,
        conflictMayBeOurs: true,
        log: (l) => ctx.warn(l),
        isDone: async () => {
          const tick = ctx.lists.tick();
          live = await forwardersOf(ctx, spec);
          const done = live.some((f) => sameRemote(f.remote, spec.remote));
          if (done) confirmedBy(ctx, spec, tick);
          return done;
        },
        write: async () => {
          attempts++;
          try {
            await writeMail(ctx, spec, () => ctx.client.mail.createForwarder(spec.packageDomain, spec.domain, { local: spec.localPart, remote: spec.remote }));
          } catch (err) {
            if (!lookFirst && attempts === 1 && callsForLookUp(err)) throw new LookUpFirst();
            throw err;
          }
        },
      });
    } catch (err) {
      if (err instanceof LookUpFirst) return reconcileForwarder(ctx, spec, true);
      throw err;
    }
  }
  const stale = live.filter((f) => !sameRemote(f.remote, spec.remote));
  if (stale.length) {
    ctx.confirmed?.clear();
    // Only after the new target is confirmed: mail is never left without a route.
    await converge(ctx, {
      what: `${spec.path}: delete old target(s) of forwarder ${address(spec)}`,
      log: (l) => ctx.warn(l),
      isDone: async () => (await forwardersOf(ctx, spec)).every((f) => sameRemote(f.remote, spec.remote)),
      write: () => ctx.client.mail.delete(spec.packageDomain, spec.domain, stale.map((f) => f.id)),
    });
    for (const f of stale) ctx.info(`removed old target ${f.remote} of forwarder ${address(spec)}`);
  }
  if (!existed) return 'created';
  return hadOthers ? 'retargeted' : 'adopted';
}

export async function deleteForwarder(ctx: ReconcileContext, id: Identity): Promise<void> {
  const { localPart, domain } = splitMailKey(id.key);
  const place = { path: id.key, packageDomain: id.placement, domain };
  const find = async () => ((await readMailIfPresent(ctx, place))?.forwarders ?? []).filter((f) => f.local.toLowerCase() === localPart);
  const live = await find();
  if (live.length === 0) {
    ctx.info(`forwarder ${id.key} is already absent`);
    return;
  }
  await converge(ctx, {
    what: `delete forwarder ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await find()).length === 0,
    write: () => ctx.client.mail.delete(id.placement, domain, live.map((f) => f.id)),
  });
  ctx.info(`deleted forwarder ${id.key}`);
}

/** The forwarder entries of one local part (its targets) as one object. */
function observedForwarder(live: ForwarderEntry[], packageDomain: string, domain: string, localPart: string, id?: Identity): Observed {
  const identity = id ?? { kind: 'forwarder', key: `${localPart}@${domain}`, placement: packageDomain, parent: '' };
  const remotes = live.map((f) => f.remote).sort();
  return observed(
    { ...identity, placement: packageDomain },
    live.map((f) => f.id).join(','),
    { packageDomain, domain, localPart, remote: remotes.length === 1 ? remotes[0] : remotes },
    { forwarderIds: live.map((f) => f.id), targets: live.map((f) => ({ id: f.id, remote: f.remote })) },
  );
}

async function observeForwarder(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const { localPart, domain } = splitMailKey(id.key);
  const packageDomain = await packageOfMailDomain(ctx, id.placement, domain);
  const mail = await observeMail(ctx, packageDomain, domain);
  const live = (mail?.forwarders ?? []).filter((f) => f.local.toLowerCase() === localPart);
  return live.length ? observedForwarder(live, packageDomain, domain, localPart, id) : undefined;
}

/** Every forwarder of the account: one object per local part of a domain, with all its targets. */
async function listForwarders(ctx: ReconcileContext): Promise<Observed[]> {
  return (await listMail(ctx)).flatMap(({ packageDomain, domain, mail }) => {
    const byLocal = new Map<string, ForwarderEntry[]>();
    for (const f of mail.forwarders) {
      const local = f.local.toLowerCase();
      byLocal.set(local, [...(byLocal.get(local) ?? []), f]);
    }
    return [...byLocal].map(([local, entries]) => observedForwarder(entries, packageDomain, domain, local));
  });
}

/** One forwarder to the declared remote (case-insensitive) is in sync; anything else differs. */
export function diffForwarder(spec: Pick<ForwarderSpec, 'remote'>, remotes: readonly string[]): FieldDiff[] {
  if (remotes.length === 1 && sameRemote(remotes[0], spec.remote)) return [];
  const sorted = [...remotes].sort();
  return [{ field: 'remote', declared: spec.remote, live: sorted.length === 1 ? sorted[0] : sorted }];
}

async function diffObservedForwarder(_ctx: ReconcileContext, spec: ForwarderSpec, live: Observed): Promise<FieldDiff[]> {
  const remote = live.fields.remote;
  return diffForwarder(spec, Array.isArray(remote) ? (remote as string[]) : [String(remote)]);
}

export const forwarderReconciler = {
  confirmList: mailConfirmList,
  observe: observeForwarder,
  list: listForwarders,
  diff: diffObservedForwarder,
  ensure: ensureForwarder,
  remove: deleteForwarder,
  whyMissing: whyMailMissing,
  /** One line per target: a local part forwarded to several is several entries in the API. */
  entries: (o) => (o.computed.targets as Array<{ id: string; remote: string }>).map((t) => ({ id: t.id, detail: `-> ${t.remote}` })),
} satisfies KindReconciler<'forwarder'>;
