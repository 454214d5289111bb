import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Discovery without a registry: Terraform's implied local mirror. `terraform init`
 * looks in `terraform.d/plugins` of the working directory and in
 * `~/.terraform.d/plugins` for `<host>/<namespace>/<type>/<version>/<os>_<arch>/`
 * and installs a provider found there offline, with no CLI configuration. The
 * host name is not a registry: nothing is ever looked up on the network for it.
 *
 * The installed directory is self-contained: a shell launcher, a small loader that
 * compiles the bundle from its V8 code cache, the bundle and the cache. It does not
 * depend on where this package is installed.
 */
export const PROVIDER_HOST = 'reseller-hosting.local';
export const PROVIDER_NAMESPACE = 'cdktf';
export const PROVIDER_TYPE = 'reseller';
/** What `required_providers` names: `reseller = { source = PROVIDER_SOURCE }`. */
export const PROVIDER_SOURCE = `${PROVIDER_HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}`;

const BUNDLE = 'provider-bundle.js';
const LOADER = 'provider-loader.js';

/** The package version (the provider's version is the package's). */
export function packageVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === 'cdktf-reseller-hosting') return pkg.version;
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the version of cdktf-reseller-hosting');
}

/** Terraform's platform name: linux_amd64, darwin_arm64, ... */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const archName: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
  return `${platform === 'win32' ? 'windows' : platform}_${archName[arch] ?? arch}`;
}

/** `<pluginsDir>/<host>/<namespace>/reseller/<version>/<os>_<arch>` */
export function mirrorPackageDir(pluginsDir: string, version: string, platform = terraformPlatform()): string {
  return join(pluginsDir, PROVIDER_HOST, PROVIDER_NAMESPACE, PROVIDER_TYPE, version, platform);
}

export function executableName(version: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}`;
}

/** Where the build puts the bundle (dist/src/provider/bundle.js next to this module once compiled). */
export function builtBundle(): { bundle: string; cache: string } {
  const bundle = join(__dirname, 'bundle.js');
  return { bundle, cache: `${bundle}.cache` };
}

/**
 * The shell launcher Terraform runs. Terraform links (or copies) the whole package
 * directory into .terraform/providers, so the loader sits next to the launcher's path;
 * `\${0%/*}` finds it without starting another process. RESELLER_NODE picks another
 * Node binary than the one on PATH.
 */
function launcherText(): string {
  return [
    '#!/bin/sh',
    '# Terraform provider of cdktf-reseller-hosting (installed by `reseller-hosting provider install`).',
    `exec "\${RESELLER_NODE:-node}" "\${0%/*}/${LOADER}" "$@"`,
    '',
  ].join('\n');
}

/**
 * Loads the bundle compiled from its code cache when the cache was made from exactly
 * this bundle (its SHA-256 prefixes the cache: V8 only checks the source length).
 */
export const LOADER_TEXT = `'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const { createRequire } = require('node:module');
const file = join(__dirname, '${BUNDLE}');
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
mod.exports.main(process.argv.slice(2));
`;

/** Writes `<bundle>.cache` (run by the build, on the Node version that will run it). */
export async function writeCodeCache(bundleFile: string = builtBundle().bundle): Promise<void> {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const { Script } = require('node:vm') as typeof import('node:vm');
  const { createRequire } = require('node:module') as typeof import('node:module');
  const source = readFileSync(bundleFile, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: bundleFile });
  const mod = { exports: {} as { warm?: () => Promise<void> } };
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(bundleFile), mod, bundleFile, dirname(bundleFile));
  await mod.exports.warm?.(); // compile what start-up runs, so the cache holds it
  const tmp = `${bundleFile}.cache.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([createHash('sha256').update(source).digest(), script.createCachedData()]));
  renameSync(tmp, `${bundleFile}.cache`);
}

/**
 * Installs the provider into a plugins directory (the implied local mirror) and returns
 * the executable's path. Replaces an earlier install of the same version.
 */
export function installProvider(pluginsDir: string, version = packageVersion(), files = builtBundle()): string {
  if (!existsSync(files.bundle)) throw new Error(`${files.bundle} is missing: run 'npm run build' first`);
  const dir = mirrorPackageDir(pluginsDir, version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(files.bundle, join(dir, BUNDLE));
  if (existsSync(files.cache)) copyFileSync(files.cache, join(dir, `${BUNDLE}.cache`));
  writeFileSync(join(dir, LOADER), LOADER_TEXT);
  const executable = join(dir, executableName(version));
  writeFileSync(executable, launcherText());
  chmodSync(executable, 0o755);
  return executable;
}

const INSTALL_USAGE = `usage: reseller-hosting provider install [--stack DIR | --plugins-dir DIR]

Places the Terraform provider where 'terraform init' finds it offline with no CLI
configuration: ~/.terraform.d/plugins (default), or DIR/terraform.d/plugins of one
stack directory (--stack). Then declare it in your configuration:

  terraform {
    required_providers {
      reseller = { source = "${PROVIDER_SOURCE}" }
    }
  }
`;

export function runInstall(argv: string[]): number {
  let pluginsDir = join(homedir(), '.terraform.d', 'plugins');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(INSTALL_USAGE);
      return 0;
    }
    const value = argv[i + 1];
    if ((arg === '--stack' || arg === '--plugins-dir') && value) {
      pluginsDir = arg === '--stack' ? join(resolve(value), 'terraform.d', 'plugins') : resolve(value);
      i++;
    } else {
      process.stderr.write(`reseller-hosting provider install: unexpected argument "${arg}"\n\n${INSTALL_USAGE}`);
      return 2;
    }
  }
  const executable = installProvider(pluginsDir);
  process.stdout.write(`installed ${executable}\n\nDeclare it with:\n  reseller = { source = "${PROVIDER_SOURCE}" }\n`);
  return 0;
}
