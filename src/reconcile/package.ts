import type { PackageDetail, PackageSummary, PackageType } from '../client';
import { verifiableLabelOf, WriteOutcomeUnknownError } from '../client';
import { definitionOf, Identity, PackageSpec } from '../protocol';
import type { ReconcileContext } from './context';
import { forgetCreatedPackage, recordCreatedPackage } from './created';
import { converge } from './converge';
import { describeDiffs, FieldDiff, sameSet } from './diff';
import { ReconcileError } from './errors';
import { packageIndex } from './package-index';
import { resolvePackageType, resolveUser, retryWithFreshRefs } from './refs';
import { pollUntil } from './wait';
import { waitForServer } from './cloud-server';
import { Observed, observed } from './observed';

/** The live fields of a package that a spec declares, from a detail read or a list entry. */
export interface LivePackage {
  id: number;
  name: string;
  names: string[];
  typeRef: number;
  /** undefined: the API did not return it, so it is not verifiable (DESIGN §3). */
  label: string | undefined;
  stackUsers: string[];
  enabled: boolean;
}

/** A spec with its references resolved against the account (type id, user ref). */
export interface ResolvedPackage {
  spec: PackageSpec;
  /** Absent: no type declared (a package on a cloud server: the server decides). */
  type?: PackageType;
  stackUser?: string;
}

export function livePackageFromDetail(d: PackageDetail): LivePackage {
  return { id: d.id, name: d.name, names: d.names, typeRef: d.typeRef, label: d.label, stackUsers: d.stackUsers, enabled: d.enabled };
}

export function livePackageFromSummary(s: PackageSummary, label: string | undefined): LivePackage {
  return { id: s.id, name: s.name, names: s.names, typeRef: s.typeRef, label, stackUsers: s.stackUsers, enabled: s.enabled };
}

/** The declared fields that differ from the live package (identity and create-only fields excluded). */
export function diffPackage(want: ResolvedPackage, live: LivePackage): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const liveExtras = live.names.filter((n) => n !== live.name);
  if (!sameSet(want.spec.extraDomainNames, liveExtras)) {
    diffs.push({ field: 'extraDomainNames', declared: [...want.spec.extraDomainNames].sort(), live: [...liveExtras].sort() });
  }
  if (want.type && want.type.id !== live.typeRef) diffs.push({ field: 'packageType', declared: want.type.id, live: live.typeRef });
  if (want.spec.label !== undefined && live.label !== undefined && want.spec.label !== live.label) {
    diffs.push({ field: 'label', declared: want.spec.label, live: live.label });
  }
  if (want.stackUser !== undefined && !sameSet([want.stackUser], live.stackUsers)) {
    diffs.push({ field: 'stackUser', declared: [want.stackUser], live: [...live.stackUsers].sort() });
  }
  if (want.spec.enabled !== live.enabled) diffs.push({ field: 'enabled', declared: want.spec.enabled, live: live.enabled });
  return diffs;
}

/**
 * Resolves the type name and the owner against the account's lists: from this apply's
 * cached lists (see resolve.ts) unless `fresh` says which to read afresh.
 */
export async function resolvePackage(
  ctx: ReconcileContext, spec: PackageSpec, fresh: { type?: boolean; user?: boolean } = {},
): Promise<ResolvedPackage> {
  const [type, stackUser] = await Promise.all([
    spec.packageType === undefined ? undefined : resolvePackageType(ctx, spec.path, spec.packageType, fresh.type),
    spec.stackUser === undefined ? undefined : resolveUser(ctx, spec.path, 'stackUser', spec.stackUser, fresh.user),
  ]);
  return { spec, type, stackUser };
}

const sameRefs = (a: ResolvedPackage, b: ResolvedPackage) => a.type?.id === b.type?.id && a.stackUser === b.stackUser;

/** The package whose primary domain is `domain`, or a clear error when the domain is another package's extra name. */
export async function findPrimary(ctx: ReconcileContext, spec: Pick<PackageSpec, 'path' | 'domainName'>): Promise<PackageDetail | undefined> {
  const live = await ctx.client.getPackage(spec.domainName);
  if (live && live.name !== spec.domainName) {
    throw new ReconcileError(
      `${spec.path}: ${spec.domainName} is an extra domain of package ${live.name} (id ${live.id}), not a package of its own; ` +
        `remove it from that package first`,
    );
  }
  return live;
}

