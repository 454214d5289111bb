import { Account, Package, State } from '../../backend/model';
import { PackageType, packageTypeLimits } from './model';
import { packageDetailAssumedFields, packageLabelsOf, packageWebInfo, packagesClaimingNames } from './assumed';
import { conflictingObjectError, validationError } from '../../assumed';
import { notFound } from '../../errors';
import { findUser, setGrant, stackUsersOf } from '../users/backend';
import { addPackageMembers, announce } from '../registry';
import { canonicalDomain } from '../../../protocol/names';
import { isoWithOffset } from '../../util';
import { EmulatorProfile, withAssumed } from '../../profile';
import { underlying } from '../../backend/undo-log';

/** Hosting packages (spec 2.4, 4.2, 4.3, 4.6; api-notes "Packages"). */

/**
 * A package of the account by id or by any of its domain names (api-notes: a domain
 * of the package may stand in for the id). Another account's package is not found.
 */
export function findPackage(account: Account, idOrDomain: string): Package | undefined {
  // Scanned behind the change's view (undo-log.ts), the one found handed out through it.
  const packages = underlying(account.packages);
  let i: number;
  if (/^[0-9]+$/.test(idOrDomain)) {
    i = packages.findIndex((p) => p.id === Number(idOrDomain));
  } else {
    const name = canonicalDomain(idOrDomain);
    if (name === '') return undefined;
    i = packages.findIndex((p) => p.names.includes(name));
  }
  return i < 0 ? undefined : account.packages[i];
}

export function requirePackage(account: Account, idOrDomain: string): Package {
  const pkg = findPackage(account, idOrDomain);
  if (!pkg) throw notFound(`package ${idOrDomain} not found`);
  return pkg;
}

export function requirePackageType(account: Account, typeId: number): PackageType {
  const type = account.packageTypes.find((t) => t.id === typeId);
  if (!type) throw validationError(`unknown package type ${typeId}`);
  return type;
}

function typeOf(account: Account, pkg: Package): PackageType {
  // Types are never deleted, so a package's type always exists.
  return account.packageTypes.find((t) => t.id === pkg.typeId) ?? { id: pkg.typeId, label: '', platform: 'linux' };
}

/** 409 when one of `names` is on another package that claims names (see assumed.ts). */
function assertNamesFree(state: State, account: Account, names: readonly string[], except: Package | null): void {
  const own = underlying(except); // a read-only scan behind the change's view (undo-log.ts)
  for (const other of underlying(packagesClaimingNames(state, account))) {
    if (other === own) continue;
    const clash = names.find((n) => other.names.includes(n));
    if (clash) throw conflictingObjectError(`domain name ${clash} is already on package ${other.id}`);
  }
}

export interface NewPackage {
  typeId: number;
  /** Canonical, distinct; the first is the primary name. */
  names: string[];
  label: string | null;
  documentRoots: Record<string, string>;
  /** User to link (grant), already known to exist or null. */
  stackUserId: number | null;
  cloudServerId: number | null;
}

export function createPackage(state: State, account: Account, input: NewPackage, nowMs: number): Package {
  requirePackageType(account, input.typeId);
  const user = input.stackUserId === null ? null : findUser(account, input.stackUserId);
  if (input.stackUserId !== null && !user) throw validationError(`unknown user stack-user:${input.stackUserId}`);
  assertNamesFree(state, account, input.names, null);
  const own: Pick<Package, 'id' | 'names' | 'typeId' | 'label' | 'enabled' | 'created' | 'documentRoots' | 'cloudServerId'> = {
    id: state.counters.packageId++,
    names: [...input.names],
    typeId: input.typeId,
    label: input.label,
    enabled: true,
    created: isoWithOffset(nowMs),
    documentRoots: { ...input.documentRoots },
    cloudServerId: input.cloudServerId,
  };
  // The other nouns' members (mail, DNS zones, …): the package is complete after this.
  const pkg = own as Package;
  addPackageMembers({ state, account, pkg });
  account.packages.push(pkg);
  if (user) setGrant(user, pkg.id, true);
  return pkg;
}

/**
 * An entry of GET /reseller/{id}/packageTypes: `{id, label, platform}` (api-notes) with
 * the `limits`, `installApps` and `extraData` members of the published blueprint.
 */
