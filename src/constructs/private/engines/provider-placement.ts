import { dirname, join } from 'node:path';
import { mirrorPackageSegments, PROVIDER_SOURCE, PROVIDER_TYPE, providerExecutableName, terraformPlatform } from '../../../protocol';
import {
  cliConfigProblem, EXECUTABLE_PLATFORMS, executableZipOf, installProvider, lockHashes, lockProvider, packageHash, packageRoot,
  packageVersion, placeExecutables, removePlacedExecutables, stackPluginsDir, userPluginsDir,
} from '../../../provider-mirror';
import { TerraformStack } from '../cdk';
import { registryOf, StackRegistry } from '../registry';
import { describe } from '../validation';

/**
 * What synth places in a stack directory for `terraform init` (DESIGN §2.1 Discovery,
 * Distribution): the small Node launcher (the default), or, with ResellerHosting's
 * `providerPlatforms`, the self-contained executables of those platforms as their
 * release zips, with every placed platform's hashes in `.terraform.lock.hcl`.
 *
 * The executables also carry the carriers' handler: a carrier stack synthesized with
 * `providerPlatforms` requires the provider (so that `terraform init` installs and
 * verifies the executable) and its provisioners run that executable's handler mode
 * instead of `node .../bin/reseller-hosting.js handler`. Then neither engine needs Node.
 */

/** The platforms whose executables the stack places, or undefined for the Node launcher. */
export function providerPlatformsOf(stack: TerraformStack): readonly string[] | undefined {
  return registryOf(stack).hosting?.providerPlatforms;
}

/** The rule of `providerPlatforms`, or undefined when it holds. */
export function providerPlatformsProblem(value: unknown): string | undefined {
  const built: readonly string[] = EXECUTABLE_PLATFORMS;
  if (!Array.isArray(value) || value.length === 0) {
    return `must list at least one of ${built.map((p) => `"${p}"`).join(', ')}, not ${describe(value)} (leave it unset to place the Node launcher)`;
  }
  for (const [i, platform] of value.entries()) {
    if (typeof platform === 'string' && /^(darwin|windows)_/.test(platform)) {
      return `[${i}] "${platform}": the executables are built for ${built.join(' and ')} only (a ${platform.split('_')[0]} one cannot be built or started here); leave providerPlatforms unset to place the Node launcher, which runs wherever Node does`;
    }
    if (typeof platform !== 'string' || !built.includes(platform)) return `[${i}] must be one of ${built.map((p) => `"${p}"`).join(', ')}, not ${describe(platform)}`;
    if (value.indexOf(platform) !== i) return `[${i}] "${platform}" is listed twice`;
  }
  return undefined;
}

/** The stacks whose synthesizer already places the provider. */
const placing = new WeakSet<TerraformStack>();

/**
 * Places the provider when the stack is synthesized (`app.synth()`, `cdktf synth`):
 * after the stack's own files are written, validation has passed by then, and the
 * working directory is the one `terraform` runs in. Once per stack.
 */
export function placeProviderAtSynth(stack: TerraformStack): void {
  if (placing.has(stack)) return;
  placing.add(stack);
  const inner = stack.synthesizer;
  stack.synthesizer = {
    synthesize(session) {
      inner.synthesize(session);
      const workingDirectory = join(session.outdir, session.manifest.forStack(stack).workingDirectory);
      const version = packageVersion();
      const platforms = providerPlatformsOf(stack);
      try {
        if (platforms) placeExecutablesIn(workingDirectory, version, platforms);
        else placeLauncherIn(workingDirectory, version);
      } catch (err) {
        throw new Error(`${stack.node.path}: cannot place the reseller provider for terraform init: ${(err as Error).message}`);
      }
      if (!platforms) placeForChdir(stack, version);
    },
  };
}

function placeLauncherIn(workingDirectory: string, version: string): void {
  const pluginsDir = stackPluginsDir(workingDirectory);
  removePlacedExecutables(pluginsDir, version); // of an earlier synth with providerPlatforms
  const executable = installProvider(pluginsDir, version);
  lockProvider(workingDirectory, version, dirname(executable));
}

