import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExecutables, BuildReport } from '../scripts/executables/build';
import { runtimeBinary } from '../scripts/executables/runtime';
import { findTerraform } from '../scripts/lib/terraform';
import { installProvider } from '../src/provider/install';
import { createServerCertificate } from '../src/provider/transport/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/transport/handshake';
import { cpuSplitOf, CpuSplit, GNU_TIME, requireGnuTime, TIME_FORMAT, underGnuTime } from './lib/cpu-time';
import { startBenchEmulator } from './lib/emulator';
import { goFloorDir } from './lib/gofloor';
import { loadPerCore, machineInfo } from './lib/machine';
import { builtProvider, providerSites, writeProviderStack } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { timeToStart } from './lib/start-time';
import { compare, median, rounds } from './lib/stats';
import { PLAN, providerEnv, seedAccount, tf, writeState } from './provider';

/**
 * The provider executables' figures (issue 36). A tool like plan-cpu.ts, printing
 * Markdown for BENCHMARKS.md, not a figure of `npm run bench` (its report is being
 * reworked in parallel):
 *
 *   node dist/bench/executable.js [--startup-runs 31] [--plan-runs 5] [--packages 1000] [--only sizes,startup,plan] [--executables DIR]
 *
 * (it builds the executables into dist/executables, from the build cache when nothing
 * changed; `--executables DIR` takes those of an earlier build instead);
 * - sizes: each platform's zip and executable;
 * - startup: spawn to the go-plugin handshake line of the linux_amd64 executable, of the
 *   Node launcher (run by this machine's `node`), of the Go floor when built, against
 *   `node -e 0` (this machine's Node, the issue's baseline) and the pinned Node's own
 *   `-e 0`; interleaved rounds; once with this environment and once without
 *   NODE_EXTRA_CA_CERTS (Node 20 reads that whole bundle at start, Node 24 when TLS
 *   first needs it, so it moves every Node 20 figure);
 * - plan: provider CPU of the no-change plan of N packages, each with a mailbox and a
 *   forwarder (3N resources), each side in turn in the same stack and state (the
 *   installed launcher's RESELLER_NODE runs the side under GNU time), interleaved.
 */

