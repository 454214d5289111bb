import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReviewCli } from '../../src/commands/review';
import { capture } from '../drift/helpers';
import { E2E_TIMEOUT_MS, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * reseller_dns_record under real Terraform against the emulator (issue 26): create,
 * adopt an identical record, replace, drift made in the control panel, import by
 * natural key and by ref, delete, and a destroy that leaves the zone's own records.
 */

const SITE = 'dns-site.com';
let ws: ProviderWorkspace;

const record = (extra: Record<string, unknown>) => ({ package: '${reseller_package.site.domain_name}', ...extra });
const declared = (): Resources => ({
  reseller_package: { site: { domain_name: SITE, package_type: 'Linux Starter' } },
  reseller_dns_record: {
    blog: record({ name: 'blog', type: 'CNAME', value: 'dns-site.com' }),
    mx: record({ name: '@', type: 'MX', value: 'mail2.dns-site.com', priority: 20 }),
    spf: record({ name: '@', type: 'TXT', value: 'v=spf1 mx -all' }),
  },
});

const apply = () => ws.run(['apply', '-auto-approve']);
const planCode = () => ws.planCode();
/** The zone as the emulator holds it: `TYPE host value` lines (MX/SRV with their numbers), sorted. */
const zone = (): string[] => {
  const pkg = ws.emu.account().packages.find((p) => p.name === SITE);
  const z = pkg?.dns.find((d) => d.apex === SITE);
  return (z?.records ?? []).map((r) => [r.type, r.host, r.pri, r.weight, r.port, r.ip ?? r.ipv6 ?? r.target ?? r.txt ?? r.mname].filter((x) => x !== undefined && x !== null).join(' ')).sort();
};
const refOf = async (type: string, host: string, value?: string) => {
  const z = (await ws.api.dns.getZone(SITE, SITE))!;
  return String(z.records.find((r) => r.type === type && r.host === host && (value === undefined || r.value === value))!.ref);
};

let defaults: string[];

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'provider-dns' }, { reseller_package: declared().reseller_package });
  await apply();
  defaults = zone();
}, E2E_TIMEOUT_MS);

afterAll(() => ws?.stop());

