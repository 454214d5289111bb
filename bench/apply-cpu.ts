import { join } from 'node:path';
import { CpuSplit, requireGnuTime } from './lib/cpu-time';
import { startBenchEmulator } from './lib/emulator';
import { BuildArg, currentBuild, installBuild, parseBuildArg } from './lib/builds';
import { writeNodeWrapper } from './lib/floor-install';
import { goFloorFor } from './lib/gofloor';
import { scratchDir } from './lib/scratch';
import { applyRounds, ApplySide, forwarderStack, pairedRatio, spread } from './forwarder-apply';

/**
 * A tool for working on the apply of packages with one forwarder each (issue 36), not
 * a figure of `npm run bench` (that is `provider-apply-forwarders`): the same apply
 * through one or more builds of the provider, and the Go floor with `--go`, in
 * interleaved rounds, every run under GNU time.
 *
 *   node dist/bench/apply-cpu.js [--packages 100] [--runs 7] [--go] [NAME=BUNDLE[@NODE_FLAG,...] ...]
 *
 * A build is a provider bundle (`bundle.js` with its `bundle.js.cache` beside it, e.g. a
 * copy of an earlier dist/src/provider); without any, the current build. Prints each
 * run, then each side's medians (least-greatest) and the median of per-round ratios
 * against the first build and against the Go floor.
 */
function parseArgs(argv: string[]) {
  const out = { packages: 100, runs: 7, go: false, builds: [] as BuildArg[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const build = parseBuildArg(arg);
    if (arg === '--packages') out.packages = Number(argv[++i]);
    else if (arg === '--runs') out.runs = Number(argv[++i]);
    else if (arg === '--go') out.go = true;
    else if (build) out.builds.push(build);
    else throw new Error(`apply-cpu: unexpected argument ${arg}`);
  }
  if (!out.builds.length) out.builds.push(currentBuild());
  return out;
}

const range = (x: { median: number; min: number; max: number }, unit: string) => `${x.median.toFixed(2)}${unit} (${x.min.toFixed(2)}-${x.max.toFixed(2)})`;

async function main(): Promise<void> {
  requireGnuTime();
  const args = parseArgs(process.argv.slice(2));
  const emu = await startBenchEmulator();
  try {
    const dir = await forwarderStack(emu, args.packages);
    const sides: Record<string, ApplySide> = {};
    for (const b of args.builds) {
      const loader = installBuild(b);
      sides[b.name] = { timedEnv: (cpuDir) => ({ RESELLER_NODE: writeNodeWrapper(join(cpuDir, 'node'), { script: loader, cpuDir }) }), makesRequests: true };
    }
    if (args.go) {
      const go = goFloorFor(dir, scratchDir('go-'));
      if (go.skipped !== undefined) throw new Error(go.skipped);
      sides.go = { timedEnv: (cpuDir) => go.timedEnv(cpuDir), makesRequests: false };
    }
    process.stdout.write(`apply of ${args.packages} packages + 1 forwarder each, -parallelism=10; sides: ${Object.keys(sides).join(', ')}; ${args.runs} rounds after one warm-up\n`);
    const { runs } = await applyRounds(emu, dir, sides, args.runs);
    for (let i = 0; i < args.runs; i++) {
      process.stdout.write(`round ${i + 1}: ${Object.entries(runs).map(([name, r]) => `${name} ${r[i].wallS.toFixed(2)} s (Terraform ${r[i].terraformCpuS.toFixed(2)}, provider ${r[i].providerCpuS.toFixed(2)} CPU-s)`).join('; ')}\n`);
    }
    const measures: [string, (s: CpuSplit) => number][] = [['wall', (s) => s.wallS], ["Terraform's own CPU", (s) => s.terraformCpuS], ['provider CPU', (s) => s.providerCpuS]];
    const first = args.builds[0].name;
    for (const [name, r] of Object.entries(runs)) {
      const parts = measures.map(([what, m]) => `${what} ${range(spread(r.map(m)), ' s')}`);
      for (const other of [first, ...(runs.go ? ['go'] : [])].filter((o) => o !== name)) {
        parts.push(`against ${other}: ${measures.map(([what, m]) => `${what} ${range(pairedRatio(r, runs[other], m), 'x')}`).join(', ')}`);
      }
      process.stdout.write(`${name}: ${parts.join('; ')}\n`);
    }
  } finally {
    await emu.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