/**
 * The package with this primary domain from the shared package list (a provider: see
 * ListCache), as findPrimary. Only to look a package up before a create: one list
 * read serves every create of the run. A create is confirmed by the package's own
 * detail read (findPrimary), whose size does not grow with the account: confirming
 * through the list made an apply's bytes grow with the square of its size.
 */
async function findPrimaryListed(ctx: ReconcileContext, spec: Pick<PackageSpec, 'path' | 'domainName'>): Promise<LivePackage | undefined> {
  const packages = await ctx.lists.get(PACKAGES, () => ctx.client.listPackages());
  const index = packageIndex(packages);
  const primary = index.byPrimary.get(spec.domainName);
  if (primary) return livePackageFromSummary(primary, verifiableLabelOf(primary));
  const holder = index.byName.get(spec.domainName);
  if (holder) {
    throw new ReconcileError(
      `${spec.path}: ${spec.domainName} is an extra domain of package ${holder.name} (id ${holder.id}), not a package of its own; ` +
        `remove it from that package first`,
    );
  }
  return undefined;
}

/** The context's list name of the account's packages (shared by every read of a run). */
export const PACKAGES = 'packages';

/**
 * Creates, adopts or updates the package. With shared lists (a provider), returns the
 * package as confirmed for `ensure`'s final read-back (see observedFromDetail).
 */
export async function ensurePackage(ctx: ReconcileContext, spec: PackageSpec): Promise<Observed | undefined> {
  const server = spec.cloudServer ? await waitForServer(ctx, spec.path, spec.cloudServer) : undefined;
  // With shared lists (a provider), a package on the account is looked up and confirmed
  // through the package list that concurrent creates share; on a cloud server (whose
  // list would change too), one by one.
  const shared = ctx.lists.shared && !server;
  const find = async (): Promise<LivePackage | undefined> => {
    if (shared) return findPrimaryListed(ctx, spec);
    const detail = await findPrimary(ctx, spec);
    return detail && livePackageFromDetail(detail);
  };
  // Independent reads: the type and owner (usually from this apply's cache) and the package.
  let [want, live] = await Promise.all([resolvePackage(ctx, spec), find()]);
  let verb = 'adopted';
  if (live) {
    if (server && !server.packageIds.includes(live.id)) {
      throw new ReconcileError(
        `${spec.path}: package ${spec.domainName} (id ${live.id}) exists but not on cloud server ${spec.cloudServer}; ` +
          'packages cannot be moved through the API',
      );
    }
  } else {
    verb = 'created';
    await converge(ctx, {
      what: `${spec.path}: create package ${spec.domainName}`,
      conflictMayBeOurs: true,
      log: (l) => ctx.warn(l),
      isDone: async () => {
        const detail = await findPrimary(ctx, spec);
        live = detail && livePackageFromDetail(detail);
        return live !== undefined;
      },
      write: async () => {
        if (server) {
          await ctx.client.createPackageOnCloudServer(server.id, { domainName: spec.domainName, extraDomainNames: [...spec.extraDomainNames] });
        } else {
          // The type id and owner may come from this apply's cached lists: a refusal
          // is answered by resolving them afresh and, if they changed, creating again.
          want = await retryWithFreshRefs(
            want,
            async (w) => {
              const create = () => ctx.client.createPackage({
                type: requiredType(w).id,
                domainName: spec.domainName,
                extraDomainNames: [...spec.extraDomainNames],
                label: spec.label,
                documentRoots: { ...spec.documentRoots },
                stackUser: w.stackUser ?? null,
              });
              await (shared ? ctx.lists.writing(PACKAGES, create) : create());
            },
            () => resolvePackage(ctx, spec, { type: true, user: true }),
            sameRefs,
            (line) => ctx.warn(`${spec.path}: create package ${spec.domainName}: ${line}`),
          );
        }
      },
    });
    recordCreatedPackage(ctx, spec.domainName, live!.id);
  }
  const changed = await applyPackageSettings(ctx, want, live!, verb === 'created');
  const details = verb === 'adopted' && changed.length ? `; updated ${describeDiffs(changed)}` : '';
  ctx.info(`${verb} package ${spec.domainName} (id ${live!.id})${details}`);
  if (!shared) return undefined;
  // A create confirmed by its detail read and not written since: that read. Otherwise
  // (adopted from the run's list read, or settings written) a detail read now.
  if (verb === 'created' && changed.length === 0) return observedFromDetail(spec, want, live!);
  const detail = await findPrimary(ctx, spec);
  return detail && observedFromDetail(spec, want, livePackageFromDetail(detail));
}