describe('reseller_dns_record with real Terraform', () => {
  it('creates records and adopts an identical one already in the zone (no duplicate); the next plan reads each zone once', async () => {
    await ws.api.dns.changeZone(SITE, SITE, { add: [{ type: 'TXT', host: '@', value: 'v=spf1 mx -all' }] });
    ws.writeConfig(declared());
    await apply();
    expect(zone()).toEqual([...defaults, 'CNAME blog.dns-site.com dns-site.com', 'MX dns-site.com 20 mail2.dns-site.com', 'TXT dns-site.com v=spf1 mx -all'].sort());
    await ws.emu.control('DELETE', 'requests');
    expect(await planCode()).toBe(0);
    const reads = ((await ws.emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);
    expect(reads.filter((r) => r.includes('/dns'))).toHaveLength(1);
  }, E2E_TIMEOUT_MS);

  it('a changed priority replaces the record in one POST (the zone never holds neither or both); the plan shows the change and the new ref', async () => {
    const oldRef = await refOf('MX', SITE, 'mail2.dns-site.com');
    const resources = declared();
    resources.reseller_dns_record.mx.priority = 30;
    ws.writeConfig(resources);
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.changes).toEqual({ 'reseller_dns_record.mx': ['update'] });
    expect(plan.showText).toMatch(/~ priority\s+= 20 -> 30/);
    expect(plan.showText).toMatch(/~ ref\s+= "\d+" -> \(known after apply\)/);
    writeFileSync(join(ws.dir, 'plan.json'), plan.jsonText);
    const review = await capture(runReviewCli, [join(ws.dir, 'plan.json')], {});
    expect(review.stdout).toContain(
      'DNS record dns-site.com/dns-site.com/MX/20 mail2.dns-site.com is replaced in one write by dns-site.com/dns-site.com/MX/30 mail2.dns-site.com (priority 20 -> 30): added and deleted at once, never absent  [reseller_dns_record.mx]',
    );
    await ws.emu.control('DELETE', 'requests');
    await ws.run(['apply', '-auto-approve', 'p']);
    const requests = (await ws.emu.control('GET', 'requests')) as Array<{ method: string; path: string; body?: unknown }>;
    expect(requests.filter((r) => r.method === 'POST').map((w) => w.path)).toEqual([`/package/${SITE}/dns/${SITE}`]);
    // The zone read before the write (which finds the old ref too) and the one that confirms it.
    expect(requests.filter((r) => r.method === 'GET' && r.path.includes('/dns')).length).toBe(2);
    expect(zone().filter((r) => r.includes('mail2'))).toEqual(['MX dns-site.com 30 mail2.dns-site.com']);
    const newRef = await refOf('MX', SITE, 'mail2.dns-site.com');
    expect(newRef).not.toBe(oldRef);
    const state = JSON.parse((await terraform(ws.tf, ['show', '-json'], ws.dir, ws.env)).stdout);
    const mx = state.values.root_module.resources.find((r: { address: string }) => r.address === 'reseller_dns_record.mx');
    expect(mx.values).toMatchObject({ priority: 30, ref: newRef, id: `${SITE}/${SITE}/MX/30 mail2.dns-site.com` });
    expect(await planCode()).toBe(0);
    ws.writeConfig(declared());
    await apply();
  }, E2E_TIMEOUT_MS);

  it('replace_conflicting: a www CNAME takes the place of the zone\'s default www A record in one write; without it the apply names the attribute', async () => {
    const resources = declared();
    resources.reseller_dns_record.www = record({ name: 'www', type: 'CNAME', value: 'dns-site.com' });
    ws.writeConfig(resources);
    const refused = await ws.run(['apply', '-auto-approve'], [1]);
    expect(refused.stdout + refused.stderr).toMatch(/reseller_dns_record\.www[\s\S]*replace_conflicting\s+=\s+true/);
    const defaultWww = zone().filter((r) => r.includes(' www.'));
    expect(defaultWww).toEqual([expect.stringMatching(/^A www\.dns-site\.com \d+\.\d+\.\d+\.\d+$/)]);
    resources.reseller_dns_record.www.replace_conflicting = true;
    ws.writeConfig(resources);
    await apply();
    expect(zone().filter((r) => r.includes(' www.'))).toEqual(['CNAME www.dns-site.com dns-site.com']);
    expect(await planCode()).toBe(0);
    ws.writeConfig(declared());
    await apply();
    expect(zone().filter((r) => r.includes(' www.'))).toEqual([]);
    // The zone as it was made, for the tests that follow.
    await ws.api.dns.changeZone(SITE, SITE, { add: [{ type: 'A', host: 'www', value: defaultWww[0].split(' ')[2] }] });
  }, E2E_TIMEOUT_MS);

  it('a state written before replace_conflicting existed (an earlier provider version) plans no change: the attribute stays null until declared', async () => {
    ws.writeConfig(declared());
    const file = join(ws.dir, 'terraform.tfstate');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const records = state.resources.filter((r: { type: string }) => r.type === 'reseller_dns_record');
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) for (const instance of r.instances) delete instance.attributes.replace_conflicting;
    writeFileSync(file, JSON.stringify(state));
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('shows records deleted or changed in the control panel as a create or a replacement; apply repairs them', async () => {
    await ws.api.dns.changeZone(SITE, SITE, { delete: [await refOf('TXT', SITE)] });
    await ws.emu.control('POST', 'dns', { package: SITE, zone: SITE, ref: Number(await refOf('CNAME', 'blog.dns-site.com')), record: { target: 'elsewhere.example.net' } });
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.changes).toEqual({ 'reseller_dns_record.spf': ['create'], 'reseller_dns_record.blog': ['update'] });
    expect(plan.showText).toMatch(/~ value\s+= "elsewhere\.example\.net" -> "dns-site\.com"/);
    await apply();
    expect(zone()).toEqual([...defaults, 'CNAME blog.dns-site.com dns-site.com', 'MX dns-site.com 20 mail2.dns-site.com', 'TXT dns-site.com v=spf1 mx -all'].sort());
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('imports records by zone/name/type/value and by zone/#ref; then the plan is empty', async () => {
    await ws.api.dns.changeZone(SITE, SITE, { add: [{ type: 'A', host: 'api', value: '192.0.2.7' }, { type: 'MX', host: '@', value: 'backup.example.net', priority: 50 }] });
    const resources = declared();
    resources.reseller_dns_record.api = record({ name: 'api', type: 'A', value: '192.0.2.7' });
    resources.reseller_dns_record.backup = record({ name: '@', type: 'MX', value: 'backup.example.net', priority: 50 });
    const ref = await refOf('A', 'api.dns-site.com');
    ws.writeConfig(resources, { import: [{ to: 'reseller_dns_record.api', id: `${SITE}/#${ref}` }, { to: 'reseller_dns_record.backup', id: `${SITE}/@/MX/50 backup.example.net` }] });
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.planText).toMatch(/Plan: 2 to import, 0 to add, 0 to change, 0 to destroy/);
    await apply();
    ws.writeConfig(resources);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('deleting every record leaves the zone as it was made: its default records, the SOA and NS untouched', async () => {
    const resources = declared();
    delete resources.reseller_dns_record.spf;
    ws.writeConfig(resources);
    await apply();
    expect(zone().some((r) => r.startsWith('TXT'))).toBe(false);
    ws.writeConfig({ reseller_package: declared().reseller_package });
    await apply();
    expect(zone()).toEqual(defaults);
  }, E2E_TIMEOUT_MS);
});
