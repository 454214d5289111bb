import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorPackageSegments, PROVIDER_TYPE, providerExecutableName } from '../protocol/provider-address';
import { writeIfChanged } from './files';
import { filesHash, readZip, zipHash } from './zip';

/**
 * The self-contained provider executables (Node single executable applications, one
 * per platform: scripts/executables/) as synth places them: the release zips
 * themselves, in the packed layout of Terraform's implied local mirror
 * (`terraform.d/plugins/<host>/<namespace>/reseller/terraform-provider-reseller_<v>_<os>_<arch>.zip`).
 * A zip keeps the executable's mode inside it, and Terraform's unzip restores it, so
 * the stack directory survives an artifact upload or a checkout that drops file modes.
 */

/** The platforms the executables are built for (what `npm run build:executables` and the release make). */
export const EXECUTABLE_PLATFORMS = ['linux_amd64', 'linux_arm64'] as const;
export type ExecutablePlatform = (typeof EXECUTABLE_PLATFORMS)[number];

/** Where a directory of release zips names them: `terraform-provider-reseller_<v>_<os>_<arch>.zip`. */
export function releaseZipName(version: string, platform: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_${version}_${platform}.zip`;
}

/** One placed platform: its zip and the two hashes the lock file records for it. */
export interface PlacedPackage {
  readonly platform: string;
  readonly zip: string;
  /** `h1:` (the files inside) and `zh:` (the zip), as `terraform providers lock` records them. */
  readonly hashes: readonly string[];
}

/** The `h1:` and `zh:` hashes of a release zip, checking that it holds the executable Terraform will look for. */
export function zipPackageHashes(zip: Buffer, version: string, where: string): string[] {
  const files = readZip(zip);
  const executable = providerExecutableName(version);
  if (!files.some((f) => f.name === executable)) {
    throw new Error(`${where} does not hold ${executable} (it holds ${files.map((f) => f.name).join(', ') || 'nothing'}): is it a release of another version?`);
  }
  return [filesHash(files), zipHash(zip)];
}

/**
 * Copies the zips of `platforms` into a plugins directory, replacing this version's
 * unpacked packages for the platforms the executables are built for (the launcher of
 * an earlier synth, which Terraform would otherwise prefer), and returns what to lock.
 * `zipOf` says where a platform's zip is (platform-packages.ts: `executableZipOf`), or
 * throws saying how to get it.
 */
export function placeExecutables(pluginsDir: string, version: string, platforms: readonly string[], zipOf: (platform: string) => string): PlacedPackage[] {
  const typeDir = join(pluginsDir, ...mirrorPackageSegments(version, 'x').slice(0, 3));
  mkdirSync(typeDir, { recursive: true });
  for (const platform of EXECUTABLE_PLATFORMS) rmSync(join(typeDir, version, platform), { recursive: true, force: true });
  return platforms.map((platform) => {
    const source = zipOf(platform);
    const bytes = readFileSync(source);
    const target = join(typeDir, releaseZipName(version, platform));
    writeIfChanged(target, bytes);
    return { platform, zip: target, hashes: zipPackageHashes(bytes, version, source) };
  });
}

/** Removes this version's zips from a plugins directory (the launcher is placed instead). */
export function removePlacedExecutables(pluginsDir: string, version: string): void {
  const typeDir = join(pluginsDir, ...mirrorPackageSegments(version, 'x').slice(0, 3));
  for (const platform of EXECUTABLE_PLATFORMS) rmSync(join(typeDir, releaseZipName(version, platform)), { force: true });
}
