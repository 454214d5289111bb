import { Account, Package, State } from '../../backend/model';

/**
 * The packages noun's assumed behaviours (package-wide answers included): everything
 * api-notes.md marks `assumed`, or that no public source shows and the emulator had to
 * choose, behind one function each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/**
 * ASSUMED: domain names are unique among the packages of one account, not across the
 * whole platform (an account must not learn that another account holds a name).
 * Returns the packages whose names a new or added name must not clash with.
 */
export function packagesClaimingNames(_state: State, account: Account): readonly Package[] {
  return account.packages;
}

/**
 * ASSUMED: `packageLabels` of a package list entry (spec 2.4 shows only empty arrays)
 * is `[]` without a label and `[label]` with one.
 */
export function packageLabelsOf(label: string | null): string[] {
  return label === null ? [] : [label];
}

/** ASSUMED: `label` of GET /package/{id} is "" when the package has no label. */
export function packageDetailLabel(label: string | null): string {
  return label ?? '';
}

/**
 * ASSUMED (api-notes "Packages", one: only `{id, enabled, names, stackUsers, typeRef,
 * web: {name, platform}, …}` is shown, and production integrations read `status`, not
 * `enabled`): the members of GET /package/{id} that no public source shows: `enabled`
 * beside `status`, the list entry's `packageTypeName` and `created`, and a `label`.
 * The `documented` profile leaves all of them out.
 */
export function packageDetailAssumedFields(pkg: Package, typeLabel: string): Record<string, unknown> {
  return {
    enabled: pkg.enabled,
    packageTypeName: typeLabel,
    label: packageDetailLabel(pkg.label),
    created: pkg.created,
  };
}

/**
 * ASSUMED: `web.info` of GET /package/{id}. A production integration reads
 * `web.info.ip4Address` and `web.info.zone`, both optionally (Upmind's 20i provider);
 * the values are the emulator's: an address of the documentation range 192.0.2.0/24
 * and the zone of the package's cloud server, else `dc_location-uk`.
 */
export function packageWebInfo(pkg: Package, serverZone: string | undefined): Record<string, unknown> {
  return { ip4Address: packageWebIp(pkg), zone: serverZone ?? 'dc_location-uk' };
}

/** ASSUMED (see packageWebInfo): the package's web address, also the target of its zones' default A records. */
export function packageWebIp(pkg: Pick<Package, 'id'>): string {
  return `192.0.2.${(pkg.id % 254) + 1}`;
}

/**
 * ASSUMED (the path and the member names are what Upmind's 20i provider reads; the
 * values are the emulator's): GET /package/{id}/web/usage. Nothing is ever used.
 */
export function packageWebUsage(_pkg: Package): Record<string, unknown> {
  return { DiskMb: 0, Bandwidth: { MbIn: 0, MbOut: 0 } };
}
