import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import { runReviewCli } from '../../src/commands/review';
import type { DriftDocument } from '../../src/commands/drift/report';
import { DnsRecord, HostingPackage, ResellerHosting } from '../../src';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { apiEnv, capture } from '../drift/helpers';
import { E2E_TIMEOUT_MS, E2EEmulator, planExitCode, requireTerraform, savedPlan, stackEnv, startE2EEmulator, tempDir, terraform } from './support';

/**
 * DNS records through the REAL Terraform engine with the provisioner carriers
 * (terraform_data): created, an identical existing record adopted, replaced in one
 * POST when a prop changes, drift made in the control panel found by `drift` and repaired by
 * `drift --fix` (a changed CNAME replaced in one POST), deleted when declared absent,
 * and a destroy that leaves the zone's own records.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const SITE = 'dns-carriers.example.com';
let tf: string;
let emu: E2EEmulator;
let dir: string;
let outdir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;
let journalDir: string;
let api: ResellerClient;
let defaults: string[];

interface Options { readonly mxPriority?: number; readonly spfAbsent?: boolean; readonly allAbsent?: boolean; readonly records?: boolean }

function synth(options: Options = {}): void {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'dns');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const site = new HostingPackage(stack, 'site', { domainName: SITE, packageType: 'Linux Starter' });
  if (options.records !== false) {
    const absent = options.allAbsent;
    new DnsRecord(stack, 'blog', { package: site, name: 'blog', type: 'CNAME', value: SITE, absent });
    new DnsRecord(stack, 'mx', { package: site, name: '@', type: 'MX', value: `mail2.${SITE}`, priority: options.mxPriority ?? 20, absent });
    new DnsRecord(stack, 'spf', { package: site, name: '@', type: 'TXT', value: 'v=spf1 mx -all', absent: absent || options.spfAbsent });
  }
  app.synth();
  stackDir = join(outdir, 'stacks', 'dns');
}

const apply = () => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env);
const zone = (): string[] => {
  const z = emu.account().packages.find((p) => p.name === SITE)?.dns.find((d) => d.apex === SITE);
  return (z?.records ?? []).map((r) => [r.type, r.host, r.pri, r.ip ?? r.target ?? r.txt ?? r.mname].filter((x) => x !== undefined && x !== null).join(' ')).sort();
};
const declaredLines = (priority = 20) => [`CNAME blog.${SITE} ${SITE}`, `MX ${SITE} ${priority} mail2.${SITE}`, `TXT ${SITE} v=spf1 mx -all`];
const refOf = async (type: string, host: string) => String((await api.dns.getZone(SITE, SITE))!.records.find((r) => r.type === type && r.host === host)!.ref);
const drift = async (args: string[] = []) => {
  const run = await capture(runDriftCli, ['--stacks', outdir, '--json', ...args], apiEnv(emu.url, journalDir));
  return { ...run, doc: JSON.parse(run.stdout) as DriftDocument };
};
const statusOf = (doc: DriftDocument) => Object.fromEntries(doc.objects.filter((o) => o.kind === 'dns-record').map((o) => [o.path, o.status]));

beforeAll(async () => {
  tf = requireTerraform();
  dir = tempDir('dns-record');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 50 });
  outdir = join(dir, 'cdktf.out');
  journalDir = join(dir, 'journal');
  env = stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, journalDir });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY, retryBaseDelayMs: 10 });
  synth({ records: false });
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  await apply();
  defaults = zone();
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('apply creates the records and adopts an identical one already in the zone (never a second copy)', async () => {
  await api.dns.changeZone(SITE, SITE, { add: [{ type: 'TXT', host: '@', value: 'v=spf1 mx -all' }] });
  synth();
  const result = await apply();
  expect(result.stdout).toMatch(/adopted DNS record TXT dns-carriers\.example\.com v=spf1 mx -all/);
  expect(zone()).toEqual([...defaults, ...declaredLines()].sort());
  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(0);
  expect(statusOf(doc)).toEqual({ 'dns/blog': 'in-sync', 'dns/mx': 'in-sync', 'dns/spf': 'in-sync' });
});

test('import --dns declares every record of the zones (the SOA and NS left to the service)', async () => {
  const out = await capture(runImportCli, ['--dns'], apiEnv(emu.url, journalDir));
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("import { DnsRecord, HostingPackage } from 'cdktf-reseller-hosting';");
  expect(out.stdout).toMatch(/new DnsRecord\(this, 'dns_blog_dns_carriers_example_com_cname', \{ package: pkg_dns_carriers_example_com, name: 'blog', type: 'CNAME', value: 'dns-carriers\.example\.com' \}\); \/\/ ref [0-9]+/);
  expect(out.stdout).toMatch(/'dns_dns_carriers_example_com_mx_2', \{ package: pkg_dns_carriers_example_com, name: '@', type: 'MX', value: 'mail2\.dns-carriers\.example\.com', priority: 20 \}\)/);
  expect(out.stdout).toMatch(/name: '@', type: 'TXT', value: 'v=spf1 mx -all' \}\)/);
  expect(out.stdout).not.toMatch(/type: '(NS|SOA)'/);
  // The zone's own A, A www and MX, plus the three declared.
  expect(out.stderr).toMatch(/, 6 DNS record\(s\)/);
  expect(out.stdout).toMatch(/^\/\/ 0 cloud server\(s\), 1 package\(s\), 0 mailbox\(es\), 0 forwarder\(s\), 6 DNS record\(s\)\.$/m);
});

test('a changed prop replaces the record in one POST: the old object\'s delete is left to the new one\'s ensure', async () => {
  synth({ mxPriority: 30 });
  const plan = await savedPlan(tf, stackDir, env);
  writeFileSync(join(dir, 'plan.json'), plan.jsonText);
  const review = await capture(runReviewCli, [join(dir, 'plan.json')], {});
  expect(review.stdout).toContain(
    `DNS record ${SITE}/${SITE}/MX/20 mail2.${SITE} is replaced by ${SITE}/${SITE}/MX/30 mail2.${SITE} (its record changes): added in the same write that deletes the old one`,
  );
  await emu.clearRequests();
  const result = await apply();
  expect(result.stdout).toMatch(/DNS record dns-carriers\.example\.com\/dns-carriers\.example\.com\/MX\/20 mail2\.dns-carriers\.example\.com: left for DNS record [^\n]*MX\/30 mail2[^\n]*, which replaces it in one write/);
  expect(result.stdout).toMatch(/replaced DNS record MX dns-carriers\.example\.com 30 mail2\.dns-carriers\.example\.com/);
  const posts = (await emu.requests()).filter((r) => r.method === 'POST' && r.path.includes('/dns/'));
  expect(posts).toHaveLength(1);
  expect(zone()).toEqual([...defaults, ...declaredLines(30)].sort());
  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
  synth();
  await apply();
  expect(zone()).toEqual([...defaults, ...declaredLines()].sort());
});

test('drift finds a deleted and a changed record missing; --fix adds the one and replaces the changed CNAME in one POST', async () => {
  await api.dns.changeZone(SITE, SITE, { delete: [await refOf('TXT', SITE)] });
  await emu.control('POST', 'dns', { package: SITE, zone: SITE, ref: Number(await refOf('CNAME', `blog.${SITE}`)), record: { target: 'elsewhere.example.net' } });
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(2);
  // Every field is part of a record's natural key: the declared CNAME is missing (another stands at its name).
  expect(statusOf(doc)).toEqual({ 'dns/blog': 'missing', 'dns/mx': 'in-sync', 'dns/spf': 'missing' });
  await emu.clearRequests();
  const fixed = await drift(['--fix', '--detailed-exitcode']);
  expect(fixed.code).toBe(0);
  expect(zone()).toEqual([...defaults, ...declaredLines()].sort());
  const posts = (await emu.requests()).filter((r) => r.method === 'POST' && r.path.includes('/dns/'));
  expect(posts).toHaveLength(2); // the TXT added, the CNAME replaced: one POST each
});

test('declared absent: the record is deleted; a destroy leaves the zone\'s own records', async () => {
  synth({ spfAbsent: true });
  await apply();
  expect(zone().some((r) => r.startsWith('TXT'))).toBe(false);
  synth({ allAbsent: true });
  await apply();
  expect(zone()).toEqual(defaults);
  synth();
  await apply();
  expect(zone()).toEqual([...defaults, ...declaredLines()].sort());
  await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color', '-target=terraform_data.blog', '-target=terraform_data.mx', '-target=terraform_data.spf'], stackDir, env);
  expect(zone()).toEqual(defaults);
});
