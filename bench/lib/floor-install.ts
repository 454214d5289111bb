import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch';
import { buildSync } from 'esbuild';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { GNU_TIME, requireGnuTime, TIME_FORMAT } from './cpu-time';

/**
 * Runs the floor provider (floor-provider.ts) as Terraform's plugin, and runs either
 * provider under GNU time, without touching the installed provider: its launcher runs
 * `${RESELLER_NODE:-node} <its loader> "$@"`, so a stack's own installation takes any
 * of them when RESELLER_NODE names one of the small wrappers written here.
 */

const BUNDLE = 'provider-bundle.js';
const LOADER = 'provider-loader.js';

/**
 * Bundles the compiled floor provider into `dir` and loads it as the real provider is
 * loaded: the same esbuild options as `npm run build:provider`, a V8 code cache written
 * by the same function as the build's, and the installed provider's own loader next to
 * it. Start-up is then the same on both sides, and only the RPCs differ. Returns the
 * loader's path.
 */
export async function installFloor(dir: string): Promise<string> {
  const compiled = join(REPO_ROOT, 'dist', 'bench', 'lib', 'floor-provider.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run 'npm run build' first (npm run bench and npm test do)`);
  const bundle = join(dir, BUNDLE);
  buildSync({
    entryPoints: [compiled], bundle: true, platform: 'node', target: 'node20', minify: true, keepNames: true,
    legalComments: 'none', logLevel: 'warning', outfile: bundle,
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const install = require(join(REPO_ROOT, 'dist', 'src', 'provider', 'install.js')) as typeof import('../../src/provider/install');
  if (!install.LOADER_TEXT.includes(`'${BUNDLE}'`)) throw new Error(`the provider's loader no longer loads ${BUNDLE}: update bench/lib/floor-install.ts`);
  await install.writeCodeCache(bundle);
  const loader = join(dir, LOADER);
  writeFileSync(loader, install.LOADER_TEXT);
  return loader;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Writes an executable for RESELLER_NODE. The launcher calls it with its loader path
 * first: with `script`, the wrapper drops that path and runs this Node on `script` (the
 * floor's loader); without, it runs the installed provider as given. With `cpuDir`, the
 * provider process runs under GNU time, which writes `<cpuDir>/provider.<pid>` with
 * its wall time, user and system CPU seconds when it exits (see cpu-time.ts); the
 * wrapper first leaves `<cpuDir>/started.<pid>`, so that a process that never wrote
 * its times (killed with GNU time) is noticed rather than missed.
 */
export function writeNodeWrapper(file: string, options: { script?: string; cpuDir?: string }): string {
  const node = quote(process.execPath);
  const target = options.script ? `${node} ${quote(options.script)}` : `${node} "$@"`;
  const cpuDir = options.cpuDir ? quote(options.cpuDir) : undefined;
  const timed = cpuDir ? `${GNU_TIME} -f '${TIME_FORMAT}' -o ${cpuDir}/provider.$$ ` : '';
  writeFileSync(file, [
    '#!/bin/sh',
    '# RESELLER_NODE wrapper of the benchmarks (bench/lib/floor-install.ts); $1 is the installed provider\'s loader.',
    ...(options.script ? ['shift'] : []),
    ...(cpuDir ? [`: > ${cpuDir}/started.$$`] : []),
    `exec ${timed}${target}`,
    '',
  ].join('\n'), { mode: 0o755 });
  return file;
}

/** The floor provider installed in a temp dir (`dir`: remove it when done), and the RESELLER_NODE environments of a figure's runs. */
export interface FloorKit {
  dir: string;
  /** Makes a stack's installed provider run the floor instead. */
  env: { RESELLER_NODE: string };
  /** The same for one run whose provider processes (ours or the floor) write their times into `cpuDir`. */
  timedEnv(side: 'provider' | 'floor', cpuDir: string): { RESELLER_NODE: string };
}

/** Installs the floor for one figure; GNU time must be there (the figure's CPU split needs it). */
export async function prepareFloor(): Promise<FloorKit> {
  requireGnuTime();
  const dir = scratchDir('floor-');
  const loader = await installFloor(dir);
  return {
    dir,
    env: { RESELLER_NODE: writeNodeWrapper(join(dir, 'floor-node'), { script: loader }) },
    timedEnv: (side, cpuDir) => ({
      RESELLER_NODE: writeNodeWrapper(join(cpuDir, 'node'), side === 'floor' ? { script: loader, cpuDir } : { cpuDir }),
    }),
  };
}
