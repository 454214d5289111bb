import * as fs from 'node:fs';
import * as path from 'node:path';

const PACKAGE_NAME = 'cdktf-reseller-hosting';
let cached: string | undefined;

/**
 * Absolute path of this package's `bin/reseller-hosting.js`, found by walking up from
 * this module to the package.json named `cdktf-reseller-hosting` (works from `src/`
 * under ts-jest, from `dist/src/`, and from `node_modules/cdktf-reseller-hosting/`).
 */
export function handlerScriptPath(): string {
  if (cached) return cached;
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if (JSON.parse(fs.readFileSync(manifest, 'utf8')).name === PACKAGE_NAME) {
          cached = path.join(dir, 'bin', 'reseller-hosting.js');
          return cached;
        }
      } catch {
        // an unreadable package.json: keep walking up
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`${PACKAGE_NAME}: cannot find its package.json above ${__dirname}`);
    dir = up;
  }
}

/**
 * The handler script relative to a stack's Terraform working directory
 * `<app outdir>/stacks/<stack>` (where Terraform runs local-exec), with `/` separators.
 * Never an absolute path of the synthesizing machine, unless no relative path exists
 * (another drive on Windows), which the constructs report as a validation error.
 */
export function relativeHandlerPath(appOutdir: string, stackName: string): string {
  const workingDirectory = path.join(path.resolve(appOutdir), 'stacks', stackName);
  return path.relative(workingDirectory, handlerScriptPath()).split(path.sep).join('/');
}
