import { BenchEmulator, startBenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { applyCreates } from './lib/provision';
import { BENCH_PASSWORD, PASSWORD_VARIABLE, synthAccount } from './lib/stacks';

/**
 * Figure 2: what the API sees when a reseller's stack grows. For each N, a fresh
 * emulator and a fresh apply that creates N packages with one mailbox each, running
 * every synthesized create-time provisioner (one `ensure` per object) as a
 * process. Requests and bytes come from the emulator's request log.
 */
export interface GrowthRow {
  n: number;
  objects: number;
  provisioners: number;
  seconds: number;
  traffic: TrafficSummary;
  requestsPerObject: number;
  bytesPerObject: number;
}

export const REQUESTS_PER_OBJECT_GOAL = 3;
export const BYTES_GROWTH_GOAL = 1.5;

export async function benchApiGrowth(options: { sizes: number[]; parallelism: number; log?: (line: string) => void }): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  for (const n of options.sizes) {
    const emu: BenchEmulator = await startBenchEmulator();
    try {
      const { stackDir, json } = synthAccount({ packages: n, mailboxesPerPackage: 1, forwarders: 0 });
      await emu.clearRequests();
      const started = performance.now();
      const runs = await applyCreates(json, {
        cwd: stackDir, env: emu.handlerEnv(), vars: { [PASSWORD_VARIABLE]: BENCH_PASSWORD }, parallelism: options.parallelism,
      });
      const seconds = (performance.now() - started) / 1000;
      const traffic = summarize(await emu.requests());
      const account = emu.emulator.snapshot().accounts.find((a) => a.isDefault)!;
      const mailboxes = account.packages.reduce((sum, p) => sum + p.mail.reduce((s, d) => s + d.mailboxes.length, 0), 0);
      if (account.packages.length !== n || mailboxes !== n) {
        throw new Error(`api growth N=${n}: the account has ${account.packages.length} packages and ${mailboxes} mailboxes`);
      }
      const objects = 2 * n;
      rows.push({
        n, objects, provisioners: runs.length, seconds, traffic,
        requestsPerObject: traffic.requests / objects, bytesPerObject: traffic.bytes / objects,
      });
      options.log?.(`  N=${n}: ${traffic.requests} requests, ${traffic.bytes} bytes, ${runs.length} provisioners in ${seconds.toFixed(1)} s`);
    } finally {
      await emu.stop();
    }
  }
  return rows;
}

/** bytes per object at the largest N over bytes per object at the smallest. */
export function bytesGrowth(rows: readonly GrowthRow[]): number {
  const sorted = [...rows].sort((a, b) => a.n - b.n);
  return sorted[sorted.length - 1].bytesPerObject / sorted[0].bytesPerObject;
}
