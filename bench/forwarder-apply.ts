import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestLogEntry } from '../src/emulator';
import { findTerraform } from '../scripts/lib/terraform';
import { CpuSplit } from './lib/cpu-time';
import { BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { prepareFloor } from './lib/floor-install';
import { goFloorFor } from './lib/gofloor';
import { ProviderSite, writeProviderStack } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { median } from './lib/stats';
import { cpuRun, providerEnv, tf } from './provider';

/**
 * Issue 36: `terraform apply -parallelism=10` of packages that each hold one forwarder,
 * from an empty state, our provider against the Go floor serving our schema on the
 * same stack (and the floor provider: our transport and start-ups, resource RPCs
 * emptied). Each forwarder waits for its package, so the walk is two waves of creates
 * through ten slots: whatever a create waits for in the provider holds a slot, and
 * Terraform idles. Every run is timed by GNU time, so each one gives its wall time
 * and the CPU split between Terraform and its provider processes.
 */
export const FORWARDER_APPLY_GO_RATIO = 2;
export const FORWARDER_APPLY_ARGS = ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'];

export type ForwarderSide = 'provider' | 'floor' | 'go';

export interface ForwarderApplyResult {
  packages: number;
  /** Each side's runs, one per measured round (rounds in order; the order of the sides rotates). */
  runs: Partial<Record<ForwarderSide, CpuSplit[]>>;
  /** Why the Go floor did not run, when it did not. */
  goSkipped?: string;
  /** The requests of one apply of our provider (the last round's). */
  traffic: TrafficSummary;
  /** Per forwarder of that apply: ms from its create to the read that confirmed it. */
  confirmMs: number[];
}

/** `packages` packages with one forwarder each (no mailbox: no sibling to share a mail read with). */
export function forwarderSites(packages: number): ProviderSite[] {
  return Array.from({ length: packages }, (_, i) => ({
    name: `site${i}`, domain: `site-${i}.fw.bench.example`, mailboxes: [],
    forwarders: [{ name: `site${i}_fw`, local: 'fwd0', remote: 'team0@example.org' }],
  }));
}

/** The stack of `packages` packages with a forwarder each, `init` done (remove it when done). */
export async function forwarderStack(emu: BenchEmulator, packages: number): Promise<string> {
  const dir = writeProviderStack(scratchDir('fw-apply-'), forwarderSites(packages), { passwords: false });
  await tf(findTerraform(), dir, ['init', '-input=false', '-no-color'], providerEnv(emu));
  return dir;
}

/** A side of the rounds: the RESELLER_NODE environment of one timed run, and whether its provider talks to the account. */
export interface ApplySide {
  timedEnv(cpuDir: string): NodeJS.ProcessEnv;
  /** False for the floors: a request in their run means our provider ran in their place (an error). */
  makesRequests: boolean;
}

/**
 * `warmup` + `runs` rounds of the apply of `dir` from an empty state and a reset
 * emulator, each side once per round (the order rotates), each run under GNU time.
 * Returns each side's measured runs, and the requests of each side's last run.
 */
export async function applyRounds<K extends string>(
  emu: BenchEmulator, dir: string, sides: Record<K, ApplySide>, runs: number, warmup = 1,
): Promise<{ runs: Record<K, CpuSplit[]>; requests: Record<K, RequestLogEntry[]> }> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const names = Object.keys(sides) as K[];
  const out = { runs: {} as Record<K, CpuSplit[]>, requests: {} as Record<K, RequestLogEntry[]> };
  for (const name of names) out.runs[name] = [];
  for (let round = 0; round < warmup + runs; round++) {
    for (const name of names.map((_, j) => names[(round + j) % names.length])) {
      for (const f of ['terraform.tfstate', 'terraform.tfstate.backup']) rmSync(join(dir, f), { force: true });
      await emu.reset();
      await emu.clearRequests();
      const split = await cpuRun(binary, dir, FORWARDER_APPLY_ARGS, env, (cpuDir) => sides[name].timedEnv(cpuDir));
      const log = await emu.requests();
      if (!sides[name].makesRequests && log.length) throw new Error(`the ${name} apply made ${log.length} requests to the emulator: our provider ran in its place`);
      out.requests[name] = log;
      if (round >= warmup) out.runs[name].push(split);
    }
  }
  return out;
}

/** The figure's rounds: our provider, the floor provider and the Go floor (when it builds). */
export async function benchForwarderApply(emu: BenchEmulator, options: { packages: number; runs: number }): Promise<ForwarderApplyResult> {
  const dir = await forwarderStack(emu, options.packages);
  const kit = await prepareFloor();
  try {
    const go = goFloorFor(dir, kit.dir);
    const sides: Partial<Record<ForwarderSide, ApplySide>> = {
      provider: { timedEnv: (cpuDir) => kit.timedEnv('provider', cpuDir), makesRequests: true },
      go: go.skipped === undefined ? { timedEnv: (cpuDir) => go.timedEnv(cpuDir), makesRequests: false } : undefined,
      floor: { timedEnv: (cpuDir) => kit.timedEnv('floor', cpuDir), makesRequests: false },
    };
    const measured = await applyRounds(emu, dir, Object.fromEntries(Object.entries(sides).filter(([, s]) => s)) as Record<ForwarderSide, ApplySide>, options.runs);
    const requests = measured.requests.provider;
    return { packages: options.packages, runs: measured.runs, goSkipped: go.skipped, traffic: summarize(requests), confirmMs: confirmationWaits(requests) };
  } finally {
    rmSync(kit.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** For each mail create in the log, the ms until the next read of the same domain's mail (its confirmation). */
export function confirmationWaits(entries: readonly RequestLogEntry[]): number[] {
  const waits: number[] = [];
  const created = new Map<string, number>();
  for (const e of [...entries].sort((a, b) => Date.parse(a.time) - Date.parse(b.time))) {
    if (!e.path.includes('/email/')) continue;
    const at = Date.parse(e.time);
    if (e.method === 'POST') created.set(e.path, at);
    else if (e.method === 'GET' && created.has(e.path)) {
      waits.push(at - created.get(e.path)!);
      created.delete(e.path);
    }
  }
  return waits;
}

/** Median, least and greatest of the runs' values. */
export function spread(values: readonly number[]): { median: number; min: number; max: number } {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The median of per-round ratios a / b of one measure (rounds pair up by index). */
export function pairedRatio(a: readonly CpuSplit[], b: readonly CpuSplit[], measure: (s: CpuSplit) => number): { median: number; min: number; max: number } {
  return spread(a.map((x, i) => measure(x) / Math.max(measure(b[i]), 0.01)));
}
