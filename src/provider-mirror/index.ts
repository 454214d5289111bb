import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  LOCAL_MIRROR_DIR, mirrorPackageSegments, PROVIDER_SOURCE, providerExecutableName, terraformPlatform,
} from '../protocol/provider-address';
import { writeIfChanged } from './files';
import { PACKAGE_NAME, packageRoot, packageVersion } from './package-info';
import { filesHash } from './zip';

export * from './executables';
export { PACKAGE_NAME, packageRoot, packageVersion } from './package-info';
export { writeIfChanged } from './files';
export * from './platform-packages';
export * from './zip';

/**
 * Places the built provider in Terraform's implied local mirror: the one module that
 * both `reseller-hosting provider install` and the constructs' synth (engine
 * 'provider') use, so the two can never lay the directory out differently. File
 * copying only: no network, no cdktf, nothing of the provider's own code (DESIGN §6:
 * the constructs load neither the provider nor its dependencies).
 *
 * The installed directory is self-contained: a shell launcher, a small loader that
 * compiles the bundle from its V8 code cache, the bundle and the cache. It does not
 * depend on where this package is installed, so a stack directory can be moved or
 * committed (the paths in it are relative).
 */

export const BUNDLE = 'provider-bundle.js';
export const LOADER = 'provider-loader.js';

/** The built bundle and its code cache: `<package>/dist/src/provider/bundle.js` (written by `npm run build`). */
export function builtBundle(root: string = packageRoot()): { bundle: string; cache: string } {
  const bundle = join(root, 'dist', 'src', 'provider', 'bundle.js');
  return { bundle, cache: `${bundle}.cache` };
}

/** `<pluginsDir>/<host>/<namespace>/reseller/<version>/<os>_<arch>` */
export function mirrorPackageDir(pluginsDir: string, version: string, platform = terraformPlatform(process.platform, process.arch)): string {
  return join(pluginsDir, ...mirrorPackageSegments(version, platform));
}

/** The implied local mirror of one Terraform working directory (a stack directory). */
export function stackPluginsDir(workingDirectory: string): string {
  return join(workingDirectory, ...LOCAL_MIRROR_DIR);
}

/**
 * The per-user implied local mirror, `~/.terraform.d/plugins` (Windows:
 * `%APPDATA%/terraform.d/plugins`), which `terraform init` searches wherever it was
 * started. It is what makes `terraform -chdir=<stack dir> init` from the project root
 * work: Terraform resolves `terraform.d/plugins` against the directory it was started
 * in, before it applies -chdir. Each version has its own directory, so two versions of
 * this library side by side each find their own; it holds the provider's code only.
 */
export function userPluginsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'terraform.d', 'plugins');
  return join(env.HOME || homedir(), '.terraform.d', 'plugins');
}

/**
 * The shell launcher Terraform runs. Terraform links (or copies) the whole package
 * directory into .terraform/providers, so the loader sits next to the launcher's path;
 * `\${0%/*}` finds it without starting another process. RESELLER_NODE picks another
 * Node binary than the one on PATH.
 */
function launcherText(version: string): string {
  return [
    '#!/bin/sh',
    `# Terraform provider of ${PACKAGE_NAME} (${PROVIDER_SOURCE}), placed by its synth or \`reseller-hosting provider install\`.`,
    // The bundle has no package.json beside it: this is how it knows its version (User-Agent, logs).
    `RESELLER_PROVIDER_VERSION=${JSON.stringify(version)}`,
    'export RESELLER_PROVIDER_VERSION',
    'node="${RESELLER_NODE:-node}"',
    // Terraform shows a plugin's first line on stdout when the handshake fails: say what to do.
    `command -v "$node" >/dev/null 2>&1 || { echo "${NO_NODE_MESSAGE}"; echo "${NO_NODE_MESSAGE}" >&2; exit 1; }`,
    `exec "$node" "\${0%/*}/${LOADER}" "$@"`,
    '',
  ].join('\n');
}

/** What the launcher says where Node is missing (a runner with Terraform alone): the two ways out. */
const NO_NODE_MESSAGE =
  "reseller provider: this is the provider's Node launcher and '$node' is not on PATH: install Node.js >= 20 on this machine, " +
  "or synthesize the stack with ResellerHosting providerPlatforms (e.g. ['linux_amd64']) to place the self-contained executables";

/**
 * Loads the bundle compiled from its code cache when the cache was made from exactly
 * this bundle (its SHA-256 prefixes the cache: V8 only checks the source length).
 * The wrapper must stay the same as the one `writeCodeCache` compiles (provider/install.ts).
 */
