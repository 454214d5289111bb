import { Testing, TerraformStack } from 'cdktf';
import { HostingPackage, ManagedObject, Mailbox, ResellerHosting, StackUser } from '../../src';
import { resources, synth, validationMessages } from './util';

/** ResellerHosting's `engine`: the one place the engine is chosen; `resourceType` is its deprecated alias. */
describe('engine', () => {
  test("engine 'null_resource' carries every object on null_resource, as resourceType did", () => {
    const { json } = synth((stack) => {
      const hosting = new ResellerHosting(stack, 'reseller', { engine: 'null_resource' });
      expect(hosting.engine).toBe('null_resource');
      expect(hosting.resourceType).toBe('null_resource');
      const site = new HostingPackage(stack, 'site', { domainName: 'engine.example.com', packageType: 'Linux Starter' });
      expect(site).toBeInstanceOf(ManagedObject);
      expect(site.objectId).toBe('${null_resource.site.id}');
    }, true, 'as-declared');
    expect(Object.keys(resources(json, 'null_resource')).sort()).toEqual(['site', 'site_settings']);
    expect(resources(json)).toEqual({});
  });

  test('the default is provider, for every kind, with or without a ResellerHosting', () => {
    for (const declare of [false, true]) {
      const { json } = synth((stack) => {
        if (declare) expect(new ResellerHosting(stack, 'reseller', {}).engine).toBe('provider');
        const owner = new StackUser(stack, 'owner', { email: 'o@example.com' });
        const site = new HostingPackage(stack, 'site', { domainName: 'engine.example.com', packageType: 1, stackUser: owner });
        new Mailbox(stack, 'info', { package: site, localPart: 'info' });
      }, true, 'as-declared');
      expect(resources(json)).toEqual({});
      expect(Object.keys(json.resource).sort()).toEqual(['reseller_mailbox', 'reseller_package', 'reseller_stack_user']);
    }
  });

  test("engine 'terraform_data' carries every kind on terraform_data", () => {
    const { json } = synth((stack) => {
      const owner = new StackUser(stack, 'owner', { email: 'o@example.com' });
      const site = new HostingPackage(stack, 'site', { domainName: 'engine.example.com', packageType: 1, stackUser: owner });
      new Mailbox(stack, 'info', { package: site, localPart: 'info' });
    }, true, 'terraform_data');
    expect(Object.keys(resources(json)).sort()).toEqual(['info', 'info_settings', 'owner', 'owner_settings', 'site', 'site_settings']);
  });

  test("engine 'provider' makes one reseller_* resource per construct (test/constructs/provider-engine.test.ts has the details)", () => {
    const { json } = synth((stack) => {
      new ResellerHosting(stack, 'reseller', { engine: 'provider' });
      const site = new HostingPackage(stack, 'site', { domainName: 'engine.example.com', packageType: 1 });
      expect(site.objectId).toBe('${reseller_package.site.id}');
    }, true, 'as-declared');
    expect(Object.keys(resources(json, 'reseller_package'))).toEqual(['site']);
    expect(resources(json)).toEqual({});
  });

  test('bad or contradicting engine settings name the field and the rule', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'MyStack');
    new ResellerHosting(stack, 'reseller', { engine: 'terraform_data', resourceType: 'null_resource' });
    expect(validationMessages(stack)).toEqual([
      'MyStack/reseller: resourceType (deprecated) says "null_resource" but engine says "terraform_data": set engine only',
    ]);
    const other = new TerraformStack(app, 'Other');
    new ResellerHosting(other, 'reseller', { engine: 'carrier-pigeon' as never });
    expect(validationMessages(other)).toEqual([
      'Other/reseller: engine must be one of "provider", "terraform_data", "null_resource", not "carrier-pigeon"',
    ]);
  });
});
