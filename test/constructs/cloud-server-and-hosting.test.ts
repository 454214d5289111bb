import { TerraformStack } from 'cdktf';
import { NullProvider } from '@cdktf/provider-null/lib/provider';
import { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { CloudProvider, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, ResellerHosting } from '../../src';
import { commands, env, provisioner, resources, specOf, synth } from './util';

const server = (stack: TerraformStack, props: Partial<import('../../src').ManagedCloudServerProps> = {}) =>
  new ManagedCloudServer(stack, 'web1', {
    hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: 'stack-user:989901', ...props,
  });

describe('ManagedCloudServer', () => {
  test('defaults: identity is the host name, the order fields are settings triggers, retire-settings on the settings', () => {
    const { json } = synth((stack) => {
      const s = server(stack, { hostName: 'WEB1.Example.com' });
      expect(s.hostName).toBe('web1.example.com');
      expect(s.isAbsent).toBe(false);
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['web1', 'web1_settings']);
    expect(r.web1.triggers_replace).toEqual({ kind: 'cloud-server', key: 'web1.example.com', placement: '', parent: '' });
    const spec = {
      kind: 'cloud-server', path: 'MyStack/web1', hostName: 'web1.example.com', provider: 'native', spec: 'medium',
      zone: 'dc_location-uk', periodMonths: 1, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 30,
    };
    expect(specOf(r.web1_settings)).toEqual(spec);
    expect(r.web1_settings.triggers_replace).toEqual({
      object: '${terraform_data.web1.id}', provider: 'native', spec: 'medium', zone: 'dc_location-uk', branded: 'false',
    });
    expect(commands(r.web1)).toEqual(['delete (destroy)']);
    expect(env(r.web1, 'delete')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    // ensure orders the server; on a settings change retire-settings tells it the server
    // existed, so a server missing then is reported instead of ordered (and charged) again
    expect(commands(r.web1_settings)).toEqual(['ensure', 'retire-settings (destroy)']);
    expect(env(r.web1_settings, 'ensure')).toEqual({ RESELLER_SPEC: JSON.stringify(spec), RESELLER_OBJECT_ID: '${terraform_data.web1.id}' });
    expect(env(r.web1_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(r.web1_settings.depends_on).toBeUndefined();
  });

  test('every option', () => {
    const { json } = synth((stack) => {
      server(stack, { periodMonths: 12, branded: true, timeoutMinutes: 45, forUser: { email: 'Owner@EXAMPLE.com' }, protect: true });
      new ManagedCloudServer(stack, 'aws1', {
        hostName: 'aws1.example.com', provider: CloudProvider.AWS, spec: '8x-large', zone: 'eu-west-2', forUser: 'stack-user:1', absent: true,
      });
    });
    const r = resources(json);
    expect(specOf(r.web1_settings)).toMatchObject({ periodMonths: 12, branded: true, timeoutMinutes: 45, forUser: { email: 'Owner@example.com' } });
    expect(r.web1.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.web1_settings.lifecycle).toBeUndefined();
    expect(specOf(r.aws1_settings)).toMatchObject({ provider: 'aws', spec: '8x-large', zone: 'eu-west-2' });
    expect([r.aws1.count, r.aws1_settings.count]).toEqual([0, 0]);
  });

  test('replacing a server replaces the packages on it, and their mail; each ensure runs after its parent\'s', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', cloudServer: server(stack) });
      new Mailbox(stack, 'info', { package: site, localPart: 'info' });
    });
    const r = resources(json);
    expect(r.site.triggers_replace.parent).toBe('${terraform_data.web1.id}');
    expect(r.info.triggers_replace.parent).toBe('${terraform_data.site.id}');
    expect(r.site_settings.depends_on).toEqual(['terraform_data.web1_settings']);
    expect(r.info_settings.depends_on).toEqual(['terraform_data.site_settings']);
    expect(r.web1_settings.depends_on).toBeUndefined();
  });

  test('an absent server is not depended on by the (absent) package on it', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', cloudServer: server(stack, { absent: true }), absent: true });
    });
    const r = resources(json);
    expect(r.site.triggers_replace.parent).toBe('');
    expect(r.site_settings.depends_on).toBeUndefined();
  });
});

