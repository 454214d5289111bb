/**
 * The CDK libraries this package builds on (the same API): the constructs load one of
 * them (src/constructs/private/cdk.ts), and `reseller-hosting import` writes code that
 * imports from the one the user's project uses.
 */
export type CdkPackage = 'cdktf' | 'cdktn';
export const CDK_PACKAGES: readonly CdkPackage[] = ['cdktn', 'cdktf'];
/** Environment variable that names the package to use, overriding every other signal. */
export const CDK_ENV = 'RESELLER_HOSTING_CDK';

/** The CDK packages a parsed package.json lists (dependencies of any kind). */
export function cdksListedIn(packageJson: unknown): CdkPackage[] {
  const pkg = (packageJson ?? {}) as Record<string, Record<string, string> | undefined>;
  const names = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies };
  return CDK_PACKAGES.filter((p) => p in names);
}
