/**
 * Where Terraform finds the native provider, as pure data: the source address that
 * `required_providers` names, and the layout of Terraform's implied local mirror
 * (`terraform.d/plugins/<host>/<namespace>/<type>/<version>/<os>_<arch>/`), which
 * `terraform init` searches in the working directory and in `~/.terraform.d/plugins`
 * with no CLI configuration. The host is not a registry: a provider found in the
 * mirror is never looked up on the network. Shared by the constructs (which write the
 * requirement and place the plugin at synth) and `reseller-hosting provider install`.
 */
export const PROVIDER_HOST = 'reseller-hosting.local';
export const PROVIDER_NAMESPACE = 'cdktf';
/** The provider type, which is also its local name in `required_providers` and its resource type prefix. */
export const PROVIDER_TYPE = 'reseller';
/** What `required_providers` names: `reseller = { source = PROVIDER_SOURCE }`. */
export const PROVIDER_SOURCE = `${PROVIDER_HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}`;
/** The implied local mirror below a Terraform working directory. */
export const LOCAL_MIRROR_DIR = ['terraform.d', 'plugins'] as const;

/** Terraform's platform name from Node's: linux_amd64, darwin_arm64, windows_amd64, ... */
export function terraformPlatform(platform: string, arch: string): string {
  const archName: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
  return `${platform === 'win32' ? 'windows' : platform}_${archName[arch] ?? arch}`;
}

/** Path segments of one provider package below a plugins directory: `<host>/<namespace>/reseller/<version>/<os>_<arch>`. */
export function mirrorPackageSegments(version: string, platform: string): string[] {
  return [PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version, platform];
}

/** The executable's file name Terraform looks for in a provider package directory. */
export function providerExecutableName(version: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}`;
}

/**
 * The npm package holding one platform's release zip (the executables are not in the
 * library's package); the platform in Terraform's spelling (`linux_amd64`).
 */
export function platformPackageName(platform: string): string {
  return `cdktf-reseller-hosting-provider-${platform}`;
}
