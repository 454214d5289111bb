import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { GNU_TIME, requireGnuTime, TIME_FORMAT } from './cpu-time';

/**
 * The Go floor: `shared/gofloor`, a do-nothing provider in Go served by
 * hashicorp/go-plugin (what every registry provider is), standing in for our provider
 * with our own schema. Its `swap.sh` writes a RESELLER_NODE wrapper, so that a stack's
 * installed provider runs gofloor instead: same stack, state and Terraform; only the
 * plugin differs.
 *
 * gofloor is not part of this project: it is built at run time by its own build.sh
 * (Debian's Go packages; `GOFLOOR_BUILD_DIR` chooses where, else its default). When it
 * cannot be found or built, only the Go-floor columns are skipped, and `skipped` says
 * why (printed loudly by `goFloorFor`).
 */

/** `GOFLOOR_DIR`, else `shared/gofloor` beside the repository or one of its parents (a worktree). */
export function goFloorDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GOFLOOR_DIR) return resolve(env.GOFLOOR_DIR);
  for (let dir = dirname(REPO_ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'gofloor');
    if (existsSync(join(candidate, 'swap.sh'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * What Terraform's environment needs for gofloor: the wrapper, and the same server
 * capabilities as ours (get_provider_schema_optional, so that Terraform reuses the
 * schema of the run's first plugin process for both).
 */
export type GoFloorEnv = NodeJS.ProcessEnv & { RESELLER_NODE: string; FLOOR_SCHEMA_OPTIONAL: '1' };

/** The Go floor serving one stack's provider, or why not. */
export type GoFloor =
  | {
    /** Makes the stack's installed provider run gofloor. */
    env: GoFloorEnv;
    /** The same, each gofloor process timed by GNU time into `cpuDir` (see cpu-time.ts). */
    timedEnv(cpuDir: string): GoFloorEnv;
    skipped?: undefined;
  }
  | { skipped: string };

/**
 * Runs gofloor's swap.sh on an initialised stack (it builds gofloor if needed and reads
 * the stack's schema through our provider), writing its wrapper into `dir`. Never
 * throws for a missing Go toolchain: it says so on stderr and returns `skipped`.
 */
export function goFloorFor(stackDir: string, dir: string): GoFloor {
  const here = goFloorDir();
  if (!here) return skip('shared/gofloor not found beside the repository (set GOFLOOR_DIR)');
  const wrapper = join(dir, 'gofloor-node');
  const r = spawnSync(join(here, 'swap.sh'), ['-o', wrapper, stackDir], {
    encoding: 'utf8', env: { ...process.env, CHECKPOINT_DISABLE: '1' }, timeout: 10 * 60_000,
  });
  const line = r.stdout?.trim().split('\n').pop() ?? '';
  if (r.error || r.status !== 0 || !line.startsWith('RESELLER_NODE=')) {
    const why = r.error ? r.error.message : (r.stderr ?? '').trim().split('\n').slice(-6).join(' / ');
    return skip(`${join(here, 'swap.sh')} failed (exit ${r.status}): ${why}`);
  }
  const swapped = line.slice('RESELLER_NODE='.length);
  return {
    env: { RESELLER_NODE: swapped, FLOOR_SCHEMA_OPTIONAL: '1' },
    timedEnv: (cpuDir) => {
      requireGnuTime();
      const timed = join(cpuDir, 'gofloor-node');
      writeFileSync(timed, [
        '#!/bin/sh',
        '# RESELLER_NODE wrapper of the benchmarks (bench/lib/gofloor.ts): gofloor\'s own wrapper under GNU time.',
        `: > '${cpuDir}/started.'$$`,
        `exec ${GNU_TIME} -f '${TIME_FORMAT}' -o '${cpuDir}/provider.'$$ '${swapped}' "$@"`,
        '',
      ].join('\n'), { mode: 0o755 });
      return { RESELLER_NODE: timed, FLOOR_SCHEMA_OPTIONAL: '1' };
    },
  };
}

function skip(why: string): GoFloor {
  const message = `GO FLOOR SKIPPED: ${why}. The Go-floor columns are left out of this run; ` +
    'install the Debian packages named at the head of shared/gofloor/build.sh to measure them.';
  process.stderr.write(`\n*** ${message} ***\n\n`);
  return { skipped: message };
}
