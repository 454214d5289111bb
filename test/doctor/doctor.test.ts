import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { runDoctorCli } from '../../src/commands/doctor';
import { startEmulator } from '../../src/emulator';
import type { EmulatorProfile, RunningEmulator } from '../../src/emulator';
import { PROVIDER_SOURCE, terraformPlatform } from '../../src/protocol';
import { capture, runBinary } from '../drift/helpers';
import { requireBuiltHandler } from '../helpers/emulator';
import { builtProviderInstaller } from '../e2e/support';

/**
 * `reseller-hosting doctor` against the emulator: in the default profile every assumed
 * fact a read can show holds; in the documented profile the members no public source
 * shows are missing, and the same facts are reported "not verifiable", never "not
 * held". No key, a wrong key and an unreachable URL are clear failed checks, exit 1,
 * never a stack trace. The --json report carries no key, name or e-mail address.
 */
jest.setTimeout(60_000);

const KEY = 'doctor-test-key';
/** The facts that the documented profile's answers cannot show (their members are left out). */
const PROFILE_FACTS = ['labelFromPackageLabels', 'verifiableLabelFromPackageLabels', 'labelFromPackageDetail', 'forwardListOfMailRead', 'brandFromHeaders'];
/** The facts both profiles show: documented fields, and assumed forms the documented profile shows too (DNS numbers and names in their other form). */
const READ_FACTS = ['enabledFromPackageDetail', 'typeRefFromPackageDetail', 'webIpv4FromPackageDetail', 'limitsOfPackageType', 'parseForwarderEntry',
  'recordListOfZoneValue', 'dnsNameOfRead', 'dnsNumberOfRead', 'package list entry', 'mailbox entry', 'user list', 'dns record entry',
  'force-HTTPS read', 'certificate entry', 'isFreeCertificateProvider', 'phpVersionOnWire', 'phpVersionOfAvailable',
  'nameserversOfRead', 'registrationDateOfRead', 'renewalConstraintOfRead', 'domain list entry'];
const WRITE_FACTS = ['postRejectedWithoutEffect', 'isDuplicateError', 'isValidationError', 'parseForwarderCreateResult', 'mailboxUpdateBody',
  'acceptMailboxUpdateResult', 'acceptDnsWriteResult', 'forceHttpsAlreadySo', 'phpVersionWriteBody', 'nameserverChangeBody'];
/** Values in the account's DNS records: none may reach a report. */
const RECORD_VALUES = ['doctor-verification-token', 'edge.doctor-cdn.net', 'sip.doctor-cdn.net', '2001:db8::77', '198.51.100.77'];

let dir: string;