interface Args {
  executables?: string;
  startupRuns: number;
  planRuns: number;
  packages: number;
  only: Set<string>;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { startupRuns: 31, planRuns: 5, packages: 1000, only: new Set(['sizes', 'startup', 'plan']) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--startup-runs') out.startupRuns = Number(argv[++i]);
    else if (arg === '--plan-runs') out.planRuns = Number(argv[++i]);
    else if (arg === '--packages') out.packages = Number(argv[++i]);
    else if (arg === '--only') out.only = new Set(argv[++i].split(','));
    else if (arg === '--executables') out.executables = argv[++i];
    else throw new Error(`bench/executable: unexpected argument ${arg}`);
  }
  return out;
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const out = (line = '') => process.stdout.write(`${line}\n`);

/** The built Go floor (shared/gofloor/.build), or undefined. */
function goFloorBinary(): string | undefined {
  const dir = goFloorDir() ?? join(__dirname, '..', '..', '..', 'shared', 'gofloor');
  const binary = join(dir, '.build', 'terraform-provider-floor_v0.0.1');
  return existsSync(binary) ? binary : undefined;
}

function sizes(report: BuildReport): void {
  out(`### provider executables: sizes (Node ${report.node}, provider ${report.version})`);
  out();
  out('| platform | zip | executable | V8 code cache inside | started by the build |');
  out('|---|---|---|---|---|');
  for (const p of report.platforms) out(`| ${p.platform} | ${mb(p.zipBytes)} | ${mb(p.executableBytes)} | ${p.codeCache ? 'yes' : 'no'} | ${p.started} |`);
  out();
}

async function startup(report: BuildReport, runs: number): Promise<void> {
  const dir = scratchDir('start-');
  const launcher = installProvider(dir, undefined, builtProvider());
  const executable = report.platforms.find((p) => p.platform === 'linux_amd64')!.executable;
  const pinnedNode = runtimeBinary('linux_amd64');
  const go = goFloorBinary();
  const plugin = {
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: createServerCertificate().certPem, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_UNIX_SOCKET_DIR: dir,
  };
  out(`### provider executables: start-up, spawn to handshake line (${runs} interleaved rounds after 2 warm-up rounds; medians)`);
  out();
  out('| environment | executable | launcher (Node ' + process.versions.node + ') | ' + (go ? 'Go floor | ' : '') + '`node -e 0` (Node ' + process.versions.node + ') | pinned Node `-e 0` | executable / `node -e 0` | launcher / `node -e 0` | executable / pinned `-e 0` |');
  out(`|---|---|---|${go ? '---|' : ''}---|---|---|---|---|`);
  for (const [label, base] of [
    ['as on this machine (NODE_EXTRA_CA_CERTS set)', { ...process.env }],
    ['NODE_EXTRA_CA_CERTS unset', (() => {
      const env = { ...process.env };
      delete env.NODE_EXTRA_CA_CERTS;
      return env;
    })()],
  ] as const) {
    if (label.startsWith('as on') && !base.NODE_EXTRA_CA_CERTS) continue;
    const env = { ...base, ...plugin };
    const actions = {
      executable: () => timeToStart(executable, [], true, env),
      launcher: () => timeToStart(launcher, [], true, env),
      node: () => timeToStart(process.execPath, ['-e', '0'], false, env),
      pinned: () => timeToStart(pinnedNode, ['-e', '0'], false, env),
      ...(go ? { go: () => timeToStart(go, [], true, env) } : {}),
    };
    const load = loadPerCore();
    const m = await rounds(actions as Record<string, () => Promise<number>>, runs, 2);
    const exe = compare(m, 'executable', 'node');
    const launch = compare(m, 'launcher', 'node');
    const own = compare(m, 'executable', 'pinned');
    out(`| ${label}; load/core ${load.toFixed(2)} | ${ms(exe.subjectMs)} | ${ms(launch.subjectMs)} | ${go ? `${ms(median(m.go))} | ` : ''}${ms(exe.baselineMs)} | ${ms(median(m.pinned))} | ${exe.ratio.toFixed(2)}x | ${launch.ratio.toFixed(2)}x | ${own.ratio.toFixed(2)}x |`);
  }
  out();
}

/** A RESELLER_NODE wrapper: drops the installed launcher's loader argument and runs `command` under GNU time. */
function timedWrapper(cpuDir: string, name: string, command: string[], env: Record<string, string> = {}): string {
  const file = join(cpuDir, `${name}-node`);
  writeFileSync(file, [
    '#!/bin/sh',
    ...(command.length === 1 ? ['shift'] : []), // the executable and the Go floor take no loader; node keeps it
    `: > '${cpuDir}/started.'$$`,
    ...Object.entries(env).map(([k, v]) => `${k}='${v}'; export ${k}`),
    `exec ${GNU_TIME} -f '${TIME_FORMAT}' -o '${cpuDir}/provider.'$$ ${command.map((c) => `'${c}'`).join(' ')} "$@"`,
    '',
  ].join('\n'), { mode: 0o755 });
  return file;
}

async function plan(report: BuildReport, args: Args): Promise<void> {
  requireGnuTime();
  const binary = findTerraform();
  const executable = report.platforms.find((p) => p.platform === 'linux_amd64')!.executable;
  const go = goFloorBinary();
  const emu = await startBenchEmulator();
  try {
    const sites = providerSites(args.packages * 3, 'site', (i) => `site-${i}.bench.example`);
    await seedAccount(emu, sites);
    const dir = writeProviderStack(scratchDir('plan-'), sites, { passwords: false });
    const env = providerEnv(emu);
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    const resources = await writeState(emu, dir, sites);
    let schema: string | undefined;
    if (go) {
      schema = join(scratchDir('schema-'), 'schema.json');
      writeFileSync(schema, spawnSync(binary, ['providers', 'schema', '-json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CHECKPOINT_DISABLE: '1' }, maxBuffer: 64 << 20 }).stdout);
    }
    const sides: Record<string, (cpuDir: string) => string> = {
      launcher: (cpuDir) => timedWrapper(cpuDir, 'launcher', [process.execPath, '--']),
      executable: (cpuDir) => timedWrapper(cpuDir, 'executable', [executable]),
      ...(go && schema ? { go: (cpuDir: string) => timedWrapper(cpuDir, 'go', [go], { FLOOR_SCHEMA: schema!, FLOOR_SCHEMA_OPTIONAL: '1' }) } : {}),
    };
    const runPlan = async (side: string): Promise<CpuSplit> => {
      const cpuDir = scratchDir('cpu-');
      mkdirSync(cpuDir, { recursive: true });
      await tf(GNU_TIME, dir, underGnuTime(join(cpuDir, 'terraform'), binary, PLAN), { ...env, RESELLER_NODE: sides[side](cpuDir) });
      const split = cpuSplitOf(cpuDir);
      if (split.providerProcesses === 0) throw new Error(`${side}: no provider process ran through the wrapper`);
      return split;
    };
    const names = Object.keys(sides);
    for (const side of names) await runPlan(side); // warm-up: file caches
    const cpu: Record<string, CpuSplit[]> = Object.fromEntries(names.map((n) => [n, []]));
    const load = loadPerCore();
    for (let run = 0; run < args.planRuns; run++) {
      const order = names.map((_, j) => names[(run + j) % names.length]);
      for (const side of order) cpu[side].push(await runPlan(side));
    }
    const med = (side: string, f: (s: CpuSplit) => number) => median(cpu[side].map(f));
    out(`### provider executables: no-change \`terraform plan\` of ${resources} resources (${sites.length} packages, each with a mailbox and a forwarder), ${args.planRuns} interleaved rounds after a warm-up round; load/core ${load.toFixed(2)} at the start`);
    out();
    out('| provider | wall time | provider processes\' CPU | Terraform\'s own CPU | provider CPU / launcher\'s | provider CPU / Go floor\'s |');
    out('|---|---|---|---|---|---|');
    for (const side of names) {
      const ratio = (other: string) => (cpu[other] ? `${median(cpu[side].map((s, i) => s.providerCpuS / cpu[other][i].providerCpuS)).toFixed(2)}x` : '-');
      out(`| ${side === 'go' ? 'Go floor (shared/gofloor, our schema, no work)' : side} | ${med(side, (s) => s.wallS).toFixed(2)} s | ${med(side, (s) => s.providerCpuS).toFixed(2)} s (${cpu[side][0].providerProcesses} processes) | ${med(side, (s) => s.terraformCpuS).toFixed(2)} s | ${ratio('launcher')} | ${ratio('go')} |`);
    }
    out();
    out(`Per round, provider CPU (s): ${names.map((n) => `${n} ${cpu[n].map((s) => s.providerCpuS.toFixed(2)).join(' ')}`).join('; ')}`);
    out();
  } finally {
    await emu.stop();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const machine = machineInfo();
  process.stderr.write(`machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, ${machine.terraform}; load/core ${loadPerCore().toFixed(2)}\n`);
  const report: BuildReport = args.executables
    ? JSON.parse(readFileSync(join(args.executables, 'build.json'), 'utf8'))
    : buildExecutables({ log: (line) => process.stderr.write(`${line}\n`) });
  if (args.only.has('sizes')) sizes(report);
  if (args.only.has('startup')) await startup(report, args.startupRuns);
  if (args.only.has('plan')) await plan(report, args);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
