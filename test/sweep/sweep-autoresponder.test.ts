import { ResellerClient } from '../../src/client';
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { runBinary } from '../drift/helpers';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * `reseller-hosting sweep` and autoresponders (through the core's list, with no change
 * to sweep): one whose address carries the prefix is deleted; one on a prefixed package
 * goes with its package (no write of its own); a lookalike survives.
 */
const KEY = 'sweep-reply-key';
const PREFIX = 'tfacc-r2-';
let emulator: RunningEmulator;
let client: ResellerClient;

const env = (): NodeJS.ProcessEnv => ({ ...process.env, RESELLER_API_URL: emulator.url, RESELLER_API_KEY: KEY, RESELLER_ID: undefined, RESELLER_POLL_INTERVAL: '20ms' });
const fields = { subject: 'Away', content: 'Back soon', type: 'text/plain', enabled: true, startTime: null, endTime: null, forwardTo: null };
const replies = () => emulator.snapshot().accounts.find((a) => a.isDefault)!.packages.flatMap((p) => p.mail.flatMap((d) => d.responders.map((r) => r.address))).sort();

beforeAll(async () => {
  requireBuiltHandler();
  emulator = await startEmulator({ port: 0, apiKey: KEY, provisionDelayMs: 0, quiet: true });
  client = new ResellerClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 10 });
  await client.packages.create({ type: 811, domainName: 'tfacc-r2-site.example.com', extraDomainNames: [] });
  await client.packages.create({ type: 811, domainName: 'plain.example.com', extraDomainNames: [] });
  await client.responders.create('tfacc-r2-site.example.com', 'tfacc-r2-site.example.com', 'away', fields);
  await client.responders.create('plain.example.com', 'plain.example.com', 'tfacc-r2-away', fields);
  await client.responders.create('plain.example.com', 'plain.example.com', 'away-tfacc-r2', fields);
});
afterAll(async () => {
  client?.close();
  await emulator?.stop();
});

test('lists the prefixed autoresponders; --yes deletes them, the one on a swept package with it; the lookalike survives', async () => {
  const listed = await runBinary(['sweep', '--prefix', PREFIX, '--json'], env());
  expect(listed.code).toBe(0);
  // The swept package's apex records (its zone's defaults) are listed too: they go with it.
  expect(JSON.parse(listed.stdout).objects.map((o: { kind: string; name: string }) => `${o.kind} ${o.name}`).filter((o: string) => !o.startsWith('dns-record')).sort()).toEqual([
    'autoresponder away@tfacc-r2-site.example.com', 'autoresponder tfacc-r2-away@plain.example.com', 'package tfacc-r2-site.example.com',
    'web-settings tfacc-r2-site.example.com', // a package's web settings go with it
  ]);
  expect(replies()).toHaveLength(3);

  await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
  const swept = await runBinary(['sweep', '--prefix', PREFIX, '--yes', '--json'], env());
  expect(swept.code).toBe(0);
  const writes = ((await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as Array<{ method: string; path: string }>)
    .filter((r) => r.method === 'POST').map((r) => r.path);
  expect(writes.filter((path) => path.includes('tfacc-r2-site'))).toEqual([]);
  expect(replies()).toEqual(['away-tfacc-r2@plain.example.com']);
});
