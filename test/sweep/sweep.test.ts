import { ResellerClient } from '../../src/client';
import { checkPrefix, nameCarries } from '../../src/commands/sweep/sweep';
import { runSweepCli } from '../../src/commands/sweep';
import { startEmulator } from '../../src/emulator';
import type { AccountDump, RunningEmulator } from '../../src/emulator';
import { capture } from '../drift/helpers';

/**
 * `reseller-hosting sweep --prefix` deletes exactly the objects whose names carry the
 * prefix (at the start of a name label) and nothing else: lookalikes seeded beside
 * them (the prefix without its dash, the prefix in the middle of a name or in a later
 * label, a package with only some names prefixed) survive.
 *
 * DNS records are swept by their owner name, in every zone of every package: the
 * apex records of a prefixed zone carry it (also in a package that is not swept); a
 * record whose own owner does not (`www.` in a prefixed zone, the prefix without its
 * dash or mid-label) survives unless its package is swept, with which it goes. The
 * service's own records (SOA, NS) are never listed.
 */
jest.setTimeout(60_000);

const KEY = 'sweep-test-key';
const PREFIX = 'tfacc-';

let emulator: RunningEmulator;
let client: ResellerClient;
const env = (): NodeJS.ProcessEnv => ({ ...process.env, RESELLER_API_URL: emulator.url, RESELLER_API_KEY: KEY, RESELLER_ID: undefined, RESELLER_POLL_INTERVAL: '20ms' });
const account = (): AccountDump => emulator.snapshot().accounts.find((a) => a.isDefault)!;

/** A record of the snapshot as the sweep names it: `owner TYPE value` (MX: `priority target`). */
function recordName(r: Record<string, string | number | null>): string {
  const value = r.type === 'A' ? r.ip : r.type === 'TXT' ? r.txt : r.type === 'MX' ? `${r.pri} ${r.target}` : r.type === 'SOA' ? r.mname : r.target;
  return `dns-record ${r.host} ${r.type} ${value}`;
}

/** Every object of the account as "kind name", sorted. */
function inventory(): string[] {
  const a = account();
  const out: string[] = [];
  for (const p of a.packages) {
    out.push(`package ${p.name}`);
    out.push(`web-settings ${p.name}`); // every package has them
    for (const z of p.dns) for (const r of z.records) out.push(recordName(r));
    for (const d of p.mail) {
      for (const m of d.mailboxes) out.push(`mailbox ${m.local}@${d.domain}`);
      for (const f of d.forwarders) out.push(`forwarder ${f.local}@${d.domain}`);
    }
  }
  for (const u of a.users) out.push(`stack-user ${u.contact.email}`);
  for (const s of a.cloudServers) out.push(`cloud-server ${s.name}`);
  return out.sort();
}

/** The web IP of a zone's default A record at its apex (the emulator's: one per package). */
const webIp = (apex: string) => account().packages.flatMap((p) => p.dns).find((z) => z.apex === apex)!.records.find((r) => r.type === 'A' && r.host === apex)!.ip;
/** The records a new zone gets that are the user's (A at the apex, MX), by its apex. */
const defaultApexRecords = (apex: string) => [`dns-record ${apex} A ${webIp(apex)}`, `dns-record ${apex} MX 10 mx.stackmail.com`];

