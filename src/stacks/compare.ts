import { DEFINITIONS, definitionOf, Identity, Kind, kindLabel, kindOrder } from '../protocol';
import type { FieldDiff, Observed, ReconcileContext } from '../reconcile';
import { diff, list, liveEntries, ReconcileError, UnknownReference, whyMissing } from '../reconcile';
import type { DesiredObject } from './desired';
import { byText } from './order';

/**
 * The comparison of declared objects with the live account, read through the core: a
 * loop over the kind definitions (list every live object, index it by identity, diff
 * each declared object with the core's own diff, so drift reports exactly what an
 * ensure would change; unmanaged = listed but declared by no stack).
 */

/**
 * - `in-sync`: present and as declared;
 * - `missing`: declared, but not in the account;
 * - `changed`: present, but some fields differ (see `diffs`);
 * - `still-present`: declared `absent: true`, but still in the account;
 * - `absent`: declared `absent: true` and not in the account (in sync);
 * - `unknown`: present, but its declaration depends on Terraform variables, which only
 *   Terraform can evaluate;
 * - `error`: the declaration cannot be compared (e.g. a package type the account lacks).
 */
export type ObjectStatus = 'in-sync' | 'missing' | 'changed' | 'still-present' | 'absent' | 'unknown' | 'error';

export const DRIFT_STATUSES: readonly ObjectStatus[] = ['missing', 'changed', 'still-present'];

export interface ReportDiff {
  readonly field: string;
  readonly declared: unknown;
  readonly live: unknown;
}

export interface ObjectReport {
  readonly stack: string;
  readonly kind: Kind | null;
  /** Natural key (domain, local@domain, host name); null when it depends on Terraform variables. */
  readonly key: string | null;
  /** Package domain of a mail object, cloud server of a package, else ''. */
  readonly placement: string | null;
  readonly path: string;
  /** Terraform address of the object resource. */
  readonly address: string;
  readonly declared: 'present' | 'absent';
  readonly status: ObjectStatus;
  /** Fields that differ, declared -> live (only for `changed`). */
  readonly diffs: ReportDiff[];
  /** Why, for statuses that need one; null otherwise. */
  readonly message: string | null;
  /**
   * The resource a user could `terraform apply -replace=...` instead of `drift --fix`:
   * the object resource for a missing object (its settings and children follow), the
   * settings resource for a changed one; null when Terraform cannot repair it.
   */
  readonly replaceAddress: string | null;
  /** Live id of the object (package/server number, mail id), when present. */
  readonly liveId: string | null;
}

export interface UnmanagedObject {
  readonly kind: Kind;
  readonly key: string;
  /** Package domain of a mail object, cloud server host of a package, else ''. */
  readonly placement: string;
  readonly id: string;
  /** One line about it (a forwarder's target, a server's size). */
  readonly detail: string;
}

export interface ComparedObject {
  readonly desired: DesiredObject;
  readonly report: ObjectReport;
}

export interface Comparison {
  readonly objects: ComparedObject[];
  readonly unmanaged: UnmanagedObject[];
}

/** Every live object of every kind, as the core lists them. */
export type LiveObjects = ReadonlyMap<Kind, readonly Observed[]>;

/**
 * Reads the account through the core: each list once, the mail of each domain once (see
 * `list`). `kinds`: only these (a kind that reports no unmanaged objects is read only
 * when a stack declares one: DNS records cost a read per package).
 */
export async function readLiveObjects(ctx: ReconcileContext, kinds: readonly Kind[] = DEFINITIONS.map((d) => d.kind)): Promise<LiveObjects> {
  const lists = await Promise.all(kinds.map((kind) => list(ctx, kind)));
  return new Map(kinds.map((kind, i) => [kind, lists[i]]));
}

const keyOf = (id: Pick<Identity, 'kind' | 'key'>) => `${id.kind}:${id.key}`;

/**
 * Compares `declared` (the objects to report on) with the account, read with `ctx`.
 * Objects in `managed` (every stack found, also those not selected with --stack) are
 * not unmanaged.
 */
export async function compare(ctx: ReconcileContext, declared: readonly DesiredObject[], managed: readonly DesiredObject[] = declared): Promise<Comparison> {
  const wanted = new Set([...declared, ...managed].map((o) => o.identity?.kind ?? o.kind));
  const live = await readLiveObjects(ctx, DEFINITIONS.filter((d) => d.reportsUnmanaged !== false || wanted.has(d.kind)).map((d) => d.kind));
  const index = new Map<string, Observed>();
  for (const objects of live.values()) for (const o of objects) if (!index.has(keyOf(o.identity))) index.set(keyOf(o.identity), o);
  const objects = await Promise.all(declared.map(async (desired) => ({ desired, report: await compareOne(ctx, desired, index) })));
  objects.sort((a, b) => compareReports(a.report, b.report));
  return { objects, unmanaged: findUnmanaged(managed, live) };
}

function compareReports(a: ObjectReport, b: ObjectReport): number {
  return (
    byText(a.stack, b.stack) ||
    kindOrder(a.kind) - kindOrder(b.kind) ||
    byText(a.key ?? '', b.key ?? '') ||
    byText(a.address, b.address)
  );
}

