import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findTerraform } from '../scripts/lib/terraform';
import { cpuSplitOf, GNU_TIME, requireGnuTime, TIME_FORMAT, underGnuTime } from './lib/cpu-time';
import { startBenchEmulator, summarize } from './lib/emulator';
import { BuildArg, currentBuild, installBuild, parseBuildArg } from './lib/builds';
import { installFloor } from './lib/floor-install';
import { providerSites, writeProviderStack } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { median } from './lib/stats';
import { PLAN, providerEnv, seedAccount, tf, writeState } from './provider';

/**
 * A tool for working on the provider's CPU (issue 27), not a figure of `npm run bench`:
 * the no-change plan of the provider-plan figure at a size one can iterate on, run
 * through one or more builds of the provider side by side (interleaved, so each sees
 * the same load), reporting the CPU seconds of the provider processes of each plan.
 * With `--profile DIR`, one more plan per build runs its provider processes under
 * `node --cpu-prof`, the profiles written to DIR/<build>/. With `--threads`, each
 * process's CPU is also split between its main thread and its other threads (V8's
 * compiler and GC: lib/thread-cpu.ts). With `--floor`, the floor provider (resource RPCs
 * that do no work: lib/floor-provider.ts) runs as one more build, named `floor`.
 *
 *   node dist/bench/plan-cpu.js [--packages 300] [--runs 3] [--profile DIR] [--threads] [--floor] [NAME=BUNDLE[@NODE_FLAG,...] ...]
 *
 * A build is a provider bundle (`bundle.js` with its `bundle.js.cache` beside it, e.g. a
 * copy of an earlier dist/src/provider), optionally with Node options to run it with;
 * without any, the current build. The plan's
 * stack is the provider-plan figure's: packages each with a mailbox and a forwarder,
 * seeded through the API client, the state written as an import would write it.
 */

interface Build {
  name: string;
  /** Node options the provider processes run with (e.g. V8 flags to try). */
  flags: string[];
  /** The loader of the build's installed copy (bundle, cache and loader in one directory). */
  loader: string;
}

