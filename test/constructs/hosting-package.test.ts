import * as fs from 'node:fs';
import * as path from 'node:path';
import { Token } from 'cdktf';
import { NullProvider } from '@cdktf/provider-null/lib/provider';
import { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { Construct } from 'constructs';
import { CloudProvider, HostingPackage, ManagedCloudServer } from '../../src';
import { commands, env, HANDLER, provisioner, resources, specOf, stackDir, synth } from './util';

describe('HostingPackage', () => {
  test('defaults: an object and a settings resource, identity vs mutable triggers, handler provisioners', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'Linux Unlimited' });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['site', 'site_settings']);
    expect(json.provider).toBeUndefined();

    // The object only holds the identity and deletes on destroy: no create-time process.
    const object = r.site;
    expect(object.triggers_replace).toEqual({ kind: 'package', key: 'example.com', placement: '', parent: '' });
    expect(object.count).toBeUndefined();
    expect(object.lifecycle).toBeUndefined();
    expect(object.input).toBeUndefined();
    expect(object.depends_on).toBeUndefined();
    expect(commands(object)).toEqual(['delete (destroy)']);
    const destroy = provisioner(object, 'delete');
    expect(destroy.interpreter[0]).toBe('node');
    expect(destroy.interpreter[2]).toBe('handler');
    expect(destroy.environment).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });

    // The settings resource runs the one create-time process: ensure, with the full spec.
    const settings = r.site_settings;
    expect(settings.triggers_replace).toEqual({
      object: '${terraform_data.site.id}',
      extraDomainNames: '[]',
      packageType: 'Linux Unlimited',
      label: '',
      stackUser: 'null',
      enabled: 'true',
    });
    expect(commands(settings)).toEqual(['ensure']); // no retire-settings: nothing to carry over for a package
    const ensure = provisioner(settings, 'ensure');
    expect(ensure.interpreter).toEqual(destroy.interpreter);
    expect(ensure.environment).toEqual({
      RESELLER_SPEC: JSON.stringify(specOf(settings)),
      RESELLER_OBJECT_ID: '${terraform_data.site.id}',
    });
    expect(specOf(settings)).toEqual({
      kind: 'package',
      path: 'MyStack/site',
      domainName: 'example.com',
      extraDomainNames: [],
      packageType: 'Linux Unlimited',
      documentRoots: {},
      enabled: true,
    });
    expect(settings.count).toBeUndefined();
    expect(settings.depends_on).toBeUndefined(); // no parent
    expect(JSON.stringify(json)).not.toMatch(/"(update|set-password)"/);
  });

  test('every option: canonical names in the spec, one settings trigger per mutable field', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', {
        domainName: 'Bücher.Example.COM.',
        extraDomainNames: ['WWW.example.net', 'b.example.org'],
        packageType: 812,
        label: 'Example Ltd',
        documentRoots: { 'www.EXAMPLE.net': 'public_html/net' },
        stackUser: { email: 'Owner@Example.COM' },
        enabled: false,
      });
    });
    const r = resources(json);
    expect(r.site.triggers_replace.key).toBe('xn--bcher-kva.example.com');
    expect(specOf(r.site_settings)).toEqual({
      kind: 'package',
      path: 'MyStack/site',
      domainName: 'xn--bcher-kva.example.com',
      extraDomainNames: ['www.example.net', 'b.example.org'],
      packageType: 812,
      label: 'Example Ltd',
      documentRoots: { 'www.example.net': 'public_html/net' },
      stackUser: { email: 'Owner@example.com' },
      enabled: false,
    });
    expect(r.site_settings.triggers_replace).toEqual({
      object: '${terraform_data.site.id}',
      extraDomainNames: '["b.example.org","www.example.net"]',
      packageType: '812',
      label: 'Example Ltd',
      stackUser: '{"email":"Owner@example.com"}',
      enabled: 'false',
    });
  });

  test('exposes canonical names, the object id and its resources (for dependsOn)', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'EXAMPLE.com', extraDomainNames: ['Example.NET'], packageType: 'x' });
      expect(site.domainName).toBe('example.com');
      expect(site.domainNames).toEqual(['example.com', 'example.net']);
      expect(site.isAbsent).toBe(false);
      expect(site.logicalId).toBe('site');
      // A plain Terraform expression, not a cdktf token (no token is created at synth).
      expect(site.objectId).toBe('${terraform_data.site.id}');
      expect(Token.isUnresolved(site.objectId)).toBe(false);
      // What a user's own resource depends on: the settings resource runs ensure (creates the package).
      new NullProvider(stack, 'null');
      new NullResource(stack, 'after_site', { dependsOn: [site.settingsResource] });
      new NullResource(stack, 'after_object', { dependsOn: [site.objectResource] });
    });
    expect(resources(json, 'null_resource').after_site.depends_on).toEqual(['terraform_data.site_settings']);
    expect(resources(json, 'null_resource').after_object.depends_on).toEqual(['terraform_data.site']);
  });

  test('the handler path is relative to the stack working directory and resolves to bin/reseller-hosting.js', () => {
    const { app, json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
    });
    const r = resources(json);
    const handler: string = provisioner(r.site_settings, 'ensure').interpreter[1];
    expect(provisioner(r.site, 'delete').interpreter[1]).toBe(handler);
    expect(path.isAbsolute(handler)).toBe(false);
    expect(handler).not.toContain('\\');
    expect(handler.endsWith('bin/reseller-hosting.js')).toBe(true);
    expect(path.resolve(stackDir(app), handler)).toBe(HANDLER);
    expect(fs.existsSync(HANDLER)).toBe(true);
  });

  test('logical ids are the id path below the stack joined with _', () => {
    const { json } = synth((stack) => {
      const group = new Construct(stack, 'customers');
      const acme = new Construct(group, 'acme');
      new HostingPackage(acme, 'site', { domainName: 'example.com', packageType: 'x' });
    });
    expect(Object.keys(resources(json)).sort()).toEqual(['customers_acme_site', 'customers_acme_site_settings']);
    expect(specOf(resources(json).customers_acme_site_settings).path).toBe('MyStack/customers/acme/site');
  });

  test("on a managed cloud server: placement is its host name, parent its object id; its settings depend on the server's", () => {
    const { json } = synth((stack) => {
      const server = new ManagedCloudServer(stack, 'web1', {
        hostName: 'Web1.Example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: 'stack-user:1',
      });
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', cloudServer: server });
    });
    const r = resources(json);
    expect(r.site.triggers_replace).toEqual({ kind: 'package', key: 'example.com', placement: 'web1.example.com', parent: '${terraform_data.web1.id}' });
    expect(specOf(r.site_settings).cloudServer).toBe('web1.example.com');
    // The server's ensure (which orders it) runs before the package's; ordering only.
    expect(r.site_settings.depends_on).toEqual(['terraform_data.web1_settings']);
    expect(r.site.depends_on).toBeUndefined();
    expect(r.site_settings.triggers_replace).not.toHaveProperty('parent');
    expect(JSON.stringify(r.site_settings.triggers_replace)).not.toContain('web1_settings');
  });

  test('on an existing server (fromHostName): placement only, no parent, nothing synthesized for the server', () => {
    const { json } = synth((stack) => {
      const old = ManagedCloudServer.fromHostName(stack, 'old', 'OLD.example.com');
      expect(old.objectId).toBeUndefined();
      expect(old.hostName).toBe('old.example.com');
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', cloudServer: old });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['site', 'site_settings']);
    expect(r.site.triggers_replace).toEqual({ kind: 'package', key: 'example.com', placement: 'old.example.com', parent: '' });
    expect(r.site_settings.depends_on).toBeUndefined();
  });

  test('fromDomainName is a reference that synthesizes nothing', () => {
    const { json } = synth((stack) => {
      const legacy = HostingPackage.fromDomainName(stack, 'legacy', 'Legacy.Example.com');
      expect(legacy.domainName).toBe('legacy.example.com');
      expect(legacy.objectId).toBeUndefined();
      expect(legacy.domainNames).toBeUndefined();
      expect(legacy.isAbsent).toBe(false);
    });
    expect(json.resource ?? {}).toEqual({});
  });

  test('absent: count = 0 on every resource, and the settings resource does not reference the counted object', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', absent: true });
    });
    const r = resources(json);
    expect(r.site.count).toBe(0);
    expect(r.site_settings.count).toBe(0);
    expect(r.site_settings.triggers_replace.object).toBe('');
    expect(env(r.site_settings, 'ensure').RESELLER_OBJECT_ID).toBe('');
    // the destroy-time provisioner is still there: it is what deletes the package
    expect(provisioner(r.site, 'delete').when).toBe('destroy');
    expect(JSON.stringify(json)).not.toContain('terraform_data.site.id');
  });

  test('protect: prevent_destroy on the object resource only; never create_before_destroy', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', protect: true });
    });
    const r = resources(json);
    expect(r.site.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.site_settings.lifecycle).toBeUndefined();
    expect(JSON.stringify(json)).not.toContain('create_before_destroy');
  });

  test('literal ${ and %{ in values are escaped so Terraform does not evaluate them', () => {
    const { json } = synth((stack) => {
      new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x', label: 'Cost ${price} %{if}' });
    });
    const r = resources(json);
    expect(r.site_settings.triggers_replace.label).toBe('Cost $${price} %%{if}');
    expect(env(r.site_settings, 'ensure').RESELLER_SPEC).toContain('"label":"Cost $${price} %%{if}"');
  });
});

describe('the construct tree', () => {
  test('a construct removed from the tree (node.tryRemoveChild) synthesizes nothing, as any cdktf construct', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new HostingPackage(stack, 'gone', { domainName: 'gone.example.com', packageType: 'x' });
      expect(stack.node.tryRemoveChild('gone')).toBe(true);
      expect(site.node.path).toBe('MyStack/site');
    });
    expect(Object.keys(resources(json)).sort()).toEqual(['site', 'site_settings']);
  });
});
