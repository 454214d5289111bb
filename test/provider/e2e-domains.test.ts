import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_TIMEOUT_MS, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * Registered domain names under real Terraform against the emulator (issue 41):
 * reseller_domain_nameservers and reseller_domain_transfer_lock adopt a registration
 * (plan-time errors for bad input and a name the account does not hold), a change at
 * the registry shows in the plan and is repaired, import by name and by an import
 * block, a destroy that says it only forgets; the data sources share one list read;
 * reseller_dns_record in a registration's own zone; and existing DNS records keep a
 * clean plan once the provider knows `domain`.
 */

const DOMAIN = 'example-registered.net';
const CLOUDFLARE = ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'];
const OURS = ['ns1.example-dns.net', 'ns2.example-dns.net'];
let ws: ProviderWorkspace;

const nameservers = (list: string[], domain = DOMAIN): Resources => ({ reseller_domain_nameservers: { ns: { domain, nameservers: list } } });
const apply = () => ws.run(['apply', '-auto-approve']);
const requests = async () => ((await ws.emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'provider-domains' }, {});
}, E2E_TIMEOUT_MS);
afterAll(() => ws?.stop());

describe('bad input fails the plan, naming the attribute and the rule', () => {
  it.each([
    [{ domain: DOMAIN, nameservers: ['ns1.example-dns.net'] }, /nameservers lists 1 nameserver; a registration needs at least 2/],
    [{ domain: DOMAIN, nameservers: ['ns1.example-dns.net', 'not a host'] }, /Invalid nameservers: is not a host name: "not a host" is not a valid domain name/],
    [{ domain: DOMAIN, nameservers: ['ns1.example-dns.net', 'NS1.example-dns.net.'] }, /"ns1.example-dns.net" is listed twice \(also nameservers\[0\]\)/],
  ])('%j', async (resource, message) => {
    ws.writeConfig({ reseller_domain_nameservers: { ns: resource } });
    const plan = await ws.run(['plan'], [1]);
    expect(plan.stderr.replace(/\s+/g, ' ')).toMatch(message);
  }, E2E_TIMEOUT_MS);

  it('a domain the account does not hold, naming the closest registrations; nothing is written', async () => {
    await ws.emu.control('DELETE', 'requests');
    ws.writeConfig(nameservers(OURS, 'example-registerd.net'));
    const plan = await ws.run(['plan'], [1]);
    const text = plan.stderr.replace(/\s+/g, ' ');
    expect(text).toContain('domain "example-registerd.net" is not a domain name this account holds (it is adopted, never registered); the closest it holds: example-registered.net');
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([]);
  }, E2E_TIMEOUT_MS);
});

