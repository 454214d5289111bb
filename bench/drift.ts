import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../src/client';
import { REPO_ROOT } from '../scripts/lib/terraform';
import { BENCH_API_KEY, BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { BENCH_PASSWORD, packageDomain, synthAccount } from './lib/stacks';
import { median, pool, timeProcess } from './lib/stats';

/**
 * Figure 4: `reseller-hosting drift --out DIR --json` over an account of `packages`
 * packages with one mailbox and one forwarder each (2 mail objects per package), all in
 * sync with the synthesized stack. Wall time of the command and the requests it makes.
 */
export interface DriftResult {
  packages: number;
  mailObjects: number;
  mailDomains: number;
  ms: number;
  traffic: TrafficSummary;
  /** Lists read (every route but the per-domain mail read) and their request count. */
  listRequests: number;
  listRoutes: number;
  mailRequests: number;
}

export const DRIFT_GOAL_MS = 3000;

export const driftCommandPath = () => join(REPO_ROOT, 'dist', 'src', 'commands', 'drift', 'index.js');
export const driftAvailable = () => existsSync(driftCommandPath());

export async function benchDrift(emu: BenchEmulator, options: { packages: number; runs: number; log?: (line: string) => void }): Promise<DriftResult> {
  const { outdir } = synthAccount({ packages: options.packages, mailboxesPerPackage: 1, forwarders: options.packages });
  await seedAccount(emu, options.packages);
  const env = { ...emu.handlerEnv(), RESELLER_MAILBOX_PASSWORD: BENCH_PASSWORD };
  const times: number[] = [];
  let traffic: TrafficSummary | undefined;
  for (let i = 0; i < options.runs + 1; i++) {
    await emu.clearRequests();
    const r = await timeProcess(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'drift', '--stacks', outdir, '--json'], { env });
    if (r.code !== 0) throw new Error(`drift: exit ${r.code}: ${r.stderr.slice(-2000)}`);
    const doc = JSON.parse(r.stdout) as { summary?: { drift?: unknown } };
    if (doc.summary?.drift) options.log?.(`  note: drift reports drift on an in-sync account: ${JSON.stringify(doc.summary)}`);
    if (i > 0) times.push(r.ms); // the first run warms the page cache
    traffic = summarize(await emu.requests());
  }
  const mail = Object.entries(traffic!.byRoute).filter(([route]) => route.includes('/email/'));
  const lists = Object.entries(traffic!.byRoute).filter(([route]) => !route.includes('/email/'));
  return {
    packages: options.packages,
    mailObjects: 2 * options.packages,
    mailDomains: options.packages,
    ms: median(times),
    traffic: traffic!,
    listRequests: lists.reduce((s, [, r]) => s + r.requests, 0),
    listRoutes: lists.length,
    mailRequests: mail.reduce((s, [, r]) => s + r.requests, 0),
  };
}

/** The live side: the same packages, mailboxes and forwarders, created through the client. */
async function seedAccount(emu: BenchEmulator, packages: number): Promise<void> {
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: BENCH_API_KEY, maxConcurrency: 16 });
  const types = await client.packageTypes.list();
  const type = types.find((t) => t.label === 'Linux Unlimited')!;
  const owner = await client.users.findByEmail('owner@example.com');
  const indexes = Array.from({ length: packages }, (_, i) => i);
  await pool(indexes, 16, async (i) => {
    const domain = packageDomain(i);
    await client.packages.create({ type: type.id, domainName: domain, extraDomainNames: [], label: `Customer ${i}`, documentRoots: {}, stackUser: owner ?? null });
    await client.mail.createMailbox(domain, domain, { local: 'box0', send: true, receive: true, password: BENCH_PASSWORD });
    await client.mail.createForwarder(domain, domain, { local: 'fwd0', remote: 'team0@example.org' });
  });
  client.close();
}