export async function deletePackage(ctx: ReconcileContext, id: Identity): Promise<void> {
  const live = await ctx.client.getPackage(id.key);
  if (!live) {
    ctx.info(`package ${id.key} is already absent`);
    return;
  }
  if (live.name !== id.key) {
    ctx.warn(`package ${id.key} not deleted: it is now an extra domain of package ${live.name} (id ${live.id}), which this object does not own`);
    return;
  }
  forgetCreatedPackage(ctx, id.key);
  await converge(ctx, {
    what: `delete package ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await ctx.client.getPackage(live.id)) === undefined,
    write: async () => {
      await ctx.client.deletePackage(live.id);
    },
  });
  ctx.info(`deleted package ${id.key} (id ${live.id})`);
}

/**
 * Applies only the fields that differ, then reads back until the package shows them.
 * Every write here is idempotent (set a label, a type, a flag, a grant; add/remove
 * names), so after an unknown outcome it is safe to read and write again.
 */
export async function applyPackageSettings(
  ctx: ReconcileContext, resolved: ResolvedPackage, initial: LivePackage, labelSent = false,
): Promise<FieldDiff[]> {
  let want = resolved;
  if (want.spec.label !== undefined && initial.label === undefined) {
    // Tolerant reader (DESIGN §3): the API does not return the label, so it is written
    // (unless the create just sent it) without reading it back, and reported once.
    if (!labelSent) {
      ctx.confirmed?.clear();
      await ctx.client.setPackageLabel(initial.id, want.spec.label);
    }
    ctx.warn(`${want.spec.path}: label of package ${want.spec.domainName} written but not verifiable: the API does not return it`);
  }
  let first = diffPackage(want, initial);
  const type = first.some((d) => d.field === 'packageType');
  const user = first.some((d) => d.field === 'stackUser');
  if (type || user) {
    // About to write a type id or an owner that may come from a cached list: resolve
    // afresh first, so that a stale entry can neither cause nor hide a write.
    want = await resolvePackage(ctx, want.spec, { type, user });
    first = diffPackage(want, initial);
  }
  let diffs = first;
  const id = initial.id;
  for (let attempt = 1; diffs.length > 0; attempt++) {
    if (attempt > 3) {
      throw new ReconcileError(`${want.spec.path}: package ${want.spec.domainName} still differs after 3 attempts: ${describeDiffs(diffs)}`);
    }
    ctx.confirmed?.clear(); // written: the final read-back must start after these writes
    for (const diff of diffs) {
      try {
        await writeField(ctx, want, initial, diff);
      } catch (err) {
        if (!(err instanceof WriteOutcomeUnknownError)) throw err;
        ctx.warn(`${want.spec.path}: setting ${diff.field} of package ${want.spec.domainName}: outcome unknown, reading back`);
      }
    }
    const settled = await pollUntil(async () => {
      const live = await ctx.client.getPackage(id);
      if (!live) throw new ReconcileError(`${want.spec.path}: package ${want.spec.domainName} (id ${id}) disappeared while being updated`);
      const left = diffPackage(want, livePackageFromDetail(live));
      return left.length === 0 ? left : undefined;
    }, { timeoutMs: ctx.timing.confirmTimeoutMs });
    if (settled) break;
    const live = await ctx.client.getPackage(id);
    diffs = live ? diffPackage(want, livePackageFromDetail(live)) : diffs;
  }
  return first;
}

async function writeField(ctx: ReconcileContext, want: ResolvedPackage, live: LivePackage, diff: FieldDiff): Promise<void> {
  const { client } = ctx;
  switch (diff.field) {
    case 'extraDomainNames': {
      const liveExtras = live.names.filter((n) => n !== live.name);
      const add = want.spec.extraDomainNames.filter((n) => !liveExtras.includes(n));
      const remove = liveExtras.filter((n) => !want.spec.extraDomainNames.includes(n));
      await client.changePackageNames(live.id, { add, remove });
      return;
    }
    case 'packageType':
      await client.setPackageType(live.id, requiredType(want).id);
      return;
    case 'label':
      await client.setPackageLabel(live.id, want.spec.label ?? '');
      return;
    case 'stackUser':
      if (!live.stackUsers.includes(want.stackUser!)) await client.setPackageGrant(want.stackUser!, live.id, true);
      for (const other of live.stackUsers.filter((u) => u !== want.stackUser)) await client.setPackageGrant(other, live.id, false);
      return;
    case 'enabled':
      await client.setPackageEnabled(live.id, want.spec.enabled);
      return;
  }
}

/** The type of a package on the reseller account (checked by the definition: required there). */
function requiredType(want: ResolvedPackage): PackageType {
  if (!want.type) throw new ReconcileError(`${want.spec.path}: packageType is required for a package on the reseller account`);
  return want.type;
}

/** The package with this primary domain from the context's lists, mapped to spec fields; undefined when none. */
export async function observePackage(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const [packages, servers] = await Promise.all([
    ctx.lists.get(PACKAGES, () => ctx.client.listPackages()),
    ctx.lists.get('cloud-servers', () => ctx.client.listCloudServers()),
  ]);
  const pkg = packageIndex(packages).byPrimary.get(id.key);
  if (!pkg) return undefined;
  const server = servers.find((s) => s.packageIds.includes(pkg.id));
  return observedPackage(id, livePackageFromSummary(pkg, verifiableLabelOf(pkg)), pkg.packageTypeName || pkg.typeRef, server?.name);
}

/** A package as read back, in spec fields: from a list entry, or from a detail read with its type's name. */
function observedPackage(id: Identity, pkg: LivePackage, packageType: string | number, serverName: string | undefined): Observed {
  const { label } = pkg;
  const fields: Record<string, unknown> = {
    domainName: pkg.name.toLowerCase(),
    extraDomainNames: pkg.names.filter((n) => n !== pkg.name).map((n) => n.toLowerCase()).sort(),
    packageType,
    enabled: pkg.enabled,
    ...(serverName ? { cloudServer: serverName.toLowerCase() } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(pkg.stackUsers.length === 1 ? { stackUser: pkg.stackUsers[0] } : {}),
  };
  return observed(
    { ...id, placement: serverName ? serverName.toLowerCase() : '' },
    fields,
    { packageId: pkg.id, packageTypeId: pkg.typeRef, stackUsers: [...pkg.stackUsers].sort() },
    label === undefined ? ['label'] : [],
  );
}

/**
 * A package on the reseller account (on no cloud server) as read back by its own
 * detail read, after `ensure` (the detail read carries the type's id, its name comes
 * from the resolved type). The provider's final read-back of a package it ensured:
 * one small read instead of a list read that grows with the account.
 */
function observedFromDetail(spec: PackageSpec, want: ResolvedPackage, live: LivePackage): Observed {
  const packageType = want.type && want.type.id === live.typeRef ? want.type.label : live.typeRef;
  const definition = definitionOf('package');
  return observedPackage(definition.canonicalIdentity(definition.identity(spec)), live, packageType, undefined);
}

/** Declared vs observed: the type by name or id, the owner by ref or e-mail, names as sets. */
export async function diffObservedPackage(ctx: ReconcileContext, spec: PackageSpec, live: Observed): Promise<FieldDiff[]> {
  const want = await resolvePackage(ctx, spec);
  const name = String(live.fields.domainName);
  const livePkg: LivePackage = {
    id: Number(live.computed.packageId),
    name,
    names: [name, ...((live.fields.extraDomainNames as string[]) ?? [])],
    typeRef: Number(live.computed.packageTypeId),
    // An unreadable label is never reported as a difference (tolerant reader).
    label: live.fields.label === undefined ? (spec.label ?? '') : String(live.fields.label),
    stackUsers: (live.computed.stackUsers as string[]) ?? [],
    enabled: live.fields.enabled === true,
  };
  const diffs = diffPackage(want, livePkg);
  const liveServer = (live.fields.cloudServer as string | undefined) ?? '';
  if ((spec.cloudServer ?? '') !== liveServer) diffs.push({ field: 'cloudServer', declared: spec.cloudServer ?? '', live: liveServer });
  return diffs;
}
