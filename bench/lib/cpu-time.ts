import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the CPU of a Terraform run goes: Terraform's own work vs its provider plugins'.
 *
 * Node cannot read a child's resource usage, so GNU time does it: it runs one command
 * and, when it exits, writes the wall time and the user and system CPU seconds that
 * wait4() reports for it. Those include every descendant the command waited for, and
 * Terraform waits for each provider process it starts; so Terraform's own CPU is its
 * total minus that of its provider processes, each of which runs under GNU time too
 * (a RESELLER_NODE wrapper, floor-install.ts) and writes its own file into the same
 * directory. GNU time's resolution is 10 ms per process.
 */
export const GNU_TIME = '/usr/bin/time';
/** Wall seconds, user CPU seconds, system CPU seconds. */
export const TIME_FORMAT = '%e %U %S';
const TIMES = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;

/** Fails loudly when GNU time is not at /usr/bin/time (a shell's `time` keyword cannot do this). */
export function requireGnuTime(): void {
  const probe = spawnSync(GNU_TIME, ['-f', TIME_FORMAT, 'true'], { encoding: 'utf8' });
  const line = probe.stderr?.trim().split('\n').pop() ?? '';
  if (probe.error || probe.status !== 0 || !TIMES.test(line)) {
    throw new Error(
      `the CPU split of the provider benchmarks needs GNU time at ${GNU_TIME} (Debian/Ubuntu: apt-get install time; ` +
        `${probe.error ? probe.error.message : `it printed "${line}"`})`,
    );
  }
}

/** The arguments that run `command args` under GNU time, its times written to `file`. */
export const underGnuTime = (file: string, command: string, args: readonly string[]): string[] => ['-f', TIME_FORMAT, '-o', file, command, ...args];

export interface Times {
  wallS: number;
  cpuS: number;
}

/** A file GNU time wrote (its last line: a non-zero exit or a signal adds a line before it). */
export function readTimes(file: string): Times {
  const line = readFileSync(file, 'utf8').trim().split('\n').pop() ?? '';
  const m = TIMES.exec(line);
  if (!m) throw new Error(`${file}: not GNU time's "${TIME_FORMAT}" output: ${line}`);
  return { wallS: Number(m[1]), cpuS: Number(m[2]) + Number(m[3]) };
}

/** One run's CPU, split between Terraform itself and its provider processes. */
export interface CpuSplit {
  wallS: number;
  /** Terraform's user + system CPU seconds, its provider processes' taken out. */
  terraformCpuS: number;
  /** User + system CPU seconds of every provider process of the run. */
  providerCpuS: number;
  providerProcesses: number;
}

/**
 * The split of a run whose Terraform wrote `<dir>/terraform` and whose provider
 * processes each left `<dir>/started.<pid>` and then `<dir>/provider.<pid>`. A process
 * that started and wrote no times (killed) makes the split unknown: an error.
 */
export function cpuSplitOf(dir: string): CpuSplit {
  const terraform = readTimes(join(dir, 'terraform'));
  const files = readdirSync(dir);
  const lost = files.filter((f) => f.startsWith('started.') && !files.includes(`provider.${f.slice('started.'.length)}`));
  if (lost.length) throw new Error(`${lost.length} provider process(es) in ${dir} ended without GNU time's report (killed?): the CPU split is unknown`);
  const providers = files.filter((f) => f.startsWith('provider.')).map((f) => readTimes(join(dir, f)));
  const providerCpuS = providers.reduce((s, p) => s + p.cpuS, 0);
  return { wallS: terraform.wallS, terraformCpuS: terraform.cpuS - providerCpuS, providerCpuS, providerProcesses: providers.length };
}
