import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { platformPackageName } from '../protocol/provider-address';
import { releaseZipName } from './executables';

export { platformPackageName };

/**
 * Where synth finds a platform's executable zip. The executables (about 41 MB each,
 * zipped) are not in the library's package: each platform has an npm package of its
 * own (`npm run release` writes them), which the user adds for the platforms their
 * stacks are synthesized for. The platform is the *target* (where Terraform runs),
 * not the machine that installs it, so these packages install anywhere (no `os`/`cpu`).
 */

/** The command that adds a platform's package to the user's project, at the library's version. */
export function platformInstallCommand(platform: string, version: string): string {
  return `npm install --save-dev ${platformPackageName(platform)}@${version}`;
}

export interface ZipLookup {
  /** The library's version: the zip's and the platform package's. */
  readonly version: string;
  /** The library's package root (its `dist/executables`, and where its own dependencies resolve from). */
  readonly packageRoot: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The user's project (where `npm install` put the platform packages): the working directory of synth. */
  readonly cwd?: string;
}

/**
 * The release zip of `platform` for synth, in this order:
 * 1. `RESELLER_PROVIDER_EXECUTABLES`, a directory of release zips (a downloaded release), when set;
 * 2. the platform's npm package, resolved from the user's project, then from the library;
 * 3. `<library>/dist/executables` (`npm run build:executables` in a checkout).
 * A platform package of another version than the library's, or no zip anywhere, is an
 * error that says what to install.
 */
export function executableZipOf(platform: string, lookup: ZipLookup): string {
  const { version, packageRoot } = lookup;
  const env = lookup.env ?? process.env;
  const name = releaseZipName(version, platform);
  const fromEnv = env.RESELLER_PROVIDER_EXECUTABLES;
  if (fromEnv) {
    const zip = join(fromEnv, name);
    if (existsSync(zip)) return zip;
    throw new Error(`providerPlatforms needs ${name} for ${platform}, and RESELLER_PROVIDER_EXECUTABLES (${fromEnv}) has none: ${remedies(platform, version, packageRoot, 'unset RESELLER_PROVIDER_EXECUTABLES and ')}`);
  }
  const packageDir = platformPackageDir(platform, [lookup.cwd ?? process.cwd(), packageRoot]);
  if (packageDir) {
    const installed = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: string }).version;
    if (installed !== version) {
      throw new Error(
        `${platformPackageName(platform)} ${installed} is installed (${packageDir}), but cdktf-reseller-hosting is ${version}: ` +
          `the executables must be the library's own version: ${platformInstallCommand(platform, version)}`,
      );
    }
    const zip = join(packageDir, name);
    if (existsSync(zip)) return zip;
    throw new Error(`${platformPackageName(platform)} ${version} (${packageDir}) does not hold ${name}: it is incomplete; reinstall it: ${platformInstallCommand(platform, version)}`);
  }
  const built = join(packageRoot, 'dist', 'executables', name);
  if (existsSync(built)) return built;
  throw new Error(`providerPlatforms needs the ${platform} executable (${name}) and finds none: ${remedies(platform, version, packageRoot, '')}`);
}

/** What makes a platform's zip available, the package first. */
function remedies(platform: string, version: string, packageRoot: string, before: string): string {
  return `${before}install its package: ${platformInstallCommand(platform, version)}; ` +
    `or set RESELLER_PROVIDER_EXECUTABLES to a directory holding the release zips of ${version}; ` +
    `or, in a checkout of the library, run 'npm run build:executables' in ${packageRoot}`;
}

/** The installed platform package's directory, or undefined when none resolves from `paths`. */
function platformPackageDir(platform: string, paths: string[]): string | undefined {
  // Node's own resolution (not a bundler's or jest's), as `npm install` laid the packages out.
  const resolver = createRequire(__filename);
  try {
    return dirname(resolver.resolve(`${platformPackageName(platform)}/package.json`, { paths }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}
