/**
 * The CDK libraries this package builds on (the same API): the constructs load one of
 * them (src/constructs/private/cdk.ts), and `reseller-hosting import` writes code that
 * imports from the one the user's project uses.
 */
export type CdkPackage = 'cdktf' | 'cdktn';
export const CDK_PACKAGES: readonly CdkPackage[] = ['cdktn', 'cdktf'];
/** Environment variable that names the package to use, overriding every other signal. */
export const CDK_ENV = 'RESELLER_HOSTING_CDK';
