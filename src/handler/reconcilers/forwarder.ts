import type { ForwarderEntry } from '../../client';
import { ForwarderSpec, Identity, splitMailKey } from '../../protocol';
import { HandlerContext } from '../context';
import { createdThisRun } from '../created';
import { converge } from '../converge';
import { callsForLookUp, LookUpFirst, readMail, readMailIfPresent } from './mail-common';

/**
 * A forwarder is identified by domain + local part and owns that local part's
 * forwarding: exactly one forwarder to the declared remote. Its target is changed the
 * way the live service does it: create the new one, confirm it, then delete the old.
 */
const address = (spec: Pick<ForwarderSpec, 'localPart' | 'domain'>) => `${spec.localPart}@${spec.domain}`;

export const sameRemote = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function forwardersOf(ctx: HandlerContext, spec: ForwarderSpec): Promise<ForwarderEntry[]> {
  return (await readMail(ctx, spec)).forwarders.filter((f) => f.local.toLowerCase() === spec.localPart);
}

export async function ensureForwarder(ctx: HandlerContext, spec: ForwarderSpec): Promise<void> {
  const outcome = await reconcileForwarder(ctx, spec, !createdThisRun(ctx, spec.packageDomain));
  ctx.info(`${outcome} forwarder ${address(spec)} -> ${spec.remote}`);
}

export async function updateForwarder(ctx: HandlerContext, spec: ForwarderSpec): Promise<void> {
  const outcome = await reconcileForwarder(ctx, spec);
  ctx.info(outcome === 'adopted' ? `forwarder ${address(spec)} is up to date` : `updated forwarder ${address(spec)}: remote -> ${spec.remote}`);
}

/**
 * `lookFirst` false (ensure on a package this apply created): the forwarder cannot
 * exist yet, so it is created without reading the domain first; a 409 to that create
 * proves otherwise, and the whole reconcile runs again with the look-up.
 */
async function reconcileForwarder(
  ctx: HandlerContext, spec: ForwarderSpec, lookFirst = true,
): Promise<'created' | 'adopted' | 'retargeted'> {
  let live = lookFirst ? await forwardersOf(ctx, spec) : [];
  const hadOthers = live.some((f) => !sameRemote(f.remote, spec.remote));
  const existed = live.length > 0;
  if (!live.some((f) => sameRemote(f.remote, spec.remote))) {
    let attempts = 0;
    try {
      await converge({
        what: `${spec.path}: create forwarder ${address(spec)} -> ${spec.remote}`,
        conflictMayBeOurs: true,
        log: (l) => ctx.warn(l),
        isDone: async () => (live = await forwardersOf(ctx, spec)).some((f) => sameRemote(f.remote, spec.remote)),
        write: async () => {
          attempts++;
          try {
            await ctx.client.createForwarder(spec.packageDomain, spec.domain, { local: spec.localPart, remote: spec.remote });
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
    // Only after the new target is confirmed: mail is never left without a route.
    await converge({
      what: `${spec.path}: delete old target(s) of forwarder ${address(spec)}`,
      log: (l) => ctx.warn(l),
      isDone: async () => (await forwardersOf(ctx, spec)).every((f) => sameRemote(f.remote, spec.remote)),
      write: () => ctx.client.deleteMail(spec.packageDomain, spec.domain, stale.map((f) => f.id)),
    });
    for (const f of stale) ctx.info(`removed old target ${f.remote} of forwarder ${address(spec)}`);
  }
  if (!existed) return 'created';
  return hadOthers ? 'retargeted' : 'adopted';
}

export async function deleteForwarder(ctx: HandlerContext, id: Identity): Promise<void> {
  const { localPart, domain } = splitMailKey(id.key);
  const place = { path: id.key, packageDomain: id.placement, domain };
  const find = async () => ((await readMailIfPresent(ctx, place))?.forwarders ?? []).filter((f) => f.local.toLowerCase() === localPart);
  const live = await find();
  if (live.length === 0) {
    ctx.info(`forwarder ${id.key} is already absent`);
    return;
  }
  await converge({
    what: `delete forwarder ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await find()).length === 0,
    write: () => ctx.client.deleteMail(id.placement, domain, live.map((f) => f.id)),
  });
  ctx.info(`deleted forwarder ${id.key}`);
}