export const LOADER_TEXT = `'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const { createRequire } = require('node:module');
const file = join(__dirname, '${BUNDLE}');
let main;
try {
  const source = readFileSync(file, 'utf8');
  let cachedData;
  try {
    const cache = readFileSync(file + '.cache');
    const digest = require('node:crypto').createHash('sha256').update(source).digest();
    if (cache.length > 32 && digest.equals(cache.subarray(0, 32))) cachedData = cache.subarray(32);
  } catch {}
  const script = new Script('(function (exports, require, module, __filename, __dirname) { ' + source + '\\n})', { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, __dirname);
  main = mod.exports.main;
  if (typeof main !== 'function') throw new Error('it has no main()');
} catch (err) {
  // One line on stdout, which Terraform shows when the handshake fails, and on stderr.
  const line = 'reseller provider: the provider bundle ' + file + ' cannot be loaded (' + String(err && err.message || err).split('\\n')[0] + "): it is damaged or incomplete; run 'reseller-hosting provider install' or synthesize the stack again\\n";
  process.stdout.write(line);
  process.stderr.write(line);
  process.exit(1);
}
main(process.argv.slice(2));
`;

/**
 * Installs the provider into a plugins directory (the implied local mirror) and returns
 * the executable's path. Replaces an earlier install of the same version; a missing
 * build is an error saying what to run.
 */
export function installProvider(pluginsDir: string, version = packageVersion(), files = builtBundle(), platform = terraformPlatform(process.platform, process.arch)): string {
  if (!existsSync(files.bundle)) {
    throw new Error(`the provider of ${PACKAGE_NAME} is not built (${files.bundle} is missing): run 'npm run build' in ${dirname(dirname(dirname(dirname(files.bundle))))}`);
  }
  const dir = mirrorPackageDir(pluginsDir, version, platform);
  mkdirSync(dir, { recursive: true });
  writeIfChanged(join(dir, BUNDLE), readFileSync(files.bundle));
  if (existsSync(files.cache)) writeIfChanged(join(dir, `${BUNDLE}.cache`), readFileSync(files.cache));
  writeIfChanged(join(dir, LOADER), LOADER_TEXT);
  const executable = join(dir, providerExecutableName(version));
  writeIfChanged(executable, launcherText(version), 0o755);
  return executable;
}

/**
 * Terraform's `h1:` hash of an unpacked provider package (the Go module "dirhash"
 * Hash1): SHA-256 over the sorted lines `<sha256 hex>  <file name>\n` of its files.
 */
export function packageHash(packageDir: string): string {
  return filesHash(readdirSync(packageDir).map((name) => ({ name, data: readFileSync(join(packageDir, name)) })));
}

const LOCK_FILE = '.terraform.lock.hcl';
const LOCK_HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

/**
 * Records the placed provider in the working directory's dependency lock file (adding
 * or replacing only its own block). `terraform init` then verifies the package against
 * it, and tools that lock providers for other platforms when a stack has no lock file
 * yet (`cdktf deploy` runs `terraform providers lock`, which asks the source's registry
 * and would fail: `reseller-hosting.local` is not one) find it locked already. A
 * rebuilt or upgraded provider rewrites its entry at the next synth.
 */
export function lockProvider(workingDirectory: string, version: string, packageDir: string): void {
  lockHashes(workingDirectory, version, [packageHash(packageDir)]);
}

/** The same, with the hashes given: several platforms' `h1:` and `zh:` (placed executables). */
export function lockHashes(workingDirectory: string, version: string, hashes: readonly string[]): void {
  const block = [
    `provider "${PROVIDER_SOURCE}" {`,
    `  version     = "${version}"`,
    `  constraints = "${version}"`,
    '  hashes = [',
    ...[...new Set(hashes)].sort().map((h) => `    "${h}",`),
    '  ]',
    '}',
    '',
  ].join('\n');
  const file = join(workingDirectory, LOCK_FILE);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : LOCK_HEADER;
  const escaped = PROVIDER_SOURCE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const ours = new RegExp(`provider "${escaped}" \\{[\\s\\S]*?\\n\\}\\n?`);
  const next = ours.test(current) ? current.replace(ours, () => block) : `${current.replace(/\n*$/, '\n')}\n${block}`;
  writeIfChanged(file, next);
}

/**
 * What would keep `terraform init` from finding the provider in the implied mirrors,
 * with the fix, or undefined. A CLI configuration with a `provider_installation` block
 * replaces the implied mirrors unless it names them; Terraform then asks the network
 * for `reseller-hosting.local` and fails with "failed to request discovery document".
 */
export function cliConfigProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.TF_CLI_CONFIG_FILE || env.TERRAFORM_CONFIG || join(env.HOME || homedir(), '.terraformrc');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // no CLI configuration: the implied mirrors apply
  }
  const withoutComments = text.replace(/(^|\s)(#|\/\/).*$/gm, '$1');
  if (!/\bprovider_installation\s*\{/.test(withoutComments) || withoutComments.includes(PROVIDER_HOST_PATTERN)) return undefined;
  return [
    `${file} has a provider_installation block that does not mention ${PROVIDER_HOST_PATTERN}, so terraform init will not look in the implied local mirrors.`,
    'Add to that block:',
    `  filesystem_mirror {\n    path    = "${userPluginsDir(env)}"\n    include = ["${PROVIDER_HOST_PATTERN}/*/*"]\n  }`,
    `and exclude it from "direct" (exclude = ["${PROVIDER_HOST_PATTERN}/*/*"]), or run terraform init inside the stack directory.`,
  ].join('\n');
}

const PROVIDER_HOST_PATTERN = PROVIDER_SOURCE.split('/')[0];
