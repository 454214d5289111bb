import type { CloudServer, PackageDetail, PackageSummary, PackageType } from '../client';
import { verifiableLabelOf, WriteOutcomeUnknownError } from '../client';
import { definitionOf, Identity, PackageSpec } from '../protocol';
import type { ReconcileContext } from './context';
import { forgetCreatedPackage, recordCreatedPackage } from './created';
import { converge } from './converge';
import { describeDiffs, FieldDiff, sameSet } from './diff';
import { ReconcileError } from './errors';
import { packageIndex } from './package-index';
import { findPackageType, packageTypeLabel, resolvePackageType, resolveUser, retryWithFreshRefs, userRefProblems } from './refs';
import { pollUntil } from './wait';
import { listedServers, waitForServer } from './cloud-server';
import type { KindReconciler } from './kind';
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
 * cached lists (see refs.ts) unless `fresh` says which to read afresh.
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
  const live = await ctx.client.packages.get(spec.domainName);
  if (live && live.name !== spec.domainName) {
    throw new ReconcileError(
      `${spec.path}: ${spec.domainName} is an extra domain of package ${live.name} (id ${live.id}), not a package of its own; ` +
        `remove it from that package first`,
      'domainName',
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
  const packages = await listedPackages(ctx);
  const index = packageIndex(packages);
  const primary = index.byPrimary.get(spec.domainName);
  if (primary) return livePackageFromSummary(primary, verifiableLabelOf(primary));
  const holder = index.byName.get(spec.domainName);
  if (holder) {
    throw new ReconcileError(
      `${spec.path}: ${spec.domainName} is an extra domain of package ${holder.name} (id ${holder.id}), not a package of its own; ` +
        `remove it from that package first`,
      'domainName',
    );
  }
  return undefined;
}

/** The context's list name of the account's packages (shared by every read of a run). */
export const PACKAGES = 'packages';

/**
 * Creates, adopts or updates the package. With shared lists (a provider), returns the
 * package on the account as confirmed, for `ensure`'s final read-back (see
 * observedFromDetail).
 */
export async function ensurePackage(ctx: ReconcileContext, spec: PackageSpec): Promise<Observed | undefined> {
  const server = spec.cloudServer ? await waitForServer(ctx, spec.path, spec.cloudServer) : undefined;
  // With shared lists (a provider), a package on the account is looked up through the
  // package list that concurrent creates share, and a create is confirmed by its own
  // detail read; on a cloud server (whose list would change too), one by one.
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
        'cloudServer',
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
          await ctx.client.packages.createOnCloudServer(server.id, { domainName: spec.domainName, extraDomainNames: [...spec.extraDomainNames] });
        } else {
          // The type id and owner may come from this apply's cached lists: a refusal
          // is answered by resolving them afresh and, if they changed, creating again.
          want = await retryWithFreshRefs(
            want,
            async (w) => {
              const create = () => ctx.client.packages.create({
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
  const live = await ctx.client.packages.get(id.key);
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
    isDone: async () => (await ctx.client.packages.get(live.id)) === undefined,
    write: async () => {
      await ctx.client.packages.delete(live.id);
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
      await ctx.client.packages.setLabel(initial.id, want.spec.label);
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
      const live = await ctx.client.packages.get(id);
      if (!live) throw new ReconcileError(`${want.spec.path}: package ${want.spec.domainName} (id ${id}) disappeared while being updated`);
      const left = diffPackage(want, livePackageFromDetail(live));
      return left.length === 0 ? left : undefined;
    }, { timeoutMs: ctx.timing.confirmTimeoutMs, stop: ctx.stop });
    if (settled) break;
    const live = await ctx.client.packages.get(id);
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
      await client.packages.changeNames(live.id, { add, remove });
      return;
    }
    case 'packageType':
      await client.packages.setType(live.id, requiredType(want).id);
      return;
    case 'label':
      await client.packages.setLabel(live.id, want.spec.label ?? '');
      return;
    case 'stackUser':
      if (!live.stackUsers.includes(want.stackUser!)) await client.users.setPackageGrant(want.stackUser!, live.id, true);
      for (const other of live.stackUsers.filter((u) => u !== want.stackUser)) await client.users.setPackageGrant(other, live.id, false);
      return;
    case 'enabled':
      await client.packages.setEnabled(live.id, want.spec.enabled);
      return;
  }
}

/** The type of a package on the reseller account (checked by the definition: required there). */
function requiredType(want: ResolvedPackage): PackageType {
  if (!want.type) throw new ReconcileError(`${want.spec.path}: packageType is required for a package on the reseller account`, 'packageType');
  return want.type;
}

/** The account's packages through the context's lists (one read per context). */
export function listedPackages(ctx: ReconcileContext): Promise<PackageSummary[]> {
  return ctx.lists.get(PACKAGES, () => ctx.client.packages.list());
}

/** The package with this primary domain from the context's lists, mapped to spec fields; undefined when none. */
async function observePackage(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const [packages, servers] = await Promise.all([listedPackages(ctx), listedServers(ctx)]);
  const pkg = packageIndex(packages).byPrimary.get(id.key);
  return pkg && observedSummary(pkg, servers.find((s) => s.packageIds.includes(pkg.id)), id);
}

/** Every package of the account (the first of a primary domain listed twice), with the server it is on. */
async function listPackages(ctx: ReconcileContext): Promise<Observed[]> {
  const [packages, servers] = await Promise.all([listedPackages(ctx), listedServers(ctx)]);
  const serverOf = new Map<number, CloudServer>();
  for (const s of servers) for (const id of s.packageIds) serverOf.set(id, s);
  return packages.map((p) => observedSummary(p, serverOf.get(p.id), { kind: 'package', key: p.name.toLowerCase(), placement: '', parent: '' }));
}

/** A package as its list entry shows it. */
function observedSummary(pkg: PackageSummary, server: CloudServer | undefined, id: Identity): Observed {
  return observedPackage(id, livePackageFromSummary(pkg, verifiableLabelOf(pkg)), pkg.packageTypeName, server?.name);
}

/**
 * A package as read back, in spec fields: from a list entry, or from a detail read
 * (which carries only the type's id: `typeName` is '' when the name is not known).
 */
function observedPackage(id: Identity, pkg: LivePackage, typeName: string, serverName: string | undefined): Observed {
  const { label } = pkg;
  const fields: Record<string, unknown> = {
    domainName: pkg.name.toLowerCase(),
    extraDomainNames: pkg.names.filter((n) => n !== pkg.name).map((n) => n.toLowerCase()).sort(),
    packageType: typeName || pkg.typeRef,
    enabled: pkg.enabled,
    ...(serverName ? { cloudServer: serverName.toLowerCase() } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(pkg.stackUsers.length === 1 ? { stackUser: pkg.stackUsers[0] } : {}),
  };
  return observed(
    { ...id, placement: serverName ? serverName.toLowerCase() : '' },
    pkg.id,
    fields,
    {
      packageId: pkg.id, packageTypeId: pkg.typeRef, stackUsers: [...pkg.stackUsers].sort(),
      // As the API names them (for drift's line about an unmanaged package).
      packageTypeName: typeName, names: [...pkg.names], name: pkg.name,
    },
    label === undefined ? ['label'] : [],
  );
}

/**
 * A package on the reseller account (on no cloud server) as its own detail read shows
 * it, after `ensure` (the detail read carries the type's id; its name comes from the
 * resolved type). The provider's final read-back of a package it ensured: one small
 * read instead of a list read that grows with the account.
 */
function observedFromDetail(spec: PackageSpec, want: ResolvedPackage, live: LivePackage): Observed {
  const typeName = want.type && want.type.id === live.typeRef ? want.type.label : '';
  const definition = definitionOf('package');
  return observedPackage(definition.canonicalIdentity(definition.identity(spec)), live, typeName, undefined);
}

/**
 * Declared vs observed: the type by name or id, the owner by ref or e-mail, names as
 * sets. A type is reported by name, a placement as the server or '(reseller account)'.
 */
async function diffObservedPackage(ctx: ReconcileContext, spec: PackageSpec, live: Observed): Promise<FieldDiff[]> {
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
  const diffs = await Promise.all(diffPackage(want, livePkg).map(async (d) => (
    d.field === 'packageType' ? { ...d, declared: want.type?.label ?? d.declared, live: await packageTypeLabel(ctx, Number(d.live)) } : d
  )));
  const liveServer = live.fields.cloudServer as string | undefined;
  if ((spec.cloudServer ?? '') !== (liveServer ?? '')) {
    diffs.push({ field: 'cloudServer', declared: spec.cloudServer ?? RESELLER_ACCOUNT, live: liveServer ?? RESELLER_ACCOUNT });
  }
  return diffs;
}

/**
 * The package with its type named the way a declaration finds exactly it: by the type's
 * name when no other type of the account has that name (case-insensitively) and the name
 * cannot be read as an id, else by the numeric id. `packageTypeListed` says whether the
 * account lists the type at all. One read of the package types per context.
 */
async function declarablePackage(ctx: ReconcileContext, o: Observed): Promise<Observed> {
  const types = await ctx.lists.get('package-types', () => ctx.client.packageTypes.list());
  const id = Number(o.computed.packageTypeId);
  const type = types.find((t) => t.id === id);
  const name = (t: PackageType) => t.label.trim().toLowerCase();
  const findsIt = type !== undefined && name(type) !== '' && !/^[0-9]+$/.test(name(type)) && types.filter((t) => name(t) === name(type)).length === 1;
  return {
    ...o,
    fields: { ...o.fields, packageType: findsIt ? type.label : id },
    computed: { ...o.computed, packageTypeListed: type !== undefined },
  };
}

/** Where a package not on a cloud server is, in a difference. */
const RESELLER_ACCOUNT = '(reseller account)';

/** Why no package of this primary domain is listed: the name may be another package's extra domain. */
async function whyPackageMissing(ctx: ReconcileContext, id: Identity): Promise<string | undefined> {
  const owner = packageIndex(await listedPackages(ctx)).byName.get(id.key);
  return owner ? `${id.key} is an extra domain of package ${owner.name} (id ${owner.id}), not a package of its own` : undefined;
}

export const packageReconciler = {
  observe: observePackage,
  list: listPackages,
  diff: diffObservedPackage,
  ensure: ensurePackage,
  remove: deletePackage,
  whyMissing: whyPackageMissing,
  declarable: declarablePackage,
  entries(o) {
    const name = String(o.computed.name);
    const extra = (o.computed.names as string[]).filter((n) => n !== name);
    const type = (o.computed.packageTypeName as string) || `type ${String(o.computed.packageTypeId)}`;
    return [{ id: o.liveId, detail: `${type}${extra.length ? `, also ${extra.join(', ')}` : ''}${o.fields.enabled ? '' : ', disabled'}` }];
  },
  // Package types are the account's own, and users by number: a plan naming one the account
  // lacks cannot apply. (A user by e-mail and a cloud server are left out: the same plan may create them.)
  // The type's id is then known too: the plan shows it instead of "known after apply".
  async checkAccount(ctx, spec, checked) {
    const type = spec.packageType !== undefined && checked('packageType') ? await findPackageType(ctx, spec.packageType) : undefined;
    return {
      problems: [
        ...(type && 'rule' in type ? [{ field: 'packageType', rule: type.rule }] : []),
        ...(checked('stackUser') ? await userRefProblems(ctx, 'stackUser', spec.stackUser) : []),
      ],
      known: type && 'type' in type ? { packageTypeId: type.type.id } : undefined,
    };
  },
  // Deleting a package deletes the mail and zones of every one of its names: all must be a test's.
  sweepNames: (o) => ({ shown: String(o.computed.name), names: (o.computed.names as string[]).map((n) => n.toLowerCase()) }),
} satisfies KindReconciler<'package'>;
