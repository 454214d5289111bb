import type { PackageSummary } from '../client';

/**
 * Look-ups in one read of the account's package list by domain name (lowercase): the
 * package whose primary domain it is, and the package that holds it as any of its
 * names. Built once per list read (a provider observes thousands of objects against
 * the same read; a scan per object made a plan quadratic in the account's size).
 */
export interface PackageIndex {
  readonly byPrimary: ReadonlyMap<string, PackageSummary>;
  readonly byName: ReadonlyMap<string, PackageSummary>;
}

const indexes = new WeakMap<readonly PackageSummary[], PackageIndex>();

export function packageIndex(packages: readonly PackageSummary[]): PackageIndex {
  let index = indexes.get(packages);
  if (!index) {
    const byPrimary = new Map<string, PackageSummary>();
    const byName = new Map<string, PackageSummary>();
    for (const p of packages) {
      const primary = p.name.toLowerCase();
      if (!byPrimary.has(primary)) byPrimary.set(primary, p);
      for (const n of p.names) {
        const name = n.toLowerCase();
        if (!byName.has(name)) byName.set(name, p);
      }
    }
    index = { byPrimary, byName };
    indexes.set(packages, index);
  }
  return index;
}