beforeAll(() => {
  requireBuiltHandler();
  dir = mkdtempSync(join(tmpdir(), 'reseller-doctor-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envFor = (url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.RESELLER_ID;
  Object.assign(env, { RESELLER_API_URL: url, RESELLER_API_KEY: KEY, CHECKPOINT_DISABLE: '1' }, extra);
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
};

/**
 * An account with one of each kind: a labelled package with two names (mail on one
 * only, so two zones), a mailbox, a forwarder, a branded server, and records of every
 * writable type beside the zones' defaults.
 */
async function seeded(profile: EmulatorProfile): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, apiKey: KEY, profile, provisionDelayMs: 0, quiet: true });
  const client = new ResellerClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 10 });
  const id = await client.packages.create({ type: 811, domainName: 'doctor-site.com', extraDomainNames: ['doctor-site.net'], label: 'Doctor Private Ltd', stackUser: 'stack-user:989901' });
  await client.mail.createMailbox(id, 'doctor-site.com', { local: 'doctorbox', send: true, receive: true, password: 'Doctor-Passw0rd!' });
  await client.mail.createForwarder(id, 'doctor-site.com', { local: 'sales', remote: 'someone@example.org' });
  await client.dns.changeZone(id, 'doctor-site.com', { add: [
    { type: 'TXT', host: 'doctor-txt', value: RECORD_VALUES[0] },
    { type: 'CNAME', host: 'cdn', value: RECORD_VALUES[1] },
    { type: 'SRV', host: '_sip._tcp', value: RECORD_VALUES[2], priority: 10, weight: 5, port: 5060 },
    { type: 'AAAA', host: 'v6', value: RECORD_VALUES[3] },
    { type: 'A', host: 'www2', value: RECORD_VALUES[4] },
  ] });
  await client.web.requestFreeCertificate(id, 'doctor-site.com');
  await fetch(`${emulator.url}/__emulator/brand`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Acme Brand', logoUrl: '' }) });
  await client.cloudServers.order({
    configuration: { spec: 'small', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.doctor-site.com', resellerCloudBranded: true },
    periodMonths: 1, type: 'cloud-20i', forUser: 'stack-user:989901',
  });
  // Provisioning is asynchronous: wait until the server is listed (no deadline but the test's).
  while ((await client.cloudServers.list()).length === 0) await new Promise((r) => setImmediate(r));
  client.close();
  return emulator;
}

const factOf = (doc: any, fact: string) => doc.assumptions.find((a: any) => a.fact === fact);
const statusOf = (doc: any, fact: string) => factOf(doc, fact)?.status;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const assumptionsModule: Record<string, unknown> = require('../../src/client/assumptions');

describe.each<EmulatorProfile>(['default', 'documented'])('doctor against the %s profile', (profile) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await seeded(profile);
  });
  afterAll(() => emulator?.stop());

  it('passes every check it can make, and names each assumption held or not verifiable, none not held', async () => {
    const run = await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.checks.map((c: any) => [c.check, c.status])).toEqual([
      ['the API URL answers', 'ok'],
      ['the API key is accepted', 'ok'],
      ['the reseller id resolves', 'ok'],
      ['Terraform and Node support the provider', 'ok'],
      ['the provider is found from a stack directory', 'not verifiable'],
    ]);
    expect(doc.assumptions.filter((a: any) => a.status === 'not held')).toEqual([]);
    const expected = profile === 'default' ? 'held' : 'not verifiable';
    expect(Object.fromEntries(PROFILE_FACTS.map((f) => [f, statusOf(doc, f)]))).toEqual(Object.fromEntries(PROFILE_FACTS.map((f) => [f, expected])));
    for (const fact of READ_FACTS) expect([fact, statusOf(doc, fact)]).toEqual([fact, 'held']);
    for (const fact of WRITE_FACTS) expect([fact, statusOf(doc, fact), factOf(doc, fact).detail]).toEqual([fact, 'not verifiable', expect.stringMatching(/^only /)]);
    expect(doc.account.packages.count).toBe(1);
    expect(doc.account.users.count).toBe(2);
    expect(doc.account['cloud servers'].count).toBe(1);
    // Two zones of the defaults (SOA, 4 NS, 2 A, MX) and the five records added.
    expect([doc.account['dns zones'].count, doc.account['dns records'].count]).toEqual([2, 21]);
    expect(doc.summary.exitCode).toBe(0);
  });

  it('reports every exported function of client/assumptions.ts under the fact that checks it', async () => {
    const doc = JSON.parse((await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir)).stdout);
    const functions = Object.keys(assumptionsModule).filter((name) => typeof assumptionsModule[name] === 'function');
    const reported = new Set(doc.assumptions.flatMap((a: any) => a.assumptions));
    expect(functions.filter((name) => !reported.has(name))).toEqual([]);
    expect(factOf(doc, 'dnsNumberOfRead')).toMatchObject({ basis: 'assumed', assumptions: ['dnsNumberOfRead'] });
    expect(factOf(doc, 'dns record entry')).toMatchObject({ basis: 'documented', assumptions: [] });
  });

  it('tells which form the DNS reads take: numbers and names as this profile sends them', async () => {
    const doc = JSON.parse((await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir)).stdout);
    // MX pri in each zone, SRV pri, weight and port.
    expect(factOf(doc, 'dnsNumberOfRead').detail).toBe(profile === 'default'
      ? '5 number(s) read: 5 as JSON numbers, 0 as strings' : '5 number(s) read: 0 as JSON numbers, 5 as strings');
    const dotted = profile === 'default' ? '0' : '21';
    expect(factOf(doc, 'dnsNameOfRead').detail).toMatch(new RegExp(`^21 host\\(s\\) fully qualified \\(${dotted} with a trailing dot`));
    expect(factOf(doc, 'recordListOfZoneValue').detail).toMatch(/^2 zone\(s\) read as \{records: \[\.\.\.\]\}; the read of one zone answers \{records: \[\.\.\.\]\} with the same 13 record\(s\)$/);
    expect(doc.account['dns records'].shape).toMatchObject({ type: 'string', host: 'string', pri: profile === 'default' ? 'absent|number' : 'absent|string' });
  });

  it('tells which form the registration reads take: the nameservers\' shape and the dates\' form as this profile sends them', async () => {
    const doc = JSON.parse((await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir)).stdout);
    expect(factOf(doc, 'nameserversOfRead').detail).toBe(profile === 'default' ? '4 nameserver(s) read as a bare list' : '4 nameserver(s) read as {"result": [...]}');
    expect(factOf(doc, 'registrationDateOfRead').detail).toBe(profile === 'default' ? '8 date(s) read (8 with a time, 0 without)' : '8 date(s) read (0 with a time, 8 without)');
    expect(doc.account['registered domains'].count).toBe(4);
  });

  it('--json carries no key, no name, no e-mail address, no domain or label of the account: only field names, types and counts', async () => {
    const { stdout } = await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir);
    for (const secret of [KEY, Buffer.from(KEY).toString('base64'), 'owner@example.com', 'ops@example.org', 'Alex Owner', 'Sam Ops',
      'doctor-site', 'Doctor Private Ltd', 'Acme Brand', 'someone@example.org', 'stack-user:989901', 'doctorbox', ...RECORD_VALUES, 'stackdns', 'stackmail',
      'example-studio.com', 'example-registered.net', 'cloudflare', 'transfer pending']) {
      expect([secret, stdout.includes(secret)]).toEqual([secret, false]);
    }
    const doc = JSON.parse(stdout);
    // A map keyed by data (user refs) shows its size and the shape of its values, not its keys.
    expect(Object.keys(doc.account.users.shape.contact)).toEqual(['{map of 2}']);
    expect(doc.account.packages.shape).toMatchObject({ id: 'number', name: 'string', names: { '[]': 'string' } });
    // Zones are keyed by their apex: the report shows how many, not which.
    expect(Object.keys(doc.account['dns zones'].shape)).toEqual(['{map of 2}']);
  });

  it('the text report carries no key, name, e-mail address, domain, label or record value either', async () => {
    const { stdout } = await capture(runDoctorCli, [], envFor(emulator.url), dir);
    expect(stdout).toMatch(/dnsNumberOfRead/);
    for (const secret of [KEY, Buffer.from(KEY).toString('base64'), 'owner@example.com', 'Alex Owner', 'doctor-site', 'Doctor Private Ltd', 'Acme Brand',
      'someone@example.org', 'stack-user:989901', 'doctorbox', ...RECORD_VALUES, 'stackdns', 'stackmail', '192.0.2.']) {
      expect([secret, stdout.includes(secret)]).toEqual([secret, false]);
    }
  });

  it('sends GET requests only', async () => {
    await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
    const before = (await (await fetch(`${emulator.url}/__emulator/state`)).json()) as object;
    await capture(runDoctorCli, [], envFor(emulator.url), dir);
    const log = (await (await fetch(`${emulator.url}/__emulator/requests`)).json()) as Array<{ method: string; path: string }>;
    expect(log.length).toBeGreaterThan(5);
    expect([...new Set(log.map((r) => r.method))]).toEqual(['GET']);
    // The DNS facts read every zone of the package and one zone on its own.
    expect(log.filter((r) => /\/dns(\/|$)/.test(r.path)).map((r) => r.path.replace(/[0-9]+/, 'ID'))).toEqual(['/package/ID/dns', '/package/ID/dns/doctor-site.com']);
    // And the account is as it was (the snapshot's clock aside).
    const state = (await (await fetch(`${emulator.url}/__emulator/state`)).json()) as object;
    expect({ ...state, now: 0 }).toEqual({ ...before, now: 0 });
  });
});

