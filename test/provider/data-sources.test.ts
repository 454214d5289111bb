import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The provider's data sources under real Terraform against the emulator: each one found
 * and not found, plural ones with filters (no match: empty), values feeding a
 * terraform_data input, outputs and check blocks, unknown arguments deferred to apply,
 * and the request log of a plan that reads many data sources beside managed resources
 * (one request per list, per mail domain and per package's DNS zones; the per-object
 * detail reads only when `read_web_ipv4` / `read_brand` ask for them).
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

const env = (): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms' });
const run = (args: string[], ok = [0]) => terraform(tf, [...args, '-input=false', '-no-color'], dir, env(), ok);
const apply = () => run(['apply', '-auto-approve']);
const outputs = async (): Promise<Record<string, unknown>> => {
  const out = await terraform(tf, ['output', '-json'], dir, env());
  return Object.fromEntries(Object.entries(JSON.parse(out.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
};
const requests = async () => ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  tf = requireTerraform();
  const installer = builtProviderInstaller();
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
  // Beside the zones' default records (A at @ and www, MX, and the service's SOA and NS).
  await api.dns.changeZone(legacyId, 'legacy.example.com', { add: [{ type: 'TXT', host: '@', value: 'v=spf1 -all' }] });
  await api.dns.changeZone(legacyId, 'legacy.example.net', { add: [{ type: 'SRV', host: '_sip._tcp', value: 'sip.example.net', priority: 10, weight: 5, port: 5060 }] });
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
          legacy: { domain_name: 'legacy.example.com', read_web_ipv4: true },
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
        reseller_cloud_server: { web1: { host_name: 'web1.example.com', read_brand: true } },
        reseller_cloud_servers: { all: {}, aws: { cloud_provider: 'aws' } },
        reseller_cloud_server_specs: { big: { min_cpu: 16, min_ram_gb: 64 }, native: { cloud_provider: 'native' } },
        reseller_dns_records: {
          legacy: { package: 'legacy.example.net' },
          mx: { package: 'legacy.example.com', type: 'mx' },
          www: { package: 'legacy.example.com', zone: 'legacy.example.net', name: 'www.legacy.example.net' },
          srv: { package: 'legacy.example.com', zone: 'legacy.example.net', name: '_sip._tcp', type: 'SRV' },
          none: { package: 'legacy.example.com', name: 'nothing' },
        },
      },
      resource: {
        terraform_data: {
          dns: { input: { ip: '${data.reseller_package.legacy.web_ipv4}', type_id: '${data.reseller_package_types.all.ids_by_name["Linux Starter"]}', mail_host: '${data.reseller_dns_records.mx.values[0]}' } },
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
        no_ip: { value: '${data.reseller_package.by_name.web_ipv4 == null}' }, // a null output is left out of `terraform output`
        records: { value: '${data.reseller_dns_records.legacy}' },
        www: { value: '${data.reseller_dns_records.www.records}' },
        srv: { value: '${data.reseller_dns_records.srv.records[0]}' },
        no_records: { value: '${data.reseller_dns_records.none.records}' },
      },
      check: {
        legacy_is_enabled: {
          assert: [{ condition: '${data.reseller_package.legacy.enabled && data.reseller_package.legacy.package_type == "Linux Unlimited"}', error_message: 'legacy.example.com is not an enabled Linux Unlimited package' }],
        },
        apex_points_at_site: {
          assert: [{
            condition: '${contains([for r in data.reseller_dns_records.legacy.records : r.value if r.name == "@" && r.type == "A"], data.reseller_package.legacy.web_ipv4)}',
            error_message: 'the apex A record of legacy.example.com is not the site\'s address',
          }],
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
      label: 'Legacy', stack_user: 'stack-user:989901', enabled: true, read_web_ipv4: true,
      names: ['legacy.example.com', 'legacy.example.net'], stack_users: ['stack-user:989901'], web_ipv4: ip,
    });
    // Without read_web_ipv4 the address is not read.
    expect(out.no_ip).toBe(true);
    expect(out).toMatchObject({
      same_by_name: 'legacy.example.com',
      same_by_id: 'legacy.example.com',
      dns_input: { ip, type_id: 812, mail_host: 'mx.stackmail.com' },
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
      limits: { domains: 5, webspace: 10240, bandwidth: null, mailboxes: 10, mysqlDatabases: 5, mailAutoresponders: 2, freeSsl: null, switchPhpVersion: 1 }, unlimited: ['bandwidth', 'freeSsl'],
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
      packages: ['oncloud.example.com'], brand_name: null, read_brand: true,
    });
    // A zone's records: the zone defaults to the package's primary domain (found by any of
    // its names); sorted by name, type, value; the SOA and NS records are not listed.
    const record = (name: string, type: string, value: string, more: Record<string, unknown> = {}) => ({
      name, fqdn: name === '@' ? 'legacy.example.com' : `${name}.legacy.example.com`, type, value, priority: null, weight: null, port: null, ref: expect.stringMatching(/^[0-9]+$/), ...more,
    });
    expect(out.records).toEqual({
      package: 'legacy.example.net', zone: 'legacy.example.com', name: null, type: null, package_domain: 'legacy.example.com',
      records: [
        record('@', 'A', ip), record('@', 'MX', 'mx.stackmail.com', { priority: 10 }), record('@', 'TXT', 'v=spf1 -all'), record('www', 'A', ip),
      ],
      values: [ip, 'mx.stackmail.com', 'v=spf1 -all', ip],
    });
    expect(out.www).toEqual([{ ...record('www', 'A', ip), fqdn: 'www.legacy.example.net' }]);
    expect(out.srv).toEqual({
      name: '_sip._tcp', fqdn: '_sip._tcp.legacy.example.net', type: 'SRV', value: 'sip.example.net', priority: 10, weight: 5, port: 5060, ref: expect.stringMatching(/^[0-9]+$/),
    });
    expect(out.no_records).toEqual([]);
    // A second plan with nothing changed is empty.
    expect((await run(['plan', '-detailed-exitcode'], [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it.each([
    ['reseller_package', { domain_name: 'legacy.exmaple.com' }, /reseller_package: package "legacy.exmaple.com" not found[\s\S]*domain_name "legacy.exmaple.com"[\s\S]*Closest existing: legacy.example.com/],
    ['reseller_package', { package_id: 424242 }, /reseller_package: package "424242" not found/],
    ['reseller_stack_user', { email: 'ownr@example.com' }, /reseller_stack_user: control-panel user "ownr@example.com" not found[\s\S]*Closest existing: owner@example.com/],
    ['reseller_mail_domain', { package: 'legacy.example.com', domain: 'legacy.example.org' }, /mail domain of package legacy.example.com "legacy.example.org" not found[\s\S]*Closest existing: legacy.example.com, legacy.example.net/],
    ['reseller_cloud_server', { host_name: 'web2.example.com' }, /reseller_cloud_server: cloud server "web2.example.com" not found[\s\S]*Closest existing: web1.example.com/],
    ['reseller_dns_records', { package: 'legacy.exmaple.com' }, /reseller_dns_records: package "legacy.exmaple.com" not found[\s\S]*package "legacy.exmaple.com"[\s\S]*Closest existing: legacy.example.com/],
    ['reseller_dns_records', { package: 'legacy.example.net', zone: 'legacy.example.org' }, /DNS zone of package legacy.example.com "legacy.example.org" not found[\s\S]*Closest existing: legacy.example.com, legacy.example.net/],
  ])('%s that does not exist fails the plan, naming the key and the closest names (%j)', async (type, args, message) => {
    write({ data: { [type]: { missing: args } } });
    const plan = await run(['plan'], [1]);
    const text = (plan.stdout + plan.stderr).replace(/\s+/g, ' '); // Terraform wraps long lines
    expect(text).toMatch(message);
    expect(text).toMatch(/with data\.\w+\.missing/);
  }, E2E_TIMEOUT_MS);

  it('rejects a record type it does not list at validation', async () => {
    write({ data: { reseller_dns_records: { soa: { package: 'legacy.example.com', type: 'SOA' } } } });
    const plan = await terraform(tf, ['validate', '-no-color'], dir, env(), [1]);
    expect((plan.stdout + plan.stderr).replace(/\s+/g, ' ')).toMatch(/reseller_dns_records: type must be one of A, AAAA, CNAME, MX, TXT, SRV, got "SOA"/);
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

  describe('request counts of a plan: one per list, one per mail domain, one DNS read per package', () => {
    const domains = Array.from({ length: 100 }, (_, i) => `bulk${i}.example.com`);
    const managed = {
      reseller_package: { managed: { domain_name: 'managed.example.com', package_type: 'Linux Unlimited' } },
      reseller_dns_record: { spf: { package: '${reseller_package.managed.domain_name}', name: '@', type: 'TXT', value: 'v=spf1 -all' } },
    };
    /** The plan's requests after an apply of `doc`, the log cleared between them. */
    const planRequests = async (doc: Doc): Promise<string[]> => {
      write(doc);
      await apply();
      await emu.control('DELETE', 'requests');
      expect((await run(['plan', '-detailed-exitcode'], [0, 2])).code).toBe(0);
      return requests();
    };
    const LISTS = ['GET /cloud_server', 'GET /package', 'GET /package/legacy.example.com/email/legacy.example.com', 'GET /reseller/*/packageTypes'];
    const detailReads = (reads: string[]) => reads.filter((r) => /^GET \/(package|cloud_server)\/[0-9]+$/.test(r));

    beforeAll(async () => {
      for (const d of domains) await api.packages.create({ type: 811, domainName: d, extraDomainNames: [] });
    }, E2E_TIMEOUT_MS);

    it('100 package data sources and a records data source beside managed resources: the lists once, no per-object read', async () => {
      const reads = await planRequests({
        locals: { domains },
        resource: managed,
        data: {
          reseller_package: { bulk: { count: 100, domain_name: '${local.domains[count.index]}' } },
          reseller_packages: { all: {} },
          reseller_mail_domain: { legacy: { package: 'legacy.example.com' } },
          reseller_cloud_server: { web1: { host_name: 'web1.example.com' } },
          // The zone the managed record refreshes from: one read serves both (depends_on: read
          // at the first apply, once the package exists; at plan time afterwards).
          reseller_dns_records: {
            managed: { package: 'managed.example.com', depends_on: ['reseller_package.managed'] },
            managed_txt: { package: 'managed.example.com', type: 'TXT', depends_on: ['reseller_dns_record.spf'] },
          },
        },
        output: { spf: { value: '${data.reseller_dns_records.managed_txt.values}' } },
      });
      expect(reads.filter((r) => r === 'GET /package')).toHaveLength(1);
      expect(detailReads(reads)).toEqual([]);
      expect(reads.sort()).toEqual([...LISTS, 'GET /package/managed.example.com/dns'].sort());
      expect((await outputs()).spf).toEqual(['v=spf1 -all']);
    }, E2E_TIMEOUT_MS);

    it('read_web_ipv4 and read_brand add one read per object that asks', async () => {
      const reads = await planRequests({
        locals: { domains },
        resource: managed,
        data: {
          reseller_package: { bulk: { count: 100, domain_name: '${local.domains[count.index]}', read_web_ipv4: '${count.index < 3}' } },
          reseller_mail_domain: { legacy: { package: 'legacy.example.com' } },
          reseller_cloud_server: { web1: { host_name: 'web1.example.com', read_brand: true } },
        },
        output: { ips: { value: '${[for p in data.reseller_package.bulk : p.web_ipv4 if p.web_ipv4 != null]}' } },
      });
      expect(reads.filter((r) => r === 'GET /package')).toHaveLength(1);
      const ids = (await api.packages.list()).filter((p) => ['bulk0.example.com', 'bulk1.example.com', 'bulk2.example.com'].includes(p.name)).map((p) => p.id);
      const server = (await api.cloudServers.list()).find((s) => s.name === 'web1.example.com')!;
      expect(detailReads(reads).sort()).toEqual([...ids.map((id) => `GET /package/${id}`), `GET /cloud_server/${server.id}`].sort());
      expect(reads.filter((r) => !detailReads([r]).length).sort()).toEqual([...LISTS, 'GET /package/managed.example.com/dns'].sort());
      expect((await outputs()).ips).toEqual([expect.stringMatching(/^[0-9.]+$/), expect.stringMatching(/^[0-9.]+$/), expect.stringMatching(/^[0-9.]+$/)]);
    }, E2E_TIMEOUT_MS);
  });
});
