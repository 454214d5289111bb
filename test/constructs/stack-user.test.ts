import { TerraformVariable } from 'cdktf';
import { CloudProvider, HostingPackage, ManagedCloudServer, StackUser } from '../../src';
import { resources, specOf, synth, validationMessages } from './util';
import { Testing } from 'cdktf';
import { TerraformStack } from 'cdktf';

/** StackUser: what it synthesizes, and how packages and servers refer to it. */
describe('StackUser', () => {
  test('synthesizes an object (identity: the lowercase e-mail) and a settings resource that ensures it', () => {
    const { json } = synth((stack) => new StackUser(stack, 'owner', { email: 'Alex.Owner@EXAMPLE.com', personName: 'Alex Owner' }));
    const all = resources(json);
    expect(all.owner.triggers_replace).toEqual({ kind: 'stack-user', key: 'alex.owner@example.com', placement: '', parent: '' });
    expect(specOf(all.owner_settings)).toEqual({ kind: 'stack-user', path: 'MyStack/owner', email: 'Alex.Owner@example.com', personName: 'Alex Owner' });
    expect(all.owner_settings.triggers_replace).toMatchObject({ personName: '"Alex Owner"' });
  });

  test('a package and a server referring to it wait for its ensure and name it by e-mail', () => {
    const { json } = synth((stack) => {
      const owner = new StackUser(stack, 'owner', { email: 'owner2@example.com' });
      const web = new ManagedCloudServer(stack, 'web', {
        hostName: 'web.example.com', provider: CloudProvider.NATIVE, spec: 'small', zone: 'dc_location-uk', forUser: owner,
      });
      new HostingPackage(stack, 'site', { domainName: 'site.example.com', packageType: 'Linux Starter', stackUser: owner });
      new HostingPackage(stack, 'app', { domainName: 'app.example.com', cloudServer: web }); // no packageType on a server
    });
    const all = resources(json);
    expect(specOf(all.site_settings).stackUser).toEqual({ email: 'owner2@example.com' });
    expect(specOf(all.web_settings).forUser).toEqual({ email: 'owner2@example.com' });
    expect(all.site_settings.depends_on).toEqual(['terraform_data.owner_settings']);
    expect(all.web_settings.depends_on).toEqual(['terraform_data.owner_settings']);
    // ...and are deleted before it (destroy runs in reverse order of dependencies).
    expect(all.site.depends_on).toEqual(['terraform_data.owner']);
    expect(specOf(all.app_settings).packageType).toBeUndefined();
  });

  test('bad values name the path, the field and the rule; a duplicate e-mail is refused', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'MyStack');
    new StackUser(stack, 'bad', { email: 'not-an-email', personName: 'x'.repeat(300) });
    new StackUser(stack, 'one', { email: 'same@example.com' });
    new StackUser(stack, 'two', { email: 'SAME@example.com' });
    const messages = validationMessages(stack);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^MyStack\/bad: email "not-an-email" is not an e-mail address/),
      'MyStack/bad: personName is 300 characters long; at most 255 are allowed',
      expect.stringMatching(/^MyStack\/two: email "same@example.com" is already declared by stack user MyStack\/one/),
    ]));
  });

  test('an absent user cannot stay referred to by a present package', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'MyStack');
    const owner = new StackUser(stack, 'owner', { email: 'gone@example.com', absent: true });
    new HostingPackage(stack, 'site', { domainName: 'site.example.com', packageType: 1, stackUser: owner });
    expect(validationMessages(stack)).toEqual([
      'MyStack/site: stackUser MyStack/owner is absent, so this object must be absent too (set absent: true), or refer to another user',
    ]);
  });

  test('a token e-mail is checked at apply time, not at synth', () => {
    const { json } = synth((stack) => {
      const email = new TerraformVariable(stack, 'email', { type: 'string' });
      new StackUser(stack, 'owner', { email: email.stringValue });
    });
    expect(resources(json).owner_settings).toBeDefined();
  });
});
