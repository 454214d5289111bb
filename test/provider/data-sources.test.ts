import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The provider's data sources under real Terraform against the emulator: each one found
 * and not found, plural ones with filters (no match: empty), values feeding a
 * terraform_data input, outputs and check blocks, unknown arguments deferred to apply,
 * and the request log of a plan that reads many data sources beside managed resources.
 * The account is set up through the API, as another stack or the control panel would.
 */

let tf: string;
let emu: TestEmulator;
let dir: string;
let api: ResellerClient;
let source: string;
let legacyId: number;

interface Doc { [block: string]: unknown }

function write(doc: Doc): void {
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
    terraform: { required_providers: { reseller: { source } } },
    provider: { reseller: { api_url: emu.url } },
    ...doc,
  }, null, 2));
}

const env = (): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL_MS: '100' });
const run = (args: string[], ok = [0]) => terraform(tf, [...args, '-input=false', '-no-color'], dir, env(), ok);
const apply = () => run(['apply', '-auto-approve']);
const outputs = async (): Promise<Record<string, unknown>> => {
  const out = await terraform(tf, ['output', '-json'], dir, env());
  return Object.fromEntries(Object.entries(JSON.parse(out.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
};
const requests = async () => ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);

function builtInstaller(): typeof import('../../src/provider/install') {
  const file = join(REPO_ROOT, 'dist', 'src', 'provider', 'install.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: run 'npm run build' first (npm test does)`);
  return require(file);
}

beforeAll(async () => {
  tf = requireTerraform();
  const installer = builtInstaller();
  source = installer.PROVIDER_SOURCE;
  emu = await startTestEmulator({ provisionDelayMs: 50 });
  dir = tempDir('data-sources');
  installer.installProvider(join(dir, 'terraform.d', 'plugins'));
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  // What another stack or the control panel made.
  const owner = (await api.users.findByEmail('owner@example.com'))!;
  legacyId = await api.packages.create({
    type: 811, domainName: 'legacy.example.com', extraDomainNames: ['legacy.example.net'], label: 'Legacy', stackUser: owner,
  });
  await api.packages.create({ type: 812, domainName: 'starter.example.org', extraDomainNames: [] });
  await api.mail.createMailbox(legacyId, 'legacy.example.com', { local: 'info', send: true, receive: true, password: 'Legacy-Passw0rd!' });
  await api.mail.createForwarder(legacyId, 'legacy.example.com', { local: 'sales', remote: 'team@example.org' });
  await api.cloudServers.order({
    configuration: { spec: 'medium', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example.com' }, periodMonths: 1, type: 'cloud-20i',
  });
  let server;
  while (!(server = (await api.cloudServers.list()).find((s) => s.name === 'web1.example.com'))) await new Promise((r) => setTimeout(r, 50));
  await api.packages.createOnCloudServer(server.id, { domainName: 'oncloud.example.com', extraDomainNames: [] });
  write({});
  await terraform(tf, ['init', '-input=false', '-no-color'], dir, env());
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  api?.close();
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (emu) rmSync(emu.dir, { recursive: true, force: true });
});

describe('data sources of the native provider', () => {
  it('read existing objects into a terraform_data input, outputs and check assertions', async () => {
    write({
      data: {
        reseller_package: {
          legacy: { domain_name: 'legacy.example.com' },
          by_name: { name: 'legacy.example.net' },
          by_id: { package_id: legacyId },
        },
        reseller_packages: {
          all: {},
          starter: { package_type: 'Linux Starter' },
          owned: { stack_user: 'owner@example.com' },
          suffix: { name_suffix: '.org' },
          on_server: { cloud_server: 'web1.example.com' },
          none: { name_suffix: '.invalid' },
        },
        reseller_package_types: { all: {}, windows: { platform: 'windows' } },
        reseller_stack_user: { owner: { email: 'OWNER@example.com' }, by_ref: { user_ref: 'stack-user:989901' } },
        reseller_stack_users: { all: {}, org: { email_suffix: '@example.org' }, none: { email_suffix: '@nowhere.invalid' } },
        reseller_mail_domain: { legacy: { package: 'legacy.example.net', domain: 'legacy.example.com' } },
        reseller_cloud_server: { web1: { host_name: 'web1.example.com' } },
        reseller_cloud_servers: { all: {}, aws: { cloud_provider: 'aws' } },
        reseller_cloud_server_specs: { big: { min_cpu: 16, min_ram_gb: 64 }, native: { cloud_provider: 'native' } },
      },
      resource: {
        terraform_data: {
          dns: { input: { ip: '${data.reseller_package.legacy.web_ipv4}', type_id: '${data.reseller_package_types.all.ids_by_name["Linux Starter"]}' } },
        },
      },
      output: {
        legacy: { value: '${data.reseller_package.legacy}' },
        same_by_name: { value: '${data.reseller_package.by_name.domain_name}' },
        same_by_id: { value: '${data.reseller_package.by_id.domain_name}' },
        dns_input: { value: '${terraform_data.dns.output}' },
        all: { value: '${data.reseller_packages.all.domain_names}' },
        starter: { value: '${data.reseller_packages.starter.domain_names}' },
        owned: { value: '${data.reseller_packages.owned.domain_names}' },
        suffix: { value: '${data.reseller_packages.suffix.domain_names}' },
        on_server: { value: '${data.reseller_packages.on_server.packages[0]}' },
        none: { value: '${data.reseller_packages.none.packages}' },
        types: { value: '${data.reseller_package_types.all.package_types}' },
        windows: { value: '${data.reseller_package_types.windows.ids_by_name}' },
        owner: { value: '${data.reseller_stack_user.owner}' },
        by_ref: { value: '${data.reseller_stack_user.by_ref.email}' },
        users: { value: '${data.reseller_stack_users.all.emails}' },
        org_users: { value: '${data.reseller_stack_users.org.emails}' },
        no_users: { value: '${data.reseller_stack_users.none.users}' },
        mail: { value: '${data.reseller_mail_domain.legacy}' },
        web1: { value: '${data.reseller_cloud_server.web1}' },
        servers: { value: '${data.reseller_cloud_servers.all.host_names}' },
        aws_servers: { value: '${data.reseller_cloud_servers.aws.cloud_servers}' },
        big: { value: '${[for s in data.reseller_cloud_server_specs.big.specs : "${s.cloud_provider}/${s.spec}"]}' },
        native_smallest: { value: '${data.reseller_cloud_server_specs.native.specs[0]}' },
      },
      check: {
        legacy_is_enabled: {
          assert: [{ condition: '${data.reseller_package.legacy.enabled && data.reseller_package.legacy.package_type == "Linux Unlimited"}', error_message: 'legacy.example.com is not an enabled Linux Unlimited package' }],
        },
      },
    });
    const applied = await apply();
    expect(applied.stdout).not.toMatch(/Check block assertion failed/);
    const out = await outputs();
    const ip = (out.legacy as { web_ipv4: string }).web_ipv4;
    expect(ip).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/);
    expect(out.legacy).toEqual({
      id: 'legacy.example.com', domain_name: 'legacy.example.com', name: null, package_id: legacyId,
      cloud_server: null, extra_domain_names: ['legacy.example.net'], package_type: 'Linux Unlimited', package_type_id: 811,
      label: 'Legacy', stack_user: 'stack-user:989901', enabled: true,
      names: ['legacy.example.com', 'legacy.example.net'], stack_users: ['stack-user:989901'], web_ipv4: ip,
    });
    expect(out).toMatchObject({
      same_by_name: 'legacy.example.com',
      same_by_id: 'legacy.example.com',
      dns_input: { ip, type_id: 812 },
      all: ['legacy.example.com', 'oncloud.example.com', 'starter.example.org'],
      starter: ['starter.example.org'],
      owned: ['legacy.example.com'],
      suffix: ['starter.example.org'],
      on_server: { domain_name: 'oncloud.example.com', cloud_server: 'web1.example.com' },
      none: [],
      windows: { 'Windows Unlimited': 813 },
      by_ref: 'owner@example.com',
      users: ['owner@example.com', 'ops@example.org'],
      org_users: ['ops@example.org'],
      no_users: [],
      servers: ['web1.example.com'],
      aws_servers: [],
      big: ['native/8x-large', 'native/16x-large', 'native/32x-large', 'aws/4x-large', 'aws/8x-large', 'gcp/x-large', 'gcp/2x-large', 'gcp/4x-large', 'gcp/8x-large'],
      native_smallest: { cloud_provider: 'native', spec: 'micro', cpu: 1, ram_gb: 1, disk_gb: 25, bandwidth: 1000 },
    });
    // Limits: unlimited is null (listed in `unlimited`), never the API's "INF".
    const starterType = (out.types as Array<Record<string, unknown>>).find((t) => t.name === 'Linux Starter');
    expect(starterType).toEqual({
      id: 812, name: 'Linux Starter', platform: 'linux',
      limits: { domains: 5, webspace: 10240, bandwidth: null, mailboxes: 10, databases: 5 }, unlimited: ['bandwidth'],
    });
    expect(JSON.stringify(out.types)).not.toContain('INF');
    expect(out.owner).toMatchObject({ id: 'stack-user:989901', email: 'owner@example.com', user_ref: 'stack-user:989901' });
    // Mailboxes without passwords, forwarders with their target.
    expect(out.mail).toEqual({
      package: 'legacy.example.net', domain: 'legacy.example.com', package_domain: 'legacy.example.com',
      mailboxes: [{ local_part: 'info', address: 'info@legacy.example.com', send: true, receive: true, enabled: true, mailbox_id: expect.stringMatching(/^m/) }],
      forwarders: [{ local_part: 'sales', address: 'sales@legacy.example.com', remote: 'team@example.org', forwarder_id: expect.stringMatching(/^f/) }],
      addresses: ['info@legacy.example.com', 'sales@legacy.example.com'],
    });
    expect(JSON.stringify(out.mail)).not.toContain('Legacy-Passw0rd!');
    expect(out.web1).toMatchObject({
      id: 'web1.example.com', host_name: 'web1.example.com', cloud_provider: 'native', spec: 'medium', zone: 'dc_location-uk',
      packages: ['oncloud.example.com'], brand_name: null,
    });
    // A second plan with nothing changed is empty.
    expect((await run(['plan', '-detailed-exitcode'], [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it.each([
    ['reseller_package', { domain_name: 'legacy.exmaple.com' }, /reseller_package: package "legacy.exmaple.com" not found[\s\S]*domain_name "legacy.exmaple.com"[\s\S]*Closest existing: legacy.example.com/],
    ['reseller_package', { package_id: 424242 }, /reseller_package: package "424242" not found/],
    ['reseller_stack_user', { email: 'ownr@example.com' }, /reseller_stack_user: control-panel user "ownr@example.com" not found[\s\S]*Closest existing: owner@example.com/],
    ['reseller_mail_domain', { package: 'legacy.example.com', domain: 'legacy.example.org' }, /mail domain of package legacy.example.com "legacy.example.org" not found[\s\S]*Closest existing: legacy.example.com, legacy.example.net/],
    ['reseller_cloud_server', { host_name: 'web2.example.com' }, /reseller_cloud_server: cloud server "web2.example.com" not found[\s\S]*Closest existing: web1.example.com/],
  ])('%s that does not exist fails the plan, naming the key and the closest names (%j)', async (type, args, message) => {
    write({ data: { [type]: { missing: args } } });
    const plan = await run(['plan'], [1]);
    const text = (plan.stdout + plan.stderr).replace(/\s+/g, ' '); // Terraform wraps long lines
    expect(text).toMatch(message);
    expect(text).toMatch(/with data\.\w+\.missing/);
  }, E2E_TIMEOUT_MS);

  it('rejects two look-up keys at validation', async () => {
    write({ data: { reseller_package: { both: { domain_name: 'legacy.example.com', package_id: legacyId } } } });
    const plan = await terraform(tf, ['validate', '-no-color'], dir, env(), [1]);
    expect((plan.stdout + plan.stderr).replace(/\s+/g, ' ')).toMatch(/reseller_package: give only one of domain_name, name, package_id/);
  }, E2E_TIMEOUT_MS);

  it('defers a read whose key is known only after apply, then reads it', async () => {
    write({
      resource: { terraform_data: { name: { input: 'legacy.example.com' } } },
      data: { reseller_package: { later: { domain_name: '${terraform_data.name.output}' } } },
      output: { later: { value: '${data.reseller_package.later.package_id}' } },
    });
    const plan = await run(['plan']);
    expect(plan.stdout).toMatch(/data\.reseller_package\.later will be read during apply/);
    await apply();
    expect((await outputs()).later).toBe(legacyId);
  }, E2E_TIMEOUT_MS);

  it('shares the list reads with managed resources: one package-list request for 100 package data sources', async () => {
    const domains = Array.from({ length: 100 }, (_, i) => `bulk${i}.example.com`);
    for (const d of domains) await api.packages.create({ type: 811, domainName: d, extraDomainNames: [] });
    write({
      locals: { domains },
      resource: { reseller_package: { managed: { domain_name: 'managed.example.com', package_type: 'Linux Unlimited' } } },
      data: {
        reseller_package: { bulk: { count: 100, domain_name: '${local.domains[count.index]}' } },
        reseller_packages: { all: {} },
        reseller_mail_domain: { legacy: { package: 'legacy.example.com' } },
      },
    });
    await apply();
    await emu.control('DELETE', 'requests');
    expect((await run(['plan', '-detailed-exitcode'], [0, 2])).code).toBe(0);
    const reads = await requests();
    expect(reads.filter((r) => r === 'GET /package')).toHaveLength(1);
    expect(reads.filter((r) => /^GET \/package\/[^/]+\/email\//.test(r))).toHaveLength(1);
    // Beside the lists, each package data source reads its package once for the web IPv4 address.
    expect(reads.filter((r) => /^GET \/package\/[0-9]+$/.test(r))).toHaveLength(100);
    expect(reads.filter((r) => !/^GET \/package\/[0-9]+$/.test(r)).sort()).toEqual([
      'GET /cloud_server', 'GET /package', 'GET /package/legacy.example.com/email/legacy.example.com', 'GET /reseller/*/packageTypes',
    ].sort());
  }, E2E_TIMEOUT_MS);
});