describe('doctor: what goes wrong is a failed check with its fix, exit 1, never a stack trace', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey: KEY, quiet: true });
  });
  afterAll(() => emulator?.stop());

  const noTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)|Error: .*\n\s+at /);

  it('no key', async () => {
    const run = await runBinary(['doctor'], envFor(emulator.url, { RESELLER_API_KEY: undefined }), dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed\s+the API key is accepted: RESELLER_API_KEY is not set\n\s+fix: export RESELLER_API_KEY/);
    expect(run.stdout).toMatch(/not verifiable\s+the reseller id resolves/);
    noTrace(run.stdout + run.stderr);
  });

  it('a wrong key', async () => {
    const run = await runBinary(['doctor', '--json'], envFor(emulator.url, { RESELLER_API_KEY: 'not-the-key' }), dir);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout);
    expect(doc.checks[1]).toMatchObject({ check: 'the API key is accepted', status: 'failed', detail: expect.stringMatching(/HTTP 401/), fix: expect.stringMatching(/general API key/) });
    expect(run.stdout).not.toContain('not-the-key');
    expect(doc.account).toEqual({});
    noTrace(run.stdout + run.stderr);
  });

  it('a key given base64-encoded (the client encodes it): the fix says so', async () => {
    const run = await capture(runDoctorCli, ['--json'], envFor(emulator.url, { RESELLER_API_KEY: Buffer.from(KEY).toString('base64') }), dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).checks[1]).toMatchObject({ status: 'failed', fix: expect.stringMatching(/looks base64-encoded already/) });
  });

  it('an unreachable URL', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const run = await runBinary(['doctor'], envFor(`http://127.0.0.1:${port}`), dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`failed\\s+the API URL answers: no answer from RESELLER_API_URL=http://127.0.0.1:${port}: ECONNREFUSED\\n\\s+fix: check RESELLER_API_URL`));
    expect(run.stdout).toMatch(/not verifiable\s+the API key is accepted: the API did not answer/);
    noTrace(run.stdout + run.stderr);
  });

  it('a reseller id that is not the key\'s account', async () => {
    const run = await capture(runDoctorCli, ['--json'], envFor(emulator.url, { RESELLER_ID: '424242' }), dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).checks[2]).toMatchObject({
      check: 'the reseller id resolves', status: 'failed', detail: expect.stringMatching(/^GET \/reseller\/424242\/packageTypes answered HTTP 4\d\d$/),
      fix: expect.stringMatching(/unset RESELLER_ID/),
    });
  });

  it('a URL that is not http(s)', async () => {
    const run = await runBinary(['doctor'], envFor('ftp://example.com'), dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed\s+the API URL answers: RESELLER_API_URL is not an http\(s\) URL/);
  });

  it('a stack without the provider in its local mirror fails; after install it is found', async () => {
    const out = join(dir, 'cdktf.out');
    const stack = join(out, 'stacks', 'site');
    mkdirSync(stack, { recursive: true });
    writeFileSync(join(stack, 'cdk.tf.json'), JSON.stringify({ terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } } }));
    const before = await capture(runDoctorCli, ['--json', '--stacks', out], envFor(emulator.url), dir);
    expect(before.code).toBe(1);
    expect(JSON.parse(before.stdout).checks[4]).toMatchObject({ status: 'failed', detail: expect.stringMatching(/1 of 1 stack\(s\) have no provider/), fix: expect.stringMatching(/cdktf synth/) });
    const installer = builtProviderInstaller();
    installer.installProvider(join(stack, 'terraform.d', 'plugins'));
    const after = await capture(runDoctorCli, ['--json'], envFor(emulator.url), dir);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).checks[4]).toMatchObject({ status: 'ok', detail: expect.stringMatching(/1 stack\(s\) find the provider/) });
  });

  it('a stack synthesized with providerPlatforms is found by its zip for this platform; one only for another platform fails naming what it has', async () => {
    const out = join(dir, 'cdktf-executables.out');
    const stack = join(out, 'stacks', 'site');
    const typeDir = join(stack, 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/'));
    mkdirSync(typeDir, { recursive: true });
    writeFileSync(join(stack, 'cdk.tf.json'), JSON.stringify({ terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } } }));
    const here = terraformPlatform(process.platform, process.arch);
    const other = here === 'linux_arm64' ? 'linux_amd64' : 'linux_arm64';
    writeFileSync(join(typeDir, `terraform-provider-reseller_0.2.0_${other}.zip`), 'a zip');
    const before = await capture(runDoctorCli, ['--json', '--stacks', out], envFor(emulator.url), dir);
    expect(before.code).toBe(1);
    expect(JSON.parse(before.stdout).checks[4]).toMatchObject({
      status: 'failed', detail: `1 of 1 stack(s) have no provider for ${here} in terraform.d/plugins: site (only ${other})`, fix: expect.stringContaining(`providerPlatforms, name ${here} and install cdktf-reseller-hosting-provider-${here})`),
    });
    writeFileSync(join(typeDir, `terraform-provider-reseller_0.2.0_${here}.zip`), 'a zip');
    const after = await capture(runDoctorCli, ['--json', '--stacks', out], envFor(emulator.url), dir);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).checks[4]).toMatchObject({ status: 'ok', detail: `1 stack(s) find the provider for ${here} in terraform.d/plugins` });
  });

  it('an unknown option is a usage error (64)', async () => {
    const run = await capture(runDoctorCli, ['--bogus'], envFor(emulator.url), dir);
    expect(run.code).toBe(64);
    expect(run.stderr).toMatch(/usage: reseller-hosting doctor/);
  });
});