let PREFIXED: string[];
const PREFIXED_NOT_DNS = [
  'package tfacc-r1-site.example.com',
  'mailbox info@tfacc-r1-site.example.com',
  'forwarder sales@tfacc-r1-alt.example.com',
  'mailbox tfacc-r1-box@plain.example.com',
  'stack-user tfacc-r1-owner@example.com',
  // The web settings of the swept package (every name of it carries the prefix): they go with it.
  'web-settings tfacc-r1-site.example.com',
];
const PREFIXED_RECORDS = [
  'dns-record tfacc-r1-www.plain.example.com A 192.0.2.10',
  'dns-record tfacc-r1-mail.plain.example.com MX 20 mx.example.net',
  'dns-record tfacc-r1-txt.plain.example.com TXT tfacc-r1 verification',
  'dns-record tfacc-r1-cdn.plain.example.com CNAME cdn.example.net',
];
const LOOKALIKES = [
  'dns-record tfaccwww.plain.example.com A 192.0.2.11', // the prefix without its dash
  'dns-record www-tfacc-r1.plain.example.com A 192.0.2.12', // the prefix in the middle of a label
  'dns-record a.tfacc-r1-sub.plain.example.com CNAME tfacc-r1-www.plain.example.com', // the prefix in a later label (and in the value)
  'dns-record plain.example.com TXT tfacc-r1-token', // the prefix in the value only
  // A prefixed zone of a package that is not swept: its own records whose owner does not carry the prefix stay.
  'dns-record www.tfacc-r1-mixed.example.com A 192.0.2.13',
  'dns-record tfacc-r1-mixed.example.com NS ns1.stackdns.com', // the service's records are never touched
  'dns-record tfacc-r1-mixed.example.com SOA ns1.stackdns.com',
  'package tfaccsite.example.com', // the prefix without its dash
  'package site-tfacc-r1.example.com', // the prefix in the middle of a label
  'package www.tfacc-r1.example.com', // the prefix at the start of a later label
  'package tfacc-r1-mixed.example.com', // only its primary name carries the prefix (its extra name does not)
  'package plain.example.com',
  'mailbox tfaccbox@plain.example.com',
  'forwarder team-tfacc-r1@plain.example.com',
  'stack-user owner-tfacc-r1@example.com',
  'stack-user tfacc@example.com',
];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey: KEY, provisionDelayMs: 0, quiet: true });
  client = new ResellerClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 10 });
  const pkg = (domainName: string, extra: string[] = []) => client.packages.create({ type: 811, domainName, extraDomainNames: extra });
  const site = await pkg('tfacc-r1-site.example.com', ['tfacc-r1-alt.example.com']);
  await client.mail.createMailbox(site, 'tfacc-r1-site.example.com', { local: 'info', send: true, receive: true, password: 'Sweep-Passw0rd!' });
  await client.mail.createForwarder(site, 'tfacc-r1-alt.example.com', { local: 'sales', remote: 'team@example.org' });
  const plain = await pkg('plain.example.com');
  await client.mail.createMailbox(plain, 'plain.example.com', { local: 'tfacc-r1-box', send: true, receive: true, password: 'Sweep-Passw0rd!' });
  await client.mail.createMailbox(plain, 'plain.example.com', { local: 'tfaccbox', send: true, receive: true, password: 'Sweep-Passw0rd!' });
  await client.mail.createForwarder(plain, 'plain.example.com', { local: 'team-tfacc-r1', remote: 'team@example.org' });
  await pkg('tfaccsite.example.com');
  await pkg('site-tfacc-r1.example.com');
  await pkg('www.tfacc-r1.example.com');
  await pkg('tfacc-r1-mixed.example.com', ['other-mixed.example.com']);
  for (const email of ['tfacc-r1-owner@example.com', 'owner-tfacc-r1@example.com', 'tfacc@example.com']) await client.users.create({ email });
  await client.dns.changeZone(plain, 'plain.example.com', { add: [
    { type: 'A', host: 'tfacc-r1-www', value: '192.0.2.10' },
    { type: 'MX', host: 'tfacc-r1-mail', value: 'mx.example.net', priority: 20 },
    { type: 'TXT', host: 'tfacc-r1-txt', value: 'tfacc-r1 verification' },
    { type: 'CNAME', host: 'tfacc-r1-cdn', value: 'cdn.example.net' },
    { type: 'A', host: 'tfaccwww', value: '192.0.2.11' },
    { type: 'A', host: 'www-tfacc-r1', value: '192.0.2.12' },
    { type: 'CNAME', host: 'a.tfacc-r1-sub', value: 'tfacc-r1-www.plain.example.com' },
    { type: 'TXT', host: '@', value: 'tfacc-r1-token' },
  ] });
  // The www record of the zone is replaced by one that tells it apart from the default one.
  const mixed = (await client.dns.getZone('tfacc-r1-mixed.example.com', 'tfacc-r1-mixed.example.com'))!;
  const www = mixed.records.find((r) => r.host === 'www.tfacc-r1-mixed.example.com')!;
  await client.dns.changeZone('tfacc-r1-mixed.example.com', 'tfacc-r1-mixed.example.com', {
    add: [{ type: 'A', host: 'www', value: '192.0.2.13' }], delete: [www.ref!],
  });
  PREFIXED = [
    ...PREFIXED_NOT_DNS, ...PREFIXED_RECORDS,
    // The user's records at the apex of a prefixed zone: of the swept package (listed; they go with it) and of one that is not.
    ...defaultApexRecords('tfacc-r1-site.example.com'), ...defaultApexRecords('tfacc-r1-alt.example.com'), ...defaultApexRecords('tfacc-r1-mixed.example.com'),
  ];
});

afterAll(async () => {
  client?.close();
  await emulator?.stop();
});

test('the rule: the prefix at the start of a name label', () => {
  expect(nameCarries('tfacc-1-site.example.com', PREFIX)).toBe(true);
  expect(nameCarries('TFACC-1-Site.Example.com', PREFIX)).toBe(true);
  expect(nameCarries('info@tfacc-1-site.example.com', PREFIX)).toBe(true);
  expect(nameCarries('tfacc-1-owner@example.com', PREFIX)).toBe(true);
  expect(nameCarries('tfaccsite.example.com', PREFIX)).toBe(false);
  expect(nameCarries('www.tfacc-1.example.com', PREFIX)).toBe(false);
  expect(nameCarries('site-tfacc-1.example.com', PREFIX)).toBe(false);
  expect(nameCarries('owner-tfacc-1@example.com', PREFIX)).toBe(false);
  expect(nameCarries('owner@www.tfacc-1.example.com', PREFIX)).toBe(false);
  expect(checkPrefix('tfac')).toMatch(/shorter than 5/);
  expect(checkPrefix('tfacc')).toBeUndefined();
  expect(checkPrefix('tf.acc')).toMatch(/letters, digits and "-"/);
});