/** What compareOne works out; the report adds the common fields. */
interface Outcome {
  status: ObjectStatus;
  diffs?: ReportDiff[];
  message?: string;
  liveId?: string;
}

async function compareOne(ctx: ReconcileContext, desired: DesiredObject, index: ReadonlyMap<string, Observed>): Promise<ObjectReport> {
  const id = desired.identity;
  const outcome = await outcomeOf(ctx, desired, index);
  // A provider-engine object is repaired by a plain `terraform apply` (its plan sees the drift): no -replace.
  const replaceAddress = desired.resourceType.startsWith('reseller_')
    ? null
    : outcome.status === 'missing'
      ? desired.address
      : outcome.status === 'changed' && desired.settingsAddress && repairableByUpdate(desired.kind, outcome.diffs ?? [])
        ? desired.settingsAddress
        : null;
  return {
    stack: desired.stack,
    kind: desired.kind ?? null,
    key: id?.key ?? null,
    placement: id ? id.placement : null,
    path: desired.path,
    address: desired.address,
    declared: desired.absent ? 'absent' : 'present',
    status: outcome.status,
    diffs: outcome.diffs ?? [],
    message: outcome.message ?? null,
    replaceAddress,
    liveId: outcome.liveId === undefined ? null : outcome.liveId,
  };
}

/** Settings the API cannot change (a cloud server's), and identity fields (a package's server: packages cannot be moved), are not repaired by an update. */
function repairableByUpdate(kind: Kind | undefined, diffs: readonly ReportDiff[]): boolean {
  if (!kind) return true;
  const def = definitionOf(kind);
  if (def.lifecycle?.fixedAfterCreate) return false;
  return !diffs.some((d) => def.fields.find((f) => f.name === d.field)?.role === 'identity');
}

/** The listed object of a declared identity: same kind and key, and the same parent when the parent is part of its name. */
function findListed(id: Identity, index: ReadonlyMap<string, Observed>): Observed | undefined {
  const live = index.get(keyOf(id));
  return live && (!definitionOf(id.kind).parent?.placesKey || live.identity.placement === id.placement) ? live : undefined;
}

async function outcomeOf(ctx: ReconcileContext, desired: DesiredObject, index: ReadonlyMap<string, Observed>): Promise<Outcome> {
  const id = desired.identity;
  if (!id) {
    return {
      status: desired.spec === undefined && desired.unknownSpec ? 'unknown' : 'error',
      message: desired.unknownSpec
        ? 'unknown (depends on Terraform variables): its natural key is only known to Terraform'
        : `cannot read the declaration: ${desired.specError ?? 'no identity'}`,
    };
  }
  const found = findListed(id, index);
  if (desired.absent) {
    return found
      ? { status: 'still-present', liveId: found.liveId, message: 'declared absent: true, but still in the account' }
      : { status: 'absent' };
  }
  if (!found) {
    const why = [await whyMissing(ctx, id), desired.unknownSpec ? 'its other fields depend on Terraform variables' : undefined].filter(Boolean);
    return { status: 'missing', message: why.length ? why.join('; ') : undefined };
  }
  if (!desired.spec) {
    if (desired.unknownSpec) {
      return { status: 'unknown', liveId: found.liveId, message: 'unknown (depends on Terraform variables): present, fields not compared' };
    }
    return { status: 'error', liveId: found.liveId, message: `cannot read the declaration: ${desired.specError}` };
  }
  try {
    const diffs = (await diff(ctx, desired.spec, found)).map(plain);
    return diffs.length ? { status: 'changed', diffs, liveId: found.liveId } : { status: 'in-sync', liveId: found.liveId };
  } catch (err) {
    // A declaration the core cannot compare (a package type the account lacks): reported on the object.
    if (err instanceof UnknownReference) return { status: 'error', liveId: found.liveId, message: err.problem };
    if (err instanceof ReconcileError) return { status: 'error', liveId: found.liveId, message: err.message.replace(`${desired.spec.path}: `, '') };
    throw err;
  }
}

const plain = (d: FieldDiff): ReportDiff => ({ field: d.field, declared: d.declared, live: d.live });

/** Listed objects no stack declares, one per live entry, for the kinds drift reports so. */
function findUnmanaged(managed: readonly DesiredObject[], live: LiveObjects): UnmanagedObject[] {
  const keys = new Set<string>();
  for (const o of managed) if (o.identity) keys.add(keyOf(o.identity));
  const out: UnmanagedObject[] = [];
  for (const def of DEFINITIONS) {
    if (def.reportsUnmanaged === false) continue;
    for (const o of live.get(def.kind) ?? []) {
      if (keys.has(keyOf(o.identity))) continue;
      for (const entry of liveEntries(o)) out.push({ kind: o.kind, key: o.identity.key, placement: o.identity.placement, id: entry.id, detail: entry.detail });
    }
  }
  out.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || byText(a.key, b.key) || byText(a.id, b.id));
  return out;
}

/** `cloud server web1.example.com`. */
export function objectName(kind: Kind | null, key: string | null): string {
  return `${kind ? kindLabel(kind) : 'object'} ${key ?? '(key depends on Terraform variables)'}`;
}
