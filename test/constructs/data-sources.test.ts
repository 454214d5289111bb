import { TerraformOutput } from 'cdktf';
import {
  CloudProvider, DataResellerCloudServer, DataResellerCloudServers, DataResellerCloudServerSpecs, DataResellerMailDomain,
  DataResellerDnsRecords, DataResellerPackage, DataResellerPackages, DataResellerPackageTypes, DataResellerStackUser, DataResellerStackUsers,
  Forwarder, HostingPackage, Mailbox, ManagedCloudServer,
} from '../../src';
import { dataSources } from '../../src/provider/data-sources';
import { dataSchemaMessageOf } from '../../src/provider/data-sources/handlers';
import { resources, synth } from './util';

/**
 * The data-source constructs: `data "reseller_*"` blocks with the provider schema's
 * argument names (checked against the provider's own schemas), and unmanaged
 * references read through one with the provider engine.
 */

/** Argument names the provider's schema declares per data source. */
const ARGUMENTS: Record<string, Set<string>> = Object.fromEntries(dataSources().map((s) => {
  const block = dataSchemaMessageOf(s).block;
  return [s.typeName, new Set((block.attributes ?? []).filter((a) => a.optional || a.required).map((a) => a.name))];
}));

const dataOf = (json: any, type: string): Record<string, Record<string, unknown>> => {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, body] of Object.entries(json.data?.[type] ?? {})) {
    const { '//': _metadata, ...rest } = body as Record<string, unknown>;
    out[name] = rest;
  }
  return out;
};