describe('ResellerHosting', () => {
  test('apiUrl and resellerId reach ensure and delete; retire-settings needs no connection and gets none', () => {
    const { json, stack } = synth((stack) => {
      new ResellerHosting(stack, 'reseller', { engine: 'terraform_data', apiUrl: 'http://127.0.0.1:8080', resellerId: '1234' });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'PW' });
      server(stack);
    }, true, 'as-declared');
    expect(ResellerHosting.of(stack)?.apiUrl).toBe('http://127.0.0.1:8080');
    const r = resources(json);
    for (const [id, command] of [['site', 'delete'], ['site_settings', 'ensure'], ['info', 'delete'], ['info_settings', 'ensure'], ['web1', 'delete'], ['web1_settings', 'ensure']]) {
      expect(env(r[id], command)).toMatchObject({ RESELLER_API_URL: 'http://127.0.0.1:8080', RESELLER_ID: '1234' });
    }
    expect(env(r.site, 'delete')).toEqual({
      RESELLER_SPEC: '${jsonencode(self.triggers_replace)}', RESELLER_API_URL: 'http://127.0.0.1:8080', RESELLER_ID: '1234',
    });
    expect(env(r.info_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(env(r.web1_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
  });

  test('without apiUrl no connection variables are set: the apply environment provides them', () => {
    const { json, stack } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
    });
    expect(ResellerHosting.of(stack)?.apiUrl).toBeUndefined();
    const r = resources(json);
    for (const e of [env(r.site_settings, 'ensure'), env(r.site, 'delete')]) {
      expect(e.RESELLER_API_URL).toBeUndefined();
      expect(e.RESELLER_ID).toBeUndefined();
    }
  });

  test('apiUrl and resellerId apply even when ResellerHosting is declared after the constructs (engine provider: the provider block)', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info' });
      new ResellerHosting(stack, 'reseller', { apiUrl: 'https://api.example.com/v1', resellerId: '77' });
      new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'x@example.org' }); // and after it
    }, true, 'as-declared');
    expect(json.provider.reseller).toEqual([{ api_url: 'https://api.example.com/v1', reseller_id: '77' }]);
    expect(Object.keys(resources(json, 'reseller_mailbox'))).toEqual(['info']);
    expect(Object.keys(resources(json, 'reseller_forwarder'))).toEqual(['sales']);
  });

  test("resourceType null_resource: null_resource carriers with triggers, self.triggers, and the null provider", () => {
    const { json } = synth((stack) => {
      const hosting = new ResellerHosting(stack, 'reseller', { resourceType: 'null_resource' });
      expect(hosting.nullProvider).toBeDefined();
      const s = new ManagedCloudServer(stack, 'web1', {
        hostName: 'web1.example.com', provider: CloudProvider.GCP, spec: 'small', zone: 'europe-west2', forUser: 'stack-user:1',
      });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', protect: true, cloudServer: s });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'PW' });
      new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'x@example.org', absent: true });
      expect(site.objectId).toBe('${null_resource.site.id}');
      new NullResource(stack, 'after', { dependsOn: [s.settingsResource, s.objectResource] });
    }, true, 'as-declared');
    expect(json.resource.terraform_data).toBeUndefined();
    const r = resources(json, 'null_resource');
    expect(Object.keys(r).sort()).toEqual(['after', 'info', 'info_settings', 'sales', 'sales_settings', 'site', 'site_settings', 'web1', 'web1_settings']);
    expect(r.after.depends_on).toEqual(['null_resource.web1_settings', 'null_resource.web1']);
    expect(r.site.triggers).toEqual({ kind: 'package', key: 'example.com', placement: 'web1.example.com', parent: '${null_resource.web1.id}' });
    expect(r.site.triggers_replace).toBeUndefined();
    expect(r.site.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.site_settings.triggers.object).toBe('${null_resource.site.id}');
    expect(env(r.site_settings, 'ensure').RESELLER_OBJECT_ID).toBe('${null_resource.site.id}');
    expect(r.info.triggers.parent).toBe('${null_resource.site.id}');
    expect(r.info_settings.triggers).toEqual({ object: '${null_resource.info.id}', send: 'true', receive: 'true', passwordVersion: '1' });
    expect(r.info_settings.depends_on).toEqual(['null_resource.site_settings']);
    expect(r.site_settings.depends_on).toEqual(['null_resource.web1_settings']);
    for (const id of ['site', 'info', 'web1']) expect(env(r[id], 'delete').RESELLER_SPEC).toBe('${jsonencode(self.triggers)}');
    expect(env(r.info_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers)}' });
    expect(env(r.web1_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers)}' });
    expect(JSON.stringify(json)).not.toContain('triggers_replace');
    expect(JSON.stringify(json)).not.toContain('terraform_data');
    expect([r.sales.count, r.sales_settings.count]).toEqual([0, 0]);
    expect(json.provider.null).toBeDefined();
    expect(json.terraform.required_providers.null).toEqual({ source: 'null', version: '3.2.4' });
  });

  test('an existing null provider is reused, not declared twice', () => {
    const { json } = synth((stack) => {
      new NullProvider(stack, 'mine');
      const hosting = new ResellerHosting(stack, 'reseller', { resourceType: 'null_resource' });
      expect(hosting.nullProvider?.node.path).toBe('MyStack/mine');
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
    }, true, 'as-declared');
    expect(json.provider.null).toHaveLength(1);
  });
});
