import { NotFoundError, ResellerClient } from '../../../src/client';
import type { Identity } from '../../../src/protocol';
import type { KindReconciler, ReconcileContext } from '../../../src/reconcile';
import { ReconcileError, secretDue } from '../../../src/reconcile';
import { converge } from '../../../src/reconcile/converge';
import { describeDiffs, FieldDiff } from '../../../src/reconcile/diff';
import { Observed, observed } from '../../../src/reconcile/observed';
import { listedPackages } from '../../../src/reconcile/package';
import { Lockers, LockerEntry } from './client';
import type { LockerSpec } from './definition';

/**
 * The reconciler of the test-only kind, over its client noun (`client.noun(Lockers)`):
 * one read per package per run through the context's lists, adopt before create,
 * every write confirmed by reading back, the passcode written when the core's history
 * says it is due (the secret facet).
 */

const lockers = (client: ResellerClient) => client.noun(Lockers);
const listName = (pkg: string) => `lockers:${pkg}`;

/** The package's lockers through the context's lists; undefined when the package is gone. `fresh`: a read started now. */
function read(ctx: ReconcileContext, pkg: string, fresh = false): Promise<LockerEntry[] | undefined> {
  const load = async () => {
    try {
      return await lockers(ctx.client).list(pkg);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  return fresh ? load() : ctx.lists.get(listName(pkg), load);
}

function observedLocker(pkg: string, live: LockerEntry): Observed {
  const identity = { kind: 'locker', key: `${pkg}/${live.name}`, placement: pkg, parent: '' } as unknown as Identity;
  const fields: Record<string, unknown> = { packageDomain: pkg, name: live.name };
  if (live.label !== undefined) fields.label = live.label;
  return observed(identity, live.id, fields, { lockerId: live.id }, live.label === undefined ? ['label'] : []);
}

function diffLocker(spec: LockerSpec, live: Observed): FieldDiff[] {
  if (spec.label === undefined || !('label' in live.fields) || live.fields.label === spec.label) return [];
  return [{ field: 'label', declared: spec.label, live: live.fields.label }];
}

async function find(ctx: ReconcileContext, spec: LockerSpec, fresh: boolean): Promise<LockerEntry | undefined> {
  const list = await read(ctx, spec.packageDomain, fresh);
  if (!list) throw new ReconcileError(`${spec.path}: package ${spec.packageDomain} does not exist in the account`);
  return list.find((l) => l.name === spec.name);
}

async function ensureLocker(ctx: ReconcileContext, spec: LockerSpec): Promise<void> {
  const passcode = ctx.secret(spec as never);
  const live = await find(ctx, spec, false);
  if (!live) {
    if (!passcode) throw new ReconcileError(`${spec.path}: locker ${spec.name} does not exist and no passcode was given; a locker cannot be created without one`);
    await converge(ctx, {
      what: `${spec.path}: create locker ${spec.name}`,
      conflictMayBeOurs: true,
      isDone: async () => (await find(ctx, spec, true)) !== undefined,
      write: async () => { await lockers(ctx.client).create(spec.packageDomain, { name: spec.name, label: spec.label, passcode }); },
    });
    ctx.info(`created locker ${spec.name}`);
    return;
  }
  const changes = diffLocker(spec, observedLocker(spec.packageDomain, live));
  if (changes.length) {
    await converge(ctx, {
      what: `${spec.path}: update locker ${spec.name}`,
      isDone: async () => (await find(ctx, spec, true))?.label === spec.label,
      write: async () => { await lockers(ctx.client).update(spec.packageDomain, live.id, { label: spec.label }); },
    });
  }
  const due = passcode ? secretDue(ctx, spec as never) : 'no';
  if (passcode && due === 'yes') await lockers(ctx.client).update(spec.packageDomain, live.id, { passcode });
  ctx.info(`locker ${spec.name}: ${[changes.length ? `updated ${describeDiffs(changes)}` : '', due === 'yes' ? 'set its passcode' : ''].filter(Boolean).join('; ') || 'up to date'}`);
}

async function removeLocker(ctx: ReconcileContext, id: Identity): Promise<void> {
  const [pkg, name] = [id.placement, id.key.slice(id.key.indexOf('/') + 1)];
  const findLive = async () => (await read(ctx, pkg, true))?.find((l) => l.name === name);
  const live = await findLive();
  if (!live) return ctx.info(`locker ${id.key} is already absent`);
  await converge(ctx, {
    what: `delete locker ${id.key}`,
    isDone: async () => (await findLive()) === undefined,
    write: async () => { await lockers(ctx.client).delete(pkg, [live.id]); },
  });
  ctx.info(`deleted locker ${id.key}`);
}

export const lockerReconciler = {
  async observe(ctx, id) {
    const name = id.key.slice(id.key.indexOf('/') + 1);
    const live = (await read(ctx, id.placement))?.find((l) => l.name === name);
    return live && observedLocker(id.placement, live);
  },
  async list(ctx) {
    const out: Observed[] = [];
    for (const pkg of await listedPackages(ctx)) {
      const primary = pkg.name.toLowerCase();
      for (const live of (await read(ctx, primary)) ?? []) out.push(observedLocker(primary, live));
    }
    return out;
  },
  diff: async (_ctx, spec, live) => diffLocker(spec as unknown as LockerSpec, live),
  ensure: (ctx, spec) => ensureLocker(ctx, spec as unknown as LockerSpec),
  remove: removeLocker,
  entries: (o) => [{ id: o.liveId, detail: `label ${JSON.stringify(o.fields.label ?? '')}` }],
} satisfies KindReconciler<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

