import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { IN_FLIGHT, Mode } from './lib/read-cpu-child';
import { BENCH_API_KEY, startBenchEmulator } from './lib/emulator';
import { providerSites } from './lib/provider-config';
import { median } from './lib/stats';
import { seedAccount } from './provider';

/**
 * A tool for the provider's CPU budget (issue 27), not a figure of `npm run bench`: what
 * the API reads of a no-change plan cost a fresh Node process by themselves. A refresh
 * must read every package's mail (one read per domain: the API has no bulk read), which
 * the Go floor never does. Each run starts three processes, interleaved:
 * - `bare`: Node, our API client loaded, one package-list read;
 * - `client`: the same, then one mail read per package through our client, 10 in flight
 *   (Terraform's default parallelism);
 * - `node-http`: the same reads through `node:http` alone (a keep-alive agent, the body
 *   parsed as JSON): the least any Node provider pays for them.
 * Each reports its own CPU (user + system, every thread) at exit; a read's cost is the
 * process's CPU above `bare`'s.
 *
 *   node dist/bench/read-cpu.js [--packages 1000] [--runs 5]
 */

const MODES: readonly Mode[] = ['bare', 'client', 'node-http'];
/** The measured process: lean, so that it loads only what it measures. */
const CHILD = join(__dirname, 'lib', 'read-cpu-child.js');

function measure(mode: Mode, url: string): Promise<{ reads: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, mode, url], { env: { ...process.env, RESELLER_API_KEY: BENCH_API_KEY } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`read-cpu ${mode}: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

async function main(argv: string[]): Promise<void> {
  const options = { packages: 1000, runs: 5 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--packages') options.packages = Number(argv[++i]);
    else if (argv[i] === '--runs') options.runs = Number(argv[++i]);
    else throw new Error(`read-cpu: unexpected argument ${argv[i]}`);
  }
  const emu = await startBenchEmulator();
  try {
    await seedAccount(emu, providerSites(options.packages * 3));
    const cpu = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
    for (let run = 0; run < options.runs; run++) {
      // Rotate the order each run, so that no mode always follows another.
      for (let k = 0; k < MODES.length; k++) {
        const mode = MODES[(run + k) % MODES.length];
        const result = await measure(mode, emu.url);
        if (mode !== 'bare' && result.reads !== options.packages) throw new Error(`read-cpu: ${mode} made ${result.reads} reads, not ${options.packages}`);
        cpu.get(mode)!.push(result.cpu);
      }
    }
    const bare = median(cpu.get('bare')!);
    console.log(`${options.packages} mail reads (one per package), ${IN_FLIGHT} in flight; process CPU, median of ${options.runs} runs:`);
    console.log(`  bare (start, client loaded, one list read): ${bare.toFixed(3)} s`);
    for (const mode of ['client', 'node-http'] as const) {
      const total = median(cpu.get(mode)!);
      const reads = total - bare;
      console.log(`  ${mode}: ${total.toFixed(3)} s; the reads ${reads.toFixed(3)} s, ${((reads / options.packages) * 1e6).toFixed(0)} us each`);
    }
  } finally {
    await emu.stop();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
