import { ResellerClient } from '../src/client';
import { apiTiming } from './lib/api-timing';
import { BENCH_API_KEY, startBenchEmulator } from './lib/emulator';

/**
 * A tool for the emulator as a product, not a figure of `npm run bench`: the emulator's
 * own time per write (request arrived to response sent, from its request log) as the
 * account grows. For each size, a fresh emulator is filled with that many packages
 * through the API, then takes 200 package creates, each followed by a mailbox create.
 * A write that scanned the whole account would show here as a time growing with N.
 *
 *   node dist/bench/emulator-writes.js [N ...]      (default: 100 1000 3000)
 */

const MEASURED = 200;

async function timeWrites(packages: number): Promise<string> {
  const emu = await startBenchEmulator();
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: BENCH_API_KEY });
  try {
    for (let i = 0; i < packages; i++) await client.packages.create({ type: 811, domainName: `fill-${i}.example.com`, extraDomainNames: [] });
    await emu.clearRequests();
    for (let i = 0; i < MEASURED; i++) {
      const domain = `new-${i}.example.com`;
      const id = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
      await client.mail.createMailbox(id, domain, { local: 'info', send: true, receive: true, password: 'Bench-Passw0rd!' });
    }
    const t = apiTiming(await emu.requests());
    return `${String(packages).padStart(6)} packages: ${t.writes} writes, ${t.writeMs.toFixed(2)} ms per write (median; 90th percentile ${t.writeP90Ms.toFixed(2)} ms)`;
  } finally {
    client.close();
    await emu.stop();
  }
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('emulator-writes: sizes are whole numbers of packages');
  for (const n of sizes.length ? sizes : [100, 1000, 3000]) process.stdout.write(`${await timeWrites(n)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
