import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { API_KEY, mailOf, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, leaksOf, requireTerraform, savedPlan, sha256, tempDir, terraform } from '../e2e/support';

/**
 * The native provider under real Terraform against the emulator, from hand-written
 * Terraform JSON: the provider is installed into the stack directory's implied local
 * mirror (terraform.d/plugins), so `terraform init` finds it offline with no CLI
 * configuration. Changes made outside Terraform go through the API itself.
 */

const PASSWORD_1 = 'First-Mailbox-Passw0rd!';
const PASSWORD_2 = 'Rotated-Mailbox-Passw0rd!';

let tf: string;
let emu: TestEmulator;
let dir: string;
let api: ResellerClient;
let source: string;

interface Resources { [type: string]: { [name: string]: Record<string, unknown> } }

const baseResources = (): Resources => ({
  reseller_package: {
    site: { domain_name: 'provider-site.com', extra_domain_names: ['provider-site.net'], package_type: 'Linux Unlimited', label: 'Provider Site' },
  },
  reseller_mailbox: {
    info: { package: '${reseller_package.site.domain_name}', local_part: 'info', password_wo: '${var.mailbox_password}', password_wo_version: 1 },
  },
  reseller_forwarder: {
    sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: 'team@example.org' },
  },
});

function writeConfig(resources: Resources, extra: Record<string, unknown> = {}): void {
  const doc = {
    terraform: { required_providers: { reseller: { source } } },
    variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: { api_url: emu.url } },
    resource: resources,
    ...extra,
  };
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(doc, null, 2));
}

const env = (password = PASSWORD_1, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  RESELLER_API_KEY: API_KEY, TF_VAR_mailbox_password: password, RESELLER_POLL_INTERVAL: '100ms', ...extra,
});
const apply = (password = PASSWORD_1, extra: NodeJS.ProcessEnv = {}) =>
  terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env(password, extra));
const planCode = async (password = PASSWORD_1) =>
  (await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, env(password), [0, 2])).code;
const pkg = (name: string) => emu.account().packages.find((p) => p.name === name);
const change = (plan: any, address: string) => plan.json.resource_changes.find((rc: any) => rc.address === address)?.change;

beforeAll(async () => {
  tf = requireTerraform();
  const installer = builtProviderInstaller();
  source = installer.PROVIDER_SOURCE;
  emu = await startTestEmulator({ provisionDelayMs: 300 });
  dir = tempDir('provider');
  installer.installProvider(join(dir, 'terraform.d', 'plugins'));
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  writeConfig(baseResources());
  await terraform(tf, ['init', '-input=false', '-no-color'], dir, env());
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  api?.close();
  await emu?.stop();
});

