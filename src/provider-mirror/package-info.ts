import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * This package's name, root and version, apart from the rest of provider-mirror (zips,
 * hashes, placement): the handler prints the version for `--version` and must not load
 * zlib and the zip code on every provisioner start to do it.
 */

export const PACKAGE_NAME = 'cdktf-reseller-hosting';

/** This package's root directory (its package.json), from `src/` under ts-jest, `dist/src/` or node_modules. */
export function packageRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        if (JSON.parse(readFileSync(file, 'utf8')).name === PACKAGE_NAME) return dir;
      } catch {
        // an unreadable package.json: keep walking up
      }
    }
    if (dirname(dir) === dir) throw new Error(`${PACKAGE_NAME}: cannot find its package.json above ${__dirname}`);
  }
}

/** The package version (the provider's version is the package's). */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version;
}
