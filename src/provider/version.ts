import { packageVersion } from '../provider-mirror';

/**
 * This provider's version (the package's). The installed bundle has no package.json
 * beside it: its launcher passes the version it was installed as (provider-mirror).
 */
export function providerVersion(env: NodeJS.ProcessEnv = process.env): string {
  const fromLauncher = env.RESELLER_PROVIDER_VERSION;
  if (fromLauncher) return fromLauncher;
  try {
    return packageVersion();
  } catch {
    return 'unknown';
  }
}

/** The User-Agent of the provider's API requests: this library, Terraform and Node, with their versions. */
export function userAgentOf(version: string, terraformVersion: string | undefined): string {
  return `cdktf-reseller-hosting/${version} terraform/${terraformVersion || 'unknown'} node/${process.versions.node}`;
}