describe('native provider with real Terraform', () => {
  it('applies a package, a mailbox and a forwarder; a second plan shows no changes', async () => {
    await apply();
    const site = pkg('provider-site.com')!;
    expect(site).toMatchObject({ names: ['provider-site.com', 'provider-site.net'], packageTypeName: 'Linux Unlimited', label: 'Provider Site', enabled: true });
    const mail = mailOf(emu.account(), 'provider-site.com');
    expect(mail.mailboxes.map((m) => m.local)).toEqual(['info']);
    expect(mail.mailboxes[0].passwordSha256).toBe(sha256(PASSWORD_1));
    expect(mail.forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'team@example.org']]);
    await emu.control('DELETE', 'requests');
    expect(await planCode()).toBe(0);
    // Refreshing three objects reads the package list once (shared by every Read of the process), not once per object.
    const reads = ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);
    expect(reads.filter((r) => /^GET \/package$/.test(r))).toHaveLength(1);
  }, E2E_TIMEOUT_MS);

  it('shows changes made outside Terraform in the plan (exit code 2), and apply repairs them', async () => {
    const id = pkg('provider-site.com')!.id;
    const mail = await api.mail.get(id, 'provider-site.com');
    await api.mail.delete(id, 'provider-site.com', [mail.forwarders[0].id, mail.mailboxes[0].id]);
    await api.mail.createForwarder(id, 'provider-site.com', { local: 'sales', remote: 'evil@example.net' });
    await api.packages.changeNames(id, { add: ['provider-site.org'] });
    await api.packages.setEnabled(id, false);

    expect(await planCode()).toBe(2);
    const plan = await savedPlan(tf, dir, env());
    expect(plan.changes).toEqual({
      'reseller_package.site': ['update'],
      'reseller_mailbox.info': ['create'],
      'reseller_forwarder.sales': ['update'],
    });
    expect(change(plan, 'reseller_forwarder.sales')).toMatchObject({ before: { remote: 'evil@example.net' }, after: { remote: 'team@example.org' } });
    const site = change(plan, 'reseller_package.site');
    expect(site.before.enabled).toBe(false);
    expect(site.after.enabled).toBe(true);
    expect([...site.before.extra_domain_names].sort()).toEqual(['provider-site.net', 'provider-site.org']);
    expect(site.after.extra_domain_names).toEqual(['provider-site.net']);
    expect(plan.showText).toMatch(/~ remote\s+= "evil@example.net" -> "team@example.org"/);
    expect(plan.showText).toMatch(/~ enabled\s+= false -> true/);

    await apply();
    const repaired = pkg('provider-site.com')!;
    expect(repaired).toMatchObject({ names: ['provider-site.com', 'provider-site.net'], enabled: true });
    const after = mailOf(emu.account(), 'provider-site.com');
    expect(after.forwarders.map((f) => f.remote)).toEqual(['team@example.org']);
    expect(after.mailboxes.map((m) => m.local)).toEqual(['info']);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('imports existing objects by natural key (terraform import and an import block); then the plan is empty', async () => {
    const id = await api.packages.create({ type: 812, domainName: 'imported-site.com', extraDomainNames: [], label: 'Made by hand' });
    await api.mail.createForwarder(id, 'imported-site.com', { local: 'hello', remote: 'someone@example.org' });
    const resources = baseResources();
    resources.reseller_package.imported = { domain_name: 'imported-site.com', package_type: 'Linux Starter' };
    writeConfig(resources);
    const imported = await terraform(tf, ['import', '-input=false', '-no-color', 'reseller_package.imported', 'imported-site.com'], dir, env());
    expect(imported.stdout).toContain('Import successful!');

    resources.reseller_forwarder.imported = { package: 'imported-site.com', local_part: 'hello', remote: 'someone@example.org' };
    writeConfig(resources, { import: [{ to: 'reseller_forwarder.imported', id: 'hello@imported-site.com' }] });
    const plan = await savedPlan(tf, dir, env());
    expect(plan.changes).toEqual({});
    expect(plan.planText).toMatch(/Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/);
    await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], dir, env());
    writeConfig(resources);
    expect(await planCode()).toBe(0);
    // The label nobody declared follows the live object: it is in state, not a change.
    const state = JSON.parse((await terraform(tf, ['show', '-json'], dir, env())).stdout);
    const importedPkg = state.values.root_module.resources.find((r: any) => r.address === 'reseller_package.imported');
    expect(importedPkg.values).toMatchObject({ id: 'imported-site.com', label: 'Made by hand', enabled: true });

    resources.reseller_forwarder.other = { package: 'imported-site.com', local_part: 'other', remote: 'someone@example.org' };
    writeConfig(resources);
    const badId = await terraform(tf, ['import', '-input=false', '-no-color', 'reseller_forwarder.other', 'not-an-address'], dir, env(), [1]);
    expect(badId.stderr).toMatch(/Invalid import id for reseller_forwarder: "not-an-address"/);
    const missing = await terraform(tf, ['import', '-input=false', '-no-color', 'reseller_forwarder.other', 'nobody@imported-site.com'], dir, env(), [1]);
    expect(missing.stderr).toMatch(/Cannot import reseller_forwarder: no forwarder "nobody@imported-site.com" in the account/);
  }, E2E_TIMEOUT_MS);

  it("imports a mail object on a package's extra domain by local@domain: its package is the owner, and the plan is empty", async () => {
    const siteId = pkg('provider-site.com')!.id;
    await api.mail.createForwarder(siteId, 'provider-site.net', { local: 'extra', remote: 'extra@example.org' });
    const resources = baseResources();
    resources.reseller_package.imported = { domain_name: 'imported-site.com', package_type: 'Linux Starter' };
    resources.reseller_forwarder.imported = { package: 'imported-site.com', local_part: 'hello', remote: 'someone@example.org' };
    resources.reseller_forwarder.extra = {
      package: '${reseller_package.site.domain_name}', domain: 'provider-site.net', local_part: 'extra', remote: 'extra@example.org',
    };
    writeConfig(resources);
    const imported = await terraform(tf, ['import', '-input=false', '-no-color', 'reseller_forwarder.extra', 'extra@provider-site.net'], dir, env());
    expect(imported.stdout).toContain('Import successful!');
    const state = JSON.parse((await terraform(tf, ['show', '-json'], dir, env())).stdout);
    const extra = state.values.root_module.resources.find((r: any) => r.address === 'reseller_forwarder.extra');
    expect(extra.values).toMatchObject({ package: 'provider-site.com', domain: 'provider-site.net', local_part: 'extra' });
    expect(await planCode()).toBe(0);
    // Leave the stack as the next case expects: removing the resource deletes the forwarder.
    delete resources.reseller_forwarder.extra;
    writeConfig(resources);
    await apply();
    expect(mailOf(emu.account(), 'provider-site.net').forwarders).toEqual([]);
  }, E2E_TIMEOUT_MS);

  it('plans a replacement when an identity attribute changes, and a delete when a resource is removed', async () => {
    const resources = baseResources();
    resources.reseller_package.imported = { domain_name: 'imported-site.com', package_type: 'Linux Starter' };
    resources.reseller_forwarder.imported = { package: 'imported-site.com', local_part: 'hello', remote: 'someone@example.org' };
    resources.reseller_forwarder.sales.local_part = 'sales-team';
    writeConfig(resources);
    const plan = await savedPlan(tf, dir, env());
    expect(plan.changes).toEqual({ 'reseller_forwarder.sales': ['delete', 'create'] });
    expect(plan.showText).toMatch(/~ local_part\s+= "sales" -> "sales-team" # forces replacement/);
    await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], dir, env());
    expect(mailOf(emu.account(), 'provider-site.com').forwarders.map((f) => f.local)).toEqual(['sales-team']);

    delete resources.reseller_forwarder.imported;
    writeConfig(resources);
    const removal = await savedPlan(tf, dir, env());
    expect(removal.changes).toEqual({ 'reseller_forwarder.imported': ['delete'] });
    await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], dir, env());
    expect(mailOf(emu.account(), 'imported-site.com').forwarders).toEqual([]);
    expect(pkg('imported-site.com')).toBeDefined();
  }, E2E_TIMEOUT_MS);

  it('rotates the mailbox password by version; no password in state, plan JSON or trace logs', async () => {
    const resources = baseResources();
    resources.reseller_package.imported = { domain_name: 'imported-site.com', package_type: 'Linux Starter' };
    resources.reseller_forwarder.sales.local_part = 'sales-team';
    resources.reseller_mailbox.info.password_wo_version = 2;
    writeConfig(resources);
    const trace = { TF_LOG: 'trace' };
    const plan = await terraform(tf, ['plan', '-input=false', '-no-color', '-out=rotate'], dir, env(PASSWORD_2, trace));
    const planJson = await terraform(tf, ['show', '-json', 'rotate'], dir, env(PASSWORD_2));
    expect(JSON.parse(planJson.stdout).resource_changes.filter((rc: any) => rc.change.actions.join() !== 'no-op').map((rc: any) => rc.address))
      .toEqual(['reseller_mailbox.info']);
    const applied = await terraform(tf, ['apply', '-input=false', '-no-color', 'rotate'], dir, env(PASSWORD_2, trace));
    expect(mailOf(emu.account(), 'provider-site.com').mailboxes[0].passwordSha256).toBe(sha256(PASSWORD_2));
    // Same version, another password: nothing to do (Terraform cannot see write-only values).
    expect(await planCode('Yet-Another-Passw0rd!')).toBe(0);

    const texts = {
      'plan log': plan.stdout + plan.stderr,
      'plan JSON': planJson.stdout,
      'apply log': applied.stdout + applied.stderr,
      state: readFileSync(join(dir, 'terraform.tfstate'), 'utf8'),
    };
    expect(texts['apply log']).toContain('provider.terraform-provider-reseller'); // the trace did capture the provider
    expect(leaksOf(PASSWORD_1, texts)).toEqual([]);
    expect(leaksOf(PASSWORD_2, texts)).toEqual([]);
  }, E2E_TIMEOUT_MS);

  it('names the attribute and the rule of an invalid value at plan time', async () => {
    const resources = baseResources();
    resources.reseller_forwarder.sales.remote = 'not an address';
    writeConfig(resources);
    const result = await terraform(tf, ['plan', '-input=false', '-no-color'], dir, env(), [1]);
    expect(result.stderr).toMatch(/Error: Invalid remote: /);
    expect(result.stderr).toMatch(/with reseller_forwarder\.sales/);
    expect(result.stderr).toMatch(/remote\s+= "not an address"|"remote": "not an address"/);
  }, E2E_TIMEOUT_MS);

  it('fails the plan for a package type or a user by number the account lacks (creates, and an update of an existing package), naming the resource and attribute; nothing is written', async () => {
    const resources = baseResources();
    resources.reseller_package.shop = { domain_name: 'provider-shop.com', package_type: 'Linux Nonexistent' };
    resources.reseller_package.site.package_type = 'Windows Nonexistent';
    resources.reseller_package.owned = { domain_name: 'provider-owned.com', package_type: 'Linux Starter', stack_user: 'stack-user:999999' };
    // A user by e-mail is not checked when planning: the same plan may create it.
    resources.reseller_package.later = { domain_name: 'provider-later.com', package_type: 'Linux Starter', stack_user: 'not-yet@example.com' };
    writeConfig(resources);
    await emu.control('DELETE', 'requests');
    const result = await terraform(tf, ['plan', '-input=false', '-no-color'], dir, env(), [1]);
    const errors = result.stderr.split(/\n(?=Error: )/).filter((e) => e.startsWith('Error: '));
    const available = 'available: Linux Unlimited (811), Linux Starter (812), Windows Unlimited (813), Managed Cloud (820)';
    expect(errors).toHaveLength(3);
    expect(errors.find((e) => e.includes('with reseller_package.owned'))).toContain('Error: Invalid stack_user: "stack-user:999999" is not a control-panel user of this account');
    expect(errors.find((e) => e.includes('with reseller_package.shop'))).toContain(`Error: Invalid package_type: "Linux Nonexistent" is not a package type of this account; ${available}`);
    expect(errors.find((e) => e.includes('with reseller_package.site'))).toContain('Error: Invalid package_type: "Windows Nonexistent" is not a package type of this account;');
    const log = (await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>;
    expect(log.filter((r) => r.method !== 'GET')).toEqual([]);
  }, E2E_TIMEOUT_MS);

  it('an apply that fails on one attribute points at it (a control-panel user the account lacks; a domain that is another package\'s)', async () => {
    const resources = baseResources();
    resources.reseller_package.shop = { domain_name: 'provider-shop.com', package_type: 'Linux Starter', stack_user: 'nobody@example.com' };
    resources.reseller_package.clash = { domain_name: 'provider-site.net', package_type: 'Linux Starter' }; // an extra domain of site
    writeConfig(resources);
    const result = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env(), [1]);
    // The snippet under each error is the attribute's own line, not the resource block's.
    const snippet = (address: string, line: string) =>
      new RegExp(`with ${address.replace('.', '\\.')},\\n\\s+on main\\.tf\\.json line \\d+, in resource\\.${address.replace('.', '\\.')}:\\n\\s+\\d+:\\s+${line}`);
    expect(result.stderr).toMatch(snippet('reseller_package.shop', '"stack_user": "nobody@example\\.com"'));
    expect(result.stderr).toMatch(snippet('reseller_package.clash', '"domain_name": "provider-site\\.net"'));
    const text = result.stderr.replace(/\s+/g, ' ');
    expect(text).toContain('stackUser { email: "nobody@example.com" } matches no control-panel user of this account');
    expect(text).toContain('provider-site.net is an extra domain of package provider-site.com');
    expect(pkg('provider-shop.com')).toBeUndefined();
  }, E2E_TIMEOUT_MS);

  it('says the API key (api_key or RESELLER_API_KEY) is missing at configure time', async () => {
    writeConfig(baseResources());
    const result = await terraform(tf, ['plan', '-input=false', '-no-color'], dir, { ...env(), RESELLER_API_KEY: '' }, [1]);
    expect(result.stderr).toMatch(/Missing API key: set api_key or RESELLER_API_KEY/);
  }, E2E_TIMEOUT_MS);
});
