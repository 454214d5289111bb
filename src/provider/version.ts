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

/** The oldest Terraform the provider serves: write-only attributes (mailbox passwords never in state or plan) came with 1.11. */
export const MIN_TERRAFORM_VERSION = [1, 11] as const;

/**
 * Why this Terraform (its version as ConfigureProvider reports it) must not run the
 * provider, as one line, or undefined. An older Terraform would take `password_wo` for
 * an ordinary attribute and write the password into state and plan files, so it is
 * stopped before it reads or writes anything. An unknown version passes: nothing to go by.
 */
export function terraformVersionProblem(terraformVersion: string | undefined): string | undefined {
  const match = /^v?(\d+)\.(\d+)/.exec(terraformVersion ?? '');
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const [minMajor, minMinor] = MIN_TERRAFORM_VERSION;
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `Terraform ${terraformVersion} is too old for the reseller provider, which needs Terraform >= ${minMajor}.${minMinor} (write-only attributes keep mailbox passwords out of state): upgrade Terraform, or synthesize the stack with engine 'terraform_data' (Terraform >= 1.4)`;
}