/**
 * The zips of `platforms`, locked; and, when no executable can exist for the
 * synthesizing machine (macOS, Windows), the launcher for it too: `terraform init`
 * there (cdktf's own, before an HCP Terraform remote run) then finds a package for its
 * platform, while the runners take the executables.
 */
export function placeExecutablesIn(
  workingDirectory: string, version: string, platforms: readonly string[], host = terraformPlatform(process.platform, process.arch),
): void {
  const root = packageRoot();
  const pluginsDir = stackPluginsDir(workingDirectory);
  const zipOf = (platform: string) => executableZipOf(platform, { version, packageRoot: root });
  const hashes = placeExecutables(pluginsDir, version, platforms, zipOf).flatMap((p) => p.hashes);
  if (!(EXECUTABLE_PLATFORMS as readonly string[]).includes(host)) {
    hashes.push(packageHash(dirname(installProvider(pluginsDir, version, undefined, host))));
  }
  lockHashes(workingDirectory, version, hashes);
}

/** Warned once per process about the CLI configuration. */
let cliConfigChecked = false;

/**
 * The per-user copy of the launcher, for `terraform -chdir`. Not fatal when it cannot
 * be written (a read-only home in CI): `terraform init` inside the stack directory
 * still works, and the warning says so. The executables are not copied there: a stack
 * synthesized for them is meant to travel, and Terraform would prefer a launcher of
 * the same version found there over the zips.
 */
function placeForChdir(stack: TerraformStack, version: string): void {
  const pluginsDir = userPluginsDir();
  try {
    installProvider(pluginsDir, version);
  } catch (err) {
    process.stderr.write(
      `Warning: ${stack.node.path}: could not place the reseller provider in ${pluginsDir} (${(err as Error).message}); ` +
        "'terraform -chdir=<stack dir> init' from another directory will not find it. Run terraform init inside the stack directory, " +
        "or 'reseller-hosting provider install' where the home directory is writable.\n",
    );
  }
  if (cliConfigChecked) return;
  cliConfigChecked = true;
  const problem = cliConfigProblem();
  if (problem) process.stderr.write(`Warning: ${problem}\n`);
}

/** The stacks that already require the provider for their carriers. */
const required = new WeakSet<TerraformStack>();

/**
 * The command a carrier's local-exec provisioner runs, before its sub-command
 * (`ensure`, `delete`, ...): `node <relative path>/bin/reseller-hosting.js handler`, or,
 * when the stack places executables, the executable `terraform init` installed for
 * this machine under `.terraform/providers` (TF_DATA_DIR when set), in its handler
 * mode. The latter also makes the stack require the provider, so that `init` installs
 * and checks it. Shell builtins only: such a runner may have nothing but Terraform.
 */
export function handlerCommandOf(registry: StackRegistry, escapePath: (path: string) => string): string[] {
  const platforms = registry.hosting?.providerPlatforms;
  if (!platforms) return ['node', escapePath(registry.handlerPath), 'handler'];
  const stack = registry.stack;
  const version = packageVersion();
  if (!required.has(stack)) {
    required.add(stack);
    stack.addOverride(`terraform.required_providers.${PROVIDER_TYPE}`, { source: PROVIDER_SOURCE, version });
    placeProviderAtSynth(stack);
  }
  const installed = `"$d"/providers/${mirrorPackageSegments(version, 'x').slice(0, 4).join('/')}`;
  // The executables' platforms only: a launcher placed for the synthesizing machine serves the plugin, not the handler.
  const candidates = platforms.map((p) => `${installed}/${p}/${providerExecutableName(version)}`).join(' ');
  const script = [
    'd=$TF_DATA_DIR; [ -n "$d" ] || d=.terraform',
    `for e in ${candidates}; do [ -x "$e" ] && exec "$e" handler "$@"; done`,
    `echo "reseller-hosting: no provider executable for this machine under ${installed.replace(/"/g, '')}: run terraform init in this directory; the stack holds the executables for ${platforms.join(', ')} only (ResellerHosting providerPlatforms)" >&2`,
    'exit 1',
  ].join('; ');
  return ['/bin/sh', '-c', script, 'reseller-hosting-handler'];
}