describe('reseller_domain_nameservers and reseller_domain_transfer_lock', () => {
  it('adopt the registration: the apply writes the difference (never a name in both), the next plan is clean whatever the order', async () => {
    expect(await ws.api.domains.nameservers(DOMAIN)).toEqual(CLOUDFLARE);
    await ws.emu.control('DELETE', 'requests');
    ws.writeConfig({ ...nameservers(OURS), reseller_domain_transfer_lock: { lock: { domain: DOMAIN, locked: true } } });
    await apply();
    expect(await ws.api.domains.nameservers(DOMAIN)).toEqual(OURS);
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([`POST /domain/${DOMAIN}/nameservers`]); // locked already: no lock write
    expect(await ws.planCode()).toBe(0);
    ws.writeConfig({ ...nameservers([...OURS].reverse()), reseller_domain_transfer_lock: { lock: { domain: DOMAIN } } });
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a change at the registry shows in the plan (nameservers and lock) and the apply repairs it', async () => {
    await ws.api.domains.changeNameservers(DOMAIN, { add: ['ns9.elsewhere.example'], remove: ['ns2.example-dns.net'] });
    await ws.api.domains.setTransferAllowed(DOMAIN, true);
    const plan = await ws.run(['plan', '-detailed-exitcode'], [2]);
    expect(plan.stdout).toContain('reseller_domain_nameservers.ns will be updated in-place');
    expect(plan.stdout).toMatch(/- "ns9\.elsewhere\.example",/);
    expect(plan.stdout).toMatch(/\+ "ns2\.example-dns\.net",/);
    expect(plan.stdout).toMatch(/~ locked\s+= false -> true/);
    await apply();
    expect([...(await ws.api.domains.nameservers(DOMAIN))!].sort()).toEqual(OURS);
    expect(await ws.api.domains.transferAllowed(DOMAIN)).toBe(false);
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a no-change plan reads each registration\'s nameservers and lock once, and no list', async () => {
    await ws.emu.control('DELETE', 'requests');
    expect(await ws.planCode()).toBe(0);
    expect((await requests()).sort()).toEqual([`GET /domain/${DOMAIN}/canTransfer`, `GET /domain/${DOMAIN}/nameservers`]);
  }, E2E_TIMEOUT_MS);

  it('import by the domain name and by an import block: the next plan neither creates nor replaces', async () => {
    await terraform(ws.tf, ['state', 'rm', 'reseller_domain_nameservers.ns', 'reseller_domain_transfer_lock.lock'], ws.dir, ws.env);
    const imported = await ws.run(['import', 'reseller_domain_nameservers.ns', 'Example-Registered.NET']);
    expect(imported.stdout).toContain('Import successful!');
    ws.writeConfig({ ...nameservers(OURS), reseller_domain_transfer_lock: { lock: { domain: DOMAIN } } },
      { import: [{ to: 'reseller_domain_transfer_lock.lock', id: DOMAIN }] });
    const plan = await ws.run(['plan', '-detailed-exitcode'], [0, 2]);
    expect(plan.stdout).toMatch(/Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/);
    await apply();
    ws.writeConfig({ ...nameservers(OURS), reseller_domain_transfer_lock: { lock: { domain: DOMAIN } } });
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('the data sources: one read of the list for both, the registration\'s nameservers and lock read once with the resources\'', async () => {
    const expiring = '[for d in data.reseller_domains.all.domains : d.name if timecmp(d.expiry_date, timeadd(plantimestamp(), "720h")) < 0]';
    ws.writeConfig({ ...nameservers(OURS), reseller_domain_transfer_lock: { lock: { domain: DOMAIN } } }, {
      data: { reseller_domains: { all: {} }, reseller_domain: { one: { name: DOMAIN } } },
      output: {
        expiring: { value: `\${${expiring}}` },
        one: { value: '${data.reseller_domain.one}' },
      },
    });
    await apply();
    await ws.emu.control('DELETE', 'requests');
    await ws.run(['refresh']);
    const reads = await requests();
    expect(reads.filter((r) => r === 'GET /domain')).toHaveLength(1);
    expect(reads.filter((r) => r === `GET /domain/${DOMAIN}/nameservers`)).toHaveLength(1);
    expect(reads.filter((r) => r === `GET /domain/${DOMAIN}/canTransfer`)).toHaveLength(1);
    const outputs = JSON.parse((await terraform(ws.tf, ['output', '-json'], ws.dir, ws.env)).stdout);
    expect(outputs.expiring.value).toEqual(['example-blog.com']);
    expect(outputs.one.value).toMatchObject({ name: DOMAIN, nameservers: OURS, transfer_locked: true, has_privacy: true, pending_transfer: false, expiry_date: expect.stringMatching(/T00:00:00Z$/) });
    ws.writeConfig({}, { data: { reseller_domain: { one: { name: 'example-registerd.net' } } } });
    const missing = await ws.run(['plan'], [1]);
    expect(missing.stderr.replace(/\s+/g, ' ')).toContain('No registered domain name of the account has name "example-registerd.net". Closest existing: example-registered.net');
  }, E2E_TIMEOUT_MS);

  it('destroy says it only forgets, and leaves the nameservers and the lock as they are', async () => {
    ws.writeConfig({ ...nameservers(OURS), reseller_domain_transfer_lock: { lock: { domain: DOMAIN } } });
    await apply();
    ws.writeConfig({});
    const plan = await ws.run(['plan']);
    const text = plan.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Destroying this nameserver set only removes it from the state');
    expect(text).toContain('the registration keeps the nameservers it has');
    expect(text).toContain('Destroying this domain transfer lock only removes it from the state');
    await ws.emu.control('DELETE', 'requests');
    await apply();
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(await ws.api.domains.nameservers(DOMAIN)).toEqual(OURS);
    expect(await ws.api.domains.transferAllowed(DOMAIN)).toBe(false);
  }, E2E_TIMEOUT_MS);
});

describe('reseller_dns_record in a registered domain\'s own zone', () => {
  const txt = { domain: DOMAIN, name: '_acme-challenge', type: 'TXT', value: 'token-123' };

  it('creates it through /domain/{name}/dns, imports it by domain:zone/..., deletes it', async () => {
    ws.writeConfig({ reseller_dns_record: { acme: txt } });
    await ws.emu.control('DELETE', 'requests');
    await apply();
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([`POST /domain/${DOMAIN}/dns`]);
    const zone = (await ws.api.domains.getZone(DOMAIN))!;
    expect(zone.records.filter((r) => r.type === 'TXT').map((r) => [r.host, r.value])).toEqual([[`_acme-challenge.${DOMAIN}`, 'token-123']]);
    expect(await ws.planCode()).toBe(0);
    await terraform(ws.tf, ['state', 'rm', 'reseller_dns_record.acme'], ws.dir, ws.env);
    expect((await ws.run(['import', 'reseller_dns_record.acme', `domain:${DOMAIN}/_acme-challenge/TXT/token-123`])).stdout).toContain('Import successful!');
    expect(await ws.planCode()).toBe(0);
    ws.writeConfig({});
    await apply();
    expect((await ws.api.domains.getZone(DOMAIN))!.records.some((r) => r.type === 'TXT')).toBe(false);
  }, E2E_TIMEOUT_MS);

  it('a name a package holds is refused at plan time, naming the package to declare it with', async () => {
    ws.writeConfig({ reseller_package: { studio: { domain_name: 'example-studio.com', package_type: 'Linux Starter' } } });
    await apply();
    ws.writeConfig({
      reseller_package: { studio: { domain_name: 'example-studio.com', package_type: 'Linux Starter' } },
      reseller_dns_record: { x: { domain: 'example-studio.com', name: 'x', type: 'A', value: '192.0.2.10' } },
    });
    const plan = await ws.run(['plan'], [1]);
    expect(plan.stderr.replace(/\s+/g, ' ')).toContain('"example-studio.com" is a name of package example-studio.com, whose zone is the registration\'s: declare the record with package = "example-studio.com" instead');
  }, E2E_TIMEOUT_MS);

  it('an existing package record keeps a clean plan after the upgrade: a state without `domain` (as the previous provider wrote it) reads as before', async () => {
    const resources: Resources = {
      reseller_package: { shop: { domain_name: 'example-shop.com', package_type: 'Linux Starter' } },
      reseller_dns_record: { spf: { package: '${reseller_package.shop.domain_name}', name: '@', type: 'TXT', value: 'v=spf1 -all' } },
    };
    ws.writeConfig(resources);
    await apply();
    // The state as the provider before `domain` existed wrote it: the attribute absent.
    const statePath = join(ws.dir, 'terraform.tfstate');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    const record = state.resources.find((r: { type: string }) => r.type === 'reseller_dns_record');
    delete record.instances[0].attributes.domain;
    state.serial += 1;
    writeFileSync(statePath, JSON.stringify(state));
    expect(await ws.planCode()).toBe(0);
    ws.writeConfig({});
    await apply();
  }, E2E_TIMEOUT_MS);
});