function parseArgs(argv: string[]) {
  const out = { packages: 300, runs: 3, profile: undefined as string | undefined, threads: false, floor: false, builds: [] as BuildArg[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const build = parseBuildArg(arg);
    if (arg === '--packages') out.packages = Number(argv[++i]);
    else if (arg === '--runs') out.runs = Number(argv[++i]);
    else if (arg === '--profile') out.profile = resolve(argv[++i]);
    else if (arg === '--threads') out.threads = true;
    else if (arg === '--floor') out.floor = true;
    else if (build) out.builds.push(build);
    else throw new Error(`plan-cpu: unexpected argument ${arg}`);
  }
  if (!out.builds.length) out.builds.push(currentBuild());
  return out;
}

/** The preload that records each provider process's CPU by thread (--threads). */
const THREAD_CPU_HOOK = join(__dirname, 'lib', 'thread-cpu.js');

/** A RESELLER_NODE wrapper running the build's loader (not the installed one) under GNU time, optionally profiled or split by thread. */
function wrapper(build: Build, cpuDir: string, options: { profileDir?: string; threads: boolean }): string {
  const file = join(cpuDir, 'node');
  const profile = options.profileDir ? `--cpu-prof --cpu-prof-dir='${options.profileDir}' ` : '';
  const threads = options.threads ? `--require '${THREAD_CPU_HOOK}' ` : '';
  writeFileSync(file, [
    '#!/bin/sh',
    'shift',
    `: > '${cpuDir}/started.'$$`,
    `THREAD_CPU_FILE='${cpuDir}/threads'`,
    'export THREAD_CPU_FILE',
    `exec ${GNU_TIME} -f '${TIME_FORMAT}' -o '${cpuDir}/provider.'$$ '${process.execPath}' ${profile}${threads}${build.flags.map((f) => `'${f}' `).join('')}'${build.loader}' "$@"`,
    '',
  ].join('\n'), { mode: 0o755 });
  return file;
}

/** `; main threads M s, other threads O s`: the processes' lines of lib/thread-cpu.ts summed (an error when a process did not write its line). */
function threadSplitOf(cpuDir: string, processes: number): string {
  const lines = readFileSync(join(cpuDir, 'threads'), 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
  if (lines.length !== processes) throw new Error(`--threads: ${lines.length} of ${processes} provider processes reported their threads`);
  const sum = (i: number) => lines.reduce((t, l) => t + l[i], 0).toFixed(2);
  return `; main threads ${sum(0)} s, other threads ${sum(1)} s`;
}

async function main(): Promise<void> {
  requireGnuTime();
  const args = parseArgs(process.argv.slice(2));
  const builds: Build[] = args.builds.map((b) => ({ name: b.name, flags: b.flags, loader: installBuild(b) }));
  // The floor provider (lib/floor-provider.ts) as one more build, installed as the others are (bundle, code cache, loader).
  if (args.floor) builds.push({ name: 'floor', flags: [], loader: await installFloor(scratchDir('floor-')) });
  const binary = findTerraform();
  const emu = await startBenchEmulator();
  try {
    const sites = providerSites(args.packages * 3, 'site', (i) => `site-${i}.bench.example`);
    await seedAccount(emu, sites);
    const dir = writeProviderStack(scratchDir('plan-cpu-'), sites, { passwords: false });
    const env = providerEnv(emu);
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    const resources = await writeState(emu, dir, sites);
    const plan = async (build: Build, profileDir?: string) => {
      const cpuDir = scratchDir('cpu-');
      await emu.clearRequests();
      const wall = await tf(GNU_TIME, dir, underGnuTime(join(cpuDir, 'terraform'), binary, PLAN), { ...env, RESELLER_NODE: wrapper(build, cpuDir, { profileDir, threads: args.threads }) });
      const split = cpuSplitOf(cpuDir);
      // Each process's user + system seconds, in start order, for where the CPU goes (start-up, validation, refresh and plan).
      const each = readdirSync(cpuDir).filter((f) => f.startsWith('provider.')).sort((a, b) => Number(a.slice(9)) - Number(b.slice(9)))
        .map((f) => readFileSync(join(cpuDir, f), 'utf8').trim().split('\n').pop()!.split(' ').slice(1).join('+'));
      if (split.providerProcesses === 0) throw new Error('no provider process ran through the wrapper');
      return { wallS: wall / 1000, cpuS: split.providerCpuS, terraformCpuS: split.terraformCpuS, processes: split.providerProcesses, each, threads: args.threads ? threadSplitOf(cpuDir, split.providerProcesses) : '' };
    };
    process.stdout.write(`${resources} resources (${sites.length} packages); builds: ${builds.map((b) => b.name).join(', ')}\n`);
    // Warm-up (file caches). The requests counted are the first build's: the floor, when
    // it runs last, makes none.
    let traffic = summarize([]);
    for (const [i, b] of builds.entries()) {
      await plan(b);
      if (i === 0) traffic = summarize(await emu.requests());
    }
    process.stdout.write(`requests of one plan (${builds[0].name}): ${traffic.requests} (${Object.entries(traffic.byRoute).map(([r, t]) => `${r}: ${t.requests}`).join('; ')})\n`);
    const cpu: Record<string, number[]> = Object.fromEntries(builds.map((b) => [b.name, []]));
    for (let run = 0; run < args.runs; run++) {
      for (const b of run % 2 ? [...builds].reverse() : builds) {
        const r = await plan(b);
        cpu[b.name].push(r.cpuS);
        process.stdout.write(`run ${run + 1} ${b.name}: provider CPU ${r.cpuS.toFixed(2)} s over ${r.processes} processes [${r.each.join(', ')}] (Terraform ${r.terraformCpuS.toFixed(2)} s), plan ${r.wallS.toFixed(1)} s${r.threads}\n`);
      }
    }
    for (const b of builds) process.stdout.write(`${b.name}: median provider CPU ${median(cpu[b.name]).toFixed(2)} s (${cpu[b.name].map((c) => c.toFixed(2)).join(', ')})\n`);
    if (args.profile) {
      for (const b of builds) {
        const profileDir = join(args.profile, b.name);
        mkdirSync(profileDir, { recursive: true });
        const r = await plan(b, profileDir);
        process.stdout.write(`profiled ${b.name}: provider CPU ${r.cpuS.toFixed(2)} s; profiles in ${profileDir}\n`);
      }
    }
  } finally {
    await emu.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
