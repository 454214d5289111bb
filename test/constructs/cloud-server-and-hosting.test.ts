import { TerraformStack } from 'cdktf';
import { NullProvider } from '@cdktf/provider-null/lib/provider';
import { CloudProvider, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, ResellerHosting } from '../../src';
import { env, provisioner, resources, specOf, synth } from './util';

const server = (stack: TerraformStack, props: Partial<import('../../src').ManagedCloudServerProps> = {}) =>
  new ManagedCloudServer(stack, 'web1', {
    hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: 'stack-user:989901', ...props,
  });

describe('ManagedCloudServer', () => {
  test('defaults: identity is the host name, the unchangeable order fields are settings triggers', () => {
    const { json } = synth((stack) => {
      const s = server(stack, { hostName: 'WEB1.Example.com' });
      expect(s.hostName).toBe('web1.example.com');
      expect(s.isAbsent).toBe(false);
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['web1', 'web1_settings']);
    expect(r.web1.triggers_replace).toEqual({ kind: 'cloud-server', key: 'web1.example.com', placement: '', parent: '' });
    expect(specOf(r.web1)).toEqual({
      kind: 'cloud-server', path: 'MyStack/web1', hostName: 'web1.example.com', provider: 'native', spec: 'medium',
      zone: 'dc_location-uk', periodMonths: 1, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 30,
    });
    expect(r.web1_settings.triggers_replace).toEqual({
      object: '${terraform_data.web1.id}', provider: 'native', spec: 'medium', zone: 'dc_location-uk', branded: 'false',
    });
    expect(env(r.web1, 'delete')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
  });

  test('every option', () => {
    const { json } = synth((stack) => {
      server(stack, { periodMonths: 12, branded: true, timeoutMinutes: 45, forUser: { email: 'Owner@EXAMPLE.com' }, protect: true });
      new ManagedCloudServer(stack, 'aws1', {
        hostName: 'aws1.example.com', provider: CloudProvider.AWS, spec: '8x-large', zone: 'eu-west-2', forUser: 'stack-user:1', absent: true,
      });
    });
    const r = resources(json);
    expect(specOf(r.web1)).toMatchObject({ periodMonths: 12, branded: true, timeoutMinutes: 45, forUser: { email: 'Owner@example.com' } });
    expect(r.web1.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.web1_settings.lifecycle).toBeUndefined();
    expect(specOf(r.aws1)).toMatchObject({ provider: 'aws', spec: '8x-large', zone: 'eu-west-2' });
    expect([r.aws1.count, r.aws1_settings.count]).toEqual([0, 0]);
  });

  test('replacing a server replaces the packages on it, and their mail', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', cloudServer: server(stack) });
      new Mailbox(stack, 'info', { package: site, localPart: 'info' });
    });
    const r = resources(json);
    expect(r.site.triggers_replace.parent).toBe('${terraform_data.web1.id}');
    expect(r.info.triggers_replace.parent).toBe('${terraform_data.site.id}');
  });
});

describe('ResellerHosting', () => {
  test('apiUrl and resellerId reach every provisioner, the destroy-time one included', () => {
    const { json, stack } = synth((stack) => {
      new ResellerHosting(stack, 'reseller', { apiUrl: 'http://127.0.0.1:8080', resellerId: '1234' });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'PW' });
    });
    expect(ResellerHosting.of(stack)?.apiUrl).toBe('http://127.0.0.1:8080');
    const r = resources(json);
    for (const [id, command] of [['site', 'ensure'], ['site', 'delete'], ['site_settings', 'update'], ['info_password', 'set-password']]) {
      expect(env(r[id], command)).toMatchObject({ RESELLER_API_URL: 'http://127.0.0.1:8080', RESELLER_ID: '1234' });
    }
    expect(env(r.site, 'delete')).toEqual({
      RESELLER_SPEC: '${jsonencode(self.triggers_replace)}', RESELLER_API_URL: 'http://127.0.0.1:8080', RESELLER_ID: '1234',
    });
  });

  test('without it (or without apiUrl) no connection variables are set: the apply environment provides them', () => {
    const { json, stack } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
    });
    expect(ResellerHosting.of(stack)).toBeUndefined();
    const e = env(resources(json).site, 'ensure');
    expect(e.RESELLER_API_URL).toBeUndefined();
    expect(e.RESELLER_ID).toBeUndefined();
  });

  test('apiUrl applies even when ResellerHosting is declared after the constructs', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new ResellerHosting(stack, 'reseller', { apiUrl: 'https://api.example.com/v1' });
    });
    expect(env(resources(json).site, 'delete').RESELLER_API_URL).toBe('https://api.example.com/v1');
  });

  test("resourceType null_resource: null_resource carriers with triggers, and the null provider", () => {
    const { json } = synth((stack) => {
      const hosting = new ResellerHosting(stack, 'reseller', { resourceType: 'null_resource' });
      expect(hosting.nullProvider).toBeDefined();
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', protect: true });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'PW' });
      new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'x@example.org', absent: true });
      const s = new ManagedCloudServer(stack, 'web1', {
        hostName: 'web1.example.com', provider: CloudProvider.GCP, spec: 'small', zone: 'europe-west2', forUser: 'stack-user:1',
      });
      expect(s.objectResource.terraformResourceType).toBe('null_resource');
    });
    expect(json.resource.terraform_data).toBeUndefined();
    const r = resources(json, 'null_resource');
    expect(Object.keys(r).sort()).toEqual(['info', 'info_password', 'info_settings', 'sales', 'sales_settings', 'site', 'site_settings', 'web1', 'web1_settings']);
    expect(r.site.triggers).toEqual({ kind: 'package', key: 'example.com', placement: '', parent: '' });
    expect(r.site.triggers_replace).toBeUndefined();
    expect(r.site.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.site_settings.triggers.object).toBe('${null_resource.site.id}');
    expect(r.info.triggers.parent).toBe('${null_resource.site.id}');
    expect(r.info_password.triggers).toEqual({ object: '${null_resource.info.id}', passwordVersion: '1' });
    expect(provisioner(r.site, 'delete').environment.RESELLER_SPEC).toBe('${jsonencode(self.triggers)}');
    expect(r.sales.count).toBe(0);
    expect(json.provider.null).toBeDefined();
    expect(json.terraform.required_providers.null).toEqual({ source: 'null', version: '3.2.4' });
  });

  test('an existing null provider is reused, not declared twice', () => {
    const { json } = synth((stack) => {
      new NullProvider(stack, 'mine');
      const hosting = new ResellerHosting(stack, 'reseller', { resourceType: 'null_resource' });
      expect(hosting.nullProvider?.node.path).toBe('MyStack/mine');
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
    });
    expect(json.provider.null).toHaveLength(1);
  });
});
