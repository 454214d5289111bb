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

export async function benchForwarderApply(emu: BenchEmulator, options: { packages: number; runs: number; warmup?: number }): Promise<ForwarderApplyResult> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const dir = writeProviderStack(scratchDir('fw-apply-'), forwarderSites(options.packages), { passwords: false });
  await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
  const kit = await prepareFloor();
  const go = goFloorFor(dir, kit.dir);
  const fresh = async () => {
    for (const f of ['terraform.tfstate', 'terraform.tfstate.backup']) rmSync(join(dir, f), { force: true });
    await emu.reset();
    await emu.clearRequests();
  };
  const sides: Record<ForwarderSide, (() => Promise<CpuSplit>) | undefined> = {
    provider: () => cpuRun(binary, dir, FORWARDER_APPLY_ARGS, env, (cpuDir) => kit.timedEnv('provider', cpuDir)),
    floor: () => cpuRun(binary, dir, FORWARDER_APPLY_ARGS, env, (cpuDir) => kit.timedEnv('floor', cpuDir)),
    go: go.skipped === undefined ? () => cpuRun(binary, dir, FORWARDER_APPLY_ARGS, env, (cpuDir) => go.timedEnv(cpuDir)) : undefined,
  };
  const names = (Object.keys(sides) as ForwarderSide[]).filter((s) => sides[s]);
  const runs: Partial<Record<ForwarderSide, CpuSplit[]>> = Object.fromEntries(names.map((s) => [s, []]));
  let requests: RequestLogEntry[] = [];
  const warmup = options.warmup ?? 1;
  try {
    for (let round = 0; round < warmup + options.runs; round++) {
      // The order rotates each round: no side always runs first, or right after the same other one.
      for (const side of names.map((_, j) => names[(round + j) % names.length])) {
        await fresh();
        const split = await sides[side]!();
        const log = await emu.requests();
        if (side === 'provider') requests = log;
        else if (log.length) throw new Error(`the ${side} apply made ${log.length} requests to the emulator: our provider ran in its place`);
        if (round >= warmup) runs[side]!.push(split);
      }
    }
  } finally {
    rmSync(kit.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  return { packages: options.packages, runs, goSkipped: go.skipped, traffic: summarize(requests), confirmMs: confirmationWaits(requests) };
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
