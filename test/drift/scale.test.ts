import { App, TerraformStack } from 'cdktf';
import { ResellerClient } from '../../src/client';
import { runDrift } from '../../src/commands/drift';
import { mapConcurrent } from '../../src/stacks';
import { startEmulator, RunningEmulator } from '../../src/emulator';
import { Forwarder, HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { LoggedRequest, removeTempDirs, tempDir } from './helpers';

/**
 * Drift over a few hundred objects: one request per list plus one per mail domain, no
 * per-object reads. How long it takes is the drift benchmark's business (bench/drift.ts,
 * 1,000 packages and 2,000 mail objects), not a test's: a time limit here would fail on a
 * busy machine without anything being wrong.
 */
const PACKAGES = 150;
const domain = (i: number) => `site-${String(i).padStart(4, '0')}.example.com`;
const extra = (i: number) => `site-${String(i).padStart(4, '0')}.example.net`;

let emu: RunningEmulator;
let client: ResellerClient;
let dir: string;
const env = () => ({ RESELLER_API_URL: emu.url, RESELLER_API_KEY: 'emulator-key' });
const requests = async () => (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as LoggedRequest[];

beforeAll(async () => {
  emu = await startEmulator({ quiet: true, provisionDelayMs: 0 }); // in memory: seeding is fast
  client = new ResellerClient({ baseUrl: emu.url, apiKey: 'emulator-key' });
  const ids = await mapConcurrent([...Array(PACKAGES).keys()], 8, (i) =>
    client.packages.create({ type: 811 + (i % 2), domainName: domain(i), extraDomainNames: [extra(i)], label: `Site ${i}` }),
  );
  await mapConcurrent(ids, 8, async (id, i) => {
    await client.mail.createMailbox(id, domain(i), { local: 'info', send: true, receive: i % 3 !== 0, password: 'Scale-Passw0rd!' });
    await client.mail.createForwarder(id, extra(i), { local: 'sales', remote: `sales-${i}@example.org` });
  });

  dir = tempDir('reseller-scale-');
  const app = new App({ outdir: dir });
  const stack = new TerraformStack(app, 'scale');
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  for (let i = 0; i < PACKAGES; i++) {
    const site = new HostingPackage(stack, `site${i}`, {
      domainName: domain(i), extraDomainNames: [extra(i)], packageType: i % 2 ? 'Linux Starter' : 'Linux Unlimited', label: `Site ${i}`,
    });
    new Mailbox(stack, `info${i}`, { package: site, localPart: 'info', receive: i % 3 !== 0 });
    new Forwarder(stack, `sales${i}`, { package: site, localPart: 'sales', domain: extra(i), remote: `sales-${i}@example.org` });
  }
  app.synth();
}, 60_000);
afterAll(async () => {
  client?.close();
  await emu?.stop();
  removeTempDirs();
});

test(`${PACKAGES * 3} objects on ${PACKAGES * 2} domains: one request per list and per mail domain`, async () => {
  await fetch(`${emu.url}/__emulator/requests`, { method: 'DELETE' });
  const { document } = await runDrift({ stacks: dir, env: env() });
  const log = await requests();
  expect(document.summary).toMatchObject({ declared: PACKAGES * 3, inSync: PACKAGES * 3, unmanaged: 0, drift: false });
  // Packages, servers, package types and each mail domain: no stack declares users or DNS
  // records, kinds drift does not list as unmanaged, so their lists are not read.
  expect(log).toHaveLength(3 + PACKAGES * 2);
  expect(log.filter((r) => r.path.includes('/email/'))).toHaveLength(PACKAGES * 2);
  expect(new Set(log.map((r) => r.path)).size).toBe(log.length); // nothing read twice
  expect(log.every((r) => r.method === 'GET')).toBe(true);
  expect(document.requests).toBe(log.length);
});

test('drift among hundreds of objects is found', async () => {
  const pkg = (await client.packages.list()).find((p) => p.name === domain(123))!;
  await client.packages.setLabel(pkg.id, 'changed');
  const { document } = await runDrift({ stacks: dir, env: env() });
  expect(document.objects.filter((o) => o.status !== 'in-sync')).toEqual([
    expect.objectContaining({ key: domain(123), status: 'changed', diffs: [{ field: 'label', declared: 'Site 123', live: 'changed' }] }),
  ]);
});