test('a prefix shorter than 5 characters is refused (exit 64) and nothing is read or deleted', async () => {
  const before = inventory();
  for (const prefix of ['tfac', '', 'a-']) {
    const run = await capture(runSweepCli, ['--prefix', prefix, '--yes'], env());
    expect([prefix, run.code]).toEqual([prefix, 64]);
    expect(run.stderr).toMatch(/--prefix .* (shorter than 5 characters|letters, digits)/);
  }
  expect((await capture(runSweepCli, ['--yes'], env())).code).toBe(64);
  expect(inventory()).toEqual(before);
});

test('without --yes it lists exactly the prefixed objects and deletes nothing', async () => {
  const before = inventory();
  expect(before).toEqual(expect.arrayContaining([...PREFIXED, ...LOOKALIKES]));
  const run = await capture(runSweepCli, ['--prefix', PREFIX, '--json'], env());
  expect(run.code).toBe(0);
  // The one field every --json document starts with.
  expect(Object.keys(JSON.parse(run.stdout))[0]).toBe('version');
  expect(JSON.parse(run.stdout).version).toBe(1);
  const listed = JSON.parse(run.stdout).objects.map((o: any) => `${o.kind} ${o.name}`);
  expect([...listed].sort()).toEqual([...PREFIXED].sort());
  // Children first: the mail goes before its package, users and packages after.
  expect(listed.indexOf('mailbox info@tfacc-r1-site.example.com')).toBeLessThan(listed.indexOf('package tfacc-r1-site.example.com'));
  expect(inventory()).toEqual(before);
  // One package list serves the mail and DNS listers.
  await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
  const text = await capture(runSweepCli, ['--prefix', PREFIX], env());
  const log = (await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as Array<{ method: string; path: string }>;
  expect(log.filter((r) => r.method === 'GET' && r.path === '/package')).toHaveLength(1);
  expect(text.stdout).toMatch(/^16 object\(s\) carry the prefix "tfacc-":/);
  expect(text.stdout).toMatch(/Nothing was deleted: run again with --yes/);
});

test('with --yes it deletes exactly the prefixed objects; every lookalike survives', async () => {
  const before = inventory();
  await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
  const run = await capture(runSweepCli, ['--prefix', PREFIX, '--yes', '--json'], env());
  expect(run.code).toBe(0);
  // What a swept package holds goes with it: no write of its own reaches its mail or zones.
  const writes = ((await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as Array<{ method: string; path: string }>)
    .filter((r) => r.method === 'POST').map((r) => r.path);
  expect(writes.filter((path) => /tfacc-r1-(site|alt)/.test(path))).toEqual([]);
  expect(writes.filter((path) => path === '/reseller/*/deleteWeb')).toHaveLength(1);
  const result = JSON.parse(run.stdout);
  expect(result.objects.map((o: any) => o.action)).toEqual(Array(PREFIXED.length).fill('deleted'));
  // The package's other records (SOA, NS, www) went with it; nothing else changed.
  const withPackage = (o: string) => / (www\.)?tfacc-r1-(site|alt)\.example\.com /.test(o);
  expect(inventory()).toEqual(before.filter((o) => !PREFIXED.includes(o) && !withPackage(o)));
  expect(inventory()).toEqual(expect.arrayContaining(LOOKALIKES));
  expect(inventory().filter((o) => o.includes(' tfacc-r1-mixed.example.com '))).toEqual([
    'dns-record tfacc-r1-mixed.example.com NS ns1.stackdns.com', 'dns-record tfacc-r1-mixed.example.com NS ns2.stackdns.com',
    'dns-record tfacc-r1-mixed.example.com NS ns3.stackdns.com', 'dns-record tfacc-r1-mixed.example.com NS ns4.stackdns.com',
    'dns-record tfacc-r1-mixed.example.com SOA ns1.stackdns.com',
  ]);
  // A second sweep finds nothing.
  const again = await capture(runSweepCli, ['--prefix', PREFIX], env());
  expect(again.stdout).toBe('0 object(s) carry the prefix "tfacc-".\n');
});

test('a cloud server with the prefix is listed, and kept with the reason: the API cannot cancel it', async () => {
  await client.cloudServers.order({
    configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'tfacc-r2-web.example.com' },
    periodMonths: 1, type: 'cloud-20i',
  });
  while ((await client.cloudServers.list()).length === 0) await new Promise((r) => setImmediate(r));
  const run = await capture(runSweepCli, ['--prefix', 'tfacc-r2-', '--yes'], env());
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/kept\s+cloud-server\s+tfacc-r2-web\.example\.com\s+\(WARNING: cloud server .* was NOT cancelled/);
  expect(account().cloudServers.map((s) => s.name)).toEqual(['tfacc-r2-web.example.com']);
});

test('no key is a clear error, exit 1', async () => {
  const run = await capture(runSweepCli, ['--prefix', PREFIX], { ...env(), RESELLER_API_KEY: undefined });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^reseller-hosting sweep: error: RESELLER_API_KEY is not set/);
});
