import type { Account, Package } from '../../backend/model';
import type { PackageDump } from '../../snapshot';
import type { ApiNoun } from '../registry';
import { stackUsersOf } from '../users/backend';
import { accountChecks, FIRST_PACKAGE_ID, FIXTURE_PACKAGE_TYPES, packageChecks } from './model';
import { packagesSection } from './page';
import { addPackageRoutes } from './routes';

/**
 * Hosting packages (spec 2.4, 4.2, 4.3, 4.6; api-notes "Packages"): `addWeb`,
 * `deleteWeb`, `updatePackage`, `GET /package…`, names and status; and the package
 * types every account starts with. A package is the parent of the package-scoped
 * nouns: creating, renaming and deleting one tells them (nouns/registry.ts).
 */
export const packages = {
  name: 'packages',
  counters: { packageId: FIRST_PACKAGE_ID },
  account: {
    check: accountChecks,
    fresh: () => ({ packageTypes: FIXTURE_PACKAGE_TYPES.map((t) => ({ ...t })) }),
    dump: (account) => ({ packageTypes: account.packageTypes.map((t) => ({ ...t })) }),
  },
  // No fresh(): a package's own members come from the request that creates it.
  package: {
    check: packageChecks,
    dump: (pkg, { account }) => packageDumpMembers(account, pkg),
  },
  routes: addPackageRoutes,
  page: {
    figures: [{ label: 'Packages', value: (account) => account.packages.length, listCell: (account) => account.packages.length }],
    section: packagesSection,
  },
} satisfies ApiNoun;

/** A package's members of the state dump, besides its id and names (the core's). */
function packageDumpMembers(account: Account, pkg: Package): Partial<PackageDump> {
  const type = account.packageTypes.find((t) => t.id === pkg.typeId);
  return {
    typeRef: pkg.typeId,
    packageTypeName: type?.label ?? '',
    platform: type?.platform ?? 'linux',
    label: pkg.label,
    enabled: pkg.enabled,
    created: pkg.created,
    documentRoots: { ...pkg.documentRoots },
    stackUsers: stackUsersOf(account, pkg.id),
    cloudServerId: pkg.cloudServerId,
  };
}