describe('data-source constructs', () => {
  test('each synthesizes its data block with the schema\'s snake_case arguments', () => {
    const { json } = synth((stack) => {
      const pkg = new DataResellerPackage(stack, 'legacy', { domainName: 'legacy.example.com', readWebIpv4: true });
      new DataResellerPackages(stack, 'starter', { packageType: 'Linux Starter', nameSuffix: '.org', stackUser: 'owner@example.com', cloudServer: 'web1.example.com' });
      const types = new DataResellerPackageTypes(stack, 'types', { platform: 'linux' });
      new DataResellerStackUser(stack, 'owner', { email: 'owner@example.com' });
      new DataResellerStackUsers(stack, 'users', { emailSuffix: '@example.org' });
      new DataResellerMailDomain(stack, 'mail', { package: 'legacy.example.com', domain: 'legacy.example.net' });
      new DataResellerCloudServer(stack, 'web1', { hostName: 'web1.example.com', readBrand: true });
      const mx = new DataResellerDnsRecords(stack, 'mx_records', { package: 'legacy.example.com', zone: 'legacy.example.net', name: '@', type: 'MX' });
      new TerraformOutput(stack, 'mx', { value: mx.values });
      new DataResellerCloudServers(stack, 'servers', { cloudProvider: CloudProvider.AWS, zone: 'eu-west-1' });
      const specs = new DataResellerCloudServerSpecs(stack, 'specs', { cloudProvider: CloudProvider.NATIVE, minCpu: 4, minRamGb: 8, minDiskGb: 100 });
      new TerraformOutput(stack, 'ip', { value: pkg.webIpv4 });
      new TerraformOutput(stack, 'starter_id', { value: types.idOf('Linux Starter') });
      new TerraformOutput(stack, 'size', { value: specs.smallest });
    });
    expect(dataOf(json, 'reseller_package')).toEqual({ legacy: { domain_name: 'legacy.example.com', read_web_ipv4: true } });
    expect(dataOf(json, 'reseller_cloud_server').web1).toEqual({ host_name: 'web1.example.com', read_brand: true });
    expect(dataOf(json, 'reseller_dns_records').mx_records).toEqual({ package: 'legacy.example.com', zone: 'legacy.example.net', name: '@', type: 'MX' });
    expect(json.output.mx.value).toBe('${data.reseller_dns_records.mx_records.values}');
    expect(dataOf(json, 'reseller_packages').starter).toEqual({ package_type: 'Linux Starter', name_suffix: '.org', stack_user: 'owner@example.com', cloud_server: 'web1.example.com' });
    expect(dataOf(json, 'reseller_mail_domain').mail).toEqual({ package: 'legacy.example.com', domain: 'legacy.example.net' });
    expect(dataOf(json, 'reseller_cloud_server_specs').specs).toEqual({ cloud_provider: 'native', min_cpu: 4, min_ram_gb: 8, min_disk_gb: 100 });
    for (const [type, blocks] of Object.entries(json.data as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const body of Object.values(blocks)) {
        for (const name of Object.keys(body).filter((k) => k !== '//')) expect([type, name, ARGUMENTS[type]?.has(name)]).toEqual([type, name, true]);
      }
    }
    expect(json.output.ip.value).toBe('${data.reseller_package.legacy.web_ipv4}');
    expect(json.output.starter_id.value).toBe('${data.reseller_package_types.types.ids_by_name["Linux Starter"]}');
    expect(json.output.size.value).toBe('${data.reseller_cloud_server_specs.specs.specs[0].spec}');
    expect(json.provider.reseller).toBeDefined(); // the provider block comes with the first data source
  });

  test('a singular data source needs exactly one look-up key', () => {
    expect(() => synth((stack) => new DataResellerPackage(stack, 'x', {}))).toThrow(/MyStack\/x: give exactly one of domainName, name, packageId/);
    expect(() => synth((stack) => new DataResellerStackUser(stack, 'u', { email: 'a@example.com', userRef: 'stack-user:1' })))
      .toThrow(/give exactly one of email, userRef \(given: email, userRef\)/);
  });

  test("with the provider engine, fromDomainName and fromHostName read through a data source that the objects on them refer to", () => {
    const { json } = synth((stack) => {
      const legacy = HostingPackage.fromDomainName(stack, 'legacy', 'Legacy.Example.com');
      new Mailbox(stack, 'info', { package: legacy, localPart: 'info', send: true });
      const old = ManagedCloudServer.fromHostName(stack, 'old', 'old.example.com');
      new HostingPackage(stack, 'app', { domainName: 'app.example.com', cloudServer: old });
    }, true, 'provider');
    const [pkgName, pkgBody] = Object.entries(dataOf(json, 'reseller_package'))[0];
    expect(pkgBody).toEqual({ domain_name: 'legacy.example.com' });
    expect(resources(json, 'reseller_mailbox').info.package).toBe(`\${data.reseller_package.${pkgName}.domain_name}`);
    const [serverName] = Object.keys(dataOf(json, 'reseller_cloud_server'));
    expect(resources(json, 'reseller_package').app.cloud_server).toBe(`\${data.reseller_cloud_server.${serverName}.host_name}`);
  });

  test('a reference to a package the same stack manages (declared before or after) is that resource: no read, children refer to it', () => {
    const { json } = synth((stack) => {
      const ref = HostingPackage.fromDomainName(stack, 'ref', 'both.example.com');
      new Forwarder(stack, 'sales', { package: ref, localPart: 'sales', remote: 'team@example.org' });
      new HostingPackage(stack, 'both', { domainName: 'both.example.com', packageType: 'Linux Starter' });
      HostingPackage.fromDomainName(stack, 'other', 'other.example.com');
    }, true, 'provider');
    const blocks = Object.values(dataOf(json, 'reseller_package'));
    expect(blocks.find((b) => b.domain_name === 'both.example.com')!.count).toBe(0);
    expect(blocks.find((b) => b.domain_name === 'other.example.com')!.count).toBeUndefined();
    expect(resources(json, 'reseller_forwarder').sales.package).toBe('${reseller_package.both.domain_name}');
  });

  test('with the carriers, a reference synthesizes nothing (no provider to read at plan time)', () => {
    const { json } = synth((stack) => {
      const legacy = HostingPackage.fromDomainName(stack, 'legacy', 'legacy.example.com');
      new Mailbox(stack, 'info', { package: legacy, localPart: 'info', passwordEnv: 'PW' });
    }, true, 'terraform_data');
    expect(json.data).toBeUndefined();
  });
});