export function packageTypeEntry(type: PackageType): Record<string, unknown> {
  return { ...type, limits: packageTypeLimits(type.id), installApps: [], extraData: {} };
}

/**
 * GET /package entry (spec 2.4). Spec 2.4 shows `packageLabels` only empty; what it
 * holds for a labelled package is assumed, so the `documented` profile keeps it empty.
 */
export function packageListEntry(account: Account, pkg: Package, profile: EmulatorProfile): Record<string, unknown> {
  return {
    id: pkg.id,
    created: pkg.created,
    enabled: pkg.enabled,
    name: pkg.names[0],
    names: [...pkg.names],
    packageTypeName: typeOf(account, pkg).label,
    productSpec: null,
    stackUsers: stackUsersOf(account, pkg.id),
    typeRef: pkg.typeId,
    packageLabels: withAssumed(profile) ? packageLabelsOf(pkg.label) : [],
  };
}

/**
 * GET /package/{id or domain} (api-notes "Packages", one). `status` (true when enabled),
 * `web.typeRef`, `web.info` and `limits` are what production integrations read
 * (Upmind's 20i provider: suspended = !status, web.name, web.typeRef, web.platform,
 * web.info.ip4Address, limits.* against "INF"; Clientexec's plugin: name). The members no public source shows
 * (packageDetailAssumedFields) are left out by the `documented` profile.
 */
export function packageDetail(account: Account, pkg: Package, profile: EmulatorProfile): Record<string, unknown> {
  const type = typeOf(account, pkg);
  const zone = pkg.cloudServerId === null ? undefined : account.cloudServers.find((s) => s.id === pkg.cloudServerId)?.zone;
  const shown = {
    id: pkg.id,
    status: pkg.enabled,
    // Clientexec's 20i plugin reads the detail's `name` (its single sign-on domain).
    name: pkg.names[0],
    names: [...pkg.names],
    stackUsers: stackUsersOf(account, pkg.id),
    typeRef: pkg.typeId,
    web: { typeRef: pkg.typeId, name: pkg.names[0], platform: type.platform, info: packageWebInfo(pkg, zone) },
    limits: packageTypeLimits(pkg.typeId),
  };
  return withAssumed(profile) ? { ...shown, ...packageDetailAssumedFields(pkg, type.label) } : shown;
}

/**
 * Deletes a package with everything on it; the nouns that keep something about it
 * elsewhere (grants, a cloud server's package list) drop it (`packageDeleted`). false: not found.
 */
export function deletePackage(state: State, account: Account, id: number): boolean {
  const pkg = account.packages.find((p) => p.id === id);
  if (!pkg) return false;
  account.packages = account.packages.filter((p) => p !== pkg);
  announce('packageDeleted', { state, account, pkg });
  return true;
}

/** updatePackage packageBundleTypes: the new type must exist and be on the same platform (docs). */
export function changePackageType(account: Account, pkg: Package, typeId: number): void {
  const next = requirePackageType(account, typeId);
  const current = typeOf(account, pkg);
  if (next.platform !== current.platform) {
    throw validationError(`package ${pkg.id} is on platform ${current.platform}; type ${typeId} is ${next.platform}`);
  }
  pkg.typeId = typeId;
}

/**
 * POST /package/{id}/names. Adding a name already on this package is a silent no-op;
 * a name on another package is 409; the primary name cannot be removed (so the last
 * name cannot either). Removing a name that is not on the package changes nothing.
 */
export function changeNames(state: State, account: Account, pkg: Package, add: string[], rem: string[]): string[] {
  const primary = pkg.names[0];
  if (rem.includes(primary)) throw validationError(`rem: ${primary} is the primary name of package ${pkg.id} and cannot be removed`);
  const added = add.filter((n) => !pkg.names.includes(n));
  assertNamesFree(state, account, added, pkg);
  const next = [...pkg.names, ...added].filter((n) => !rem.includes(n));
  if (next.length === 0) throw validationError(`rem: a package must keep at least one name`);
  const removed = pkg.names.filter((n) => !next.includes(n));
  pkg.names = next;
  for (const name of removed) delete pkg.documentRoots[name];
  // What hangs on a name (its mail, its DNS zone) follows the names.
  announce('packageNamesChanged', { state, account, pkg, removed });
  return [...pkg.names];
}
