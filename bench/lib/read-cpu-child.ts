import * as http from 'node:http';
import { ResellerClient } from '../../src/client';
import { pool } from './stats';

/**
 * The process bench/read-cpu.ts measures: `node read-cpu-child.js MODE URL` makes the
 * reads of MODE against the emulator at URL (its key in RESELLER_API_KEY), then prints its own CPU seconds (user +
 * system, every thread) as JSON. It loads nothing else, so that its CPU is start-up
 * plus the reads.
 */

/** Reads in flight: Terraform's default parallelism. */
export const IN_FLIGHT = 10;

/** What a measured process reads: the package list only, then the mail through our client, or through node:http alone. */
export type Mode = 'bare' | 'client' | 'node-http';

/** One measured process: the reads of `mode`, then its CPU seconds on stdout. */
async function child(mode: Mode, url: string, apiKey: string): Promise<void> {
  const client = new ResellerClient({ baseUrl: url, apiKey });
  const packages = await client.packages.list();
  if (mode === 'client') await pool(packages, IN_FLIGHT, (p) => client.mail.get(p.id, p.name));
  if (mode === 'node-http') {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const authorization = `Bearer ${Buffer.from(apiKey).toString('base64')}`;
    await pool(packages, IN_FLIGHT, (p) => new Promise((resolve, reject) => {
      http.get(`${url}/package/${p.id}/email/${encodeURIComponent(p.name)}`, { agent, headers: { authorization } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`HTTP ${res.statusCode}`))));
      }).on('error', reject);
    }));
    agent.destroy();
  }
  client.close();
  const usage = process.resourceUsage();
  process.stdout.write(`${JSON.stringify({ reads: mode === 'bare' ? 0 : packages.length, cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
}

if (require.main === module) {
  child(process.argv[2] as Mode, process.argv[3], process.env.RESELLER_API_KEY ?? '').catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
