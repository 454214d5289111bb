import { ResellerClient } from '../../src/client';
import { runSweepCli } from '../../src/commands/sweep';
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { capture } from '../drift/helpers';

/**
 * `reseller-hosting sweep --prefix` and MySQL databases: a database is a test's when its
 * package's primary domain carries the prefix (a database name cannot: no "-"); it goes
 * with its package (no write of its own), and a database of any other package stays.
 */
jest.setTimeout(60_000);

const KEY = 'sweep-mysql-key';
let emulator: RunningEmulator;
let client: ResellerClient;
const env = (): NodeJS.ProcessEnv => ({ ...process.env, RESELLER_API_URL: emulator.url, RESELLER_API_KEY: KEY, RESELLER_ID: undefined, RESELLER_POLL_INTERVAL: '20ms' });
const databases = () => emulator.snapshot().accounts[0].packages.flatMap((p) => p.mysqlDatabases.map((d) => `${d.name} on ${p.name}`)).sort();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY, provisionDelayMs: 0, quiet: true });
  client = new ResellerClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 10 });
  const test = await client.packages.create({ type: 811, domainName: 'tfacc-r2-site.example.com', extraDomainNames: [] });
  const plain = await client.packages.create({ type: 811, domainName: 'plain.example.com', extraDomainNames: [] });
  await client.databases.create(test, 'shop', 'Sweep-db-Passw0rd');
  await client.databases.create(plain, 'tfacc_r2_shop', 'Sweep-db-Passw0rd');
});
afterAll(async () => {
  client?.close();
  await emulator?.stop();
});

test('lists the databases of a prefixed package by their package, deletes them with it, and leaves the others', async () => {
  const listed = await capture(runSweepCli, ['--prefix', 'tfacc-', '--json'], env());
  const names = JSON.parse(listed.stdout).objects.map((o: { kind: string; name: string }) => `${o.kind} ${o.name}`);
  expect(names.filter((n: string) => /^(mysql-database|package) /.test(n)).sort()).toEqual(['mysql-database shop on tfacc-r2-site.example.com', 'package tfacc-r2-site.example.com']);
  // Children first: the database is listed before its package.
  expect(names.indexOf('mysql-database shop on tfacc-r2-site.example.com')).toBeLessThan(names.indexOf('package tfacc-r2-site.example.com'));
  await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
  const run = await capture(runSweepCli, ['--prefix', 'tfacc-', '--yes', '--json'], env());
  expect(run.code).toBe(0);
  const writes = ((await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as Array<{ method: string; path: string }>)
    .filter((r) => r.method === 'POST').map((r) => r.path);
  expect(writes).toEqual(['/reseller/*/deleteWeb']);
  expect(databases()).toEqual(['tfacc_r2_shop on plain.example.com']);
});
