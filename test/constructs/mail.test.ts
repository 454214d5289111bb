import { TerraformVariable } from 'cdktf';
import { Forwarder, HostingPackage, Mailbox } from '../../src';
import { commands, env, provisioner, resources, specOf, synth } from './util';

const site = (stack: import('cdktf').TerraformStack, props: Partial<import('../../src').HostingPackageProps> = {}) =>
  new HostingPackage(stack, 'site', { domainName: 'example.com', extraDomainNames: ['example.net'], packageType: 'x', ...props });

describe('Mailbox', () => {
  test('with a sensitive variable password: object and settings resources; the password version is a settings trigger', () => {
    const { json } = synth((stack) => {
      const pw = new TerraformVariable(stack, 'info_password', { type: 'string', sensitive: true });
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'Info', password: pw.value });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_settings', 'site', 'site_settings']);

    expect(r.info.triggers_replace).toEqual({
      kind: 'mailbox', key: 'info@example.com', placement: 'example.com', parent: '${terraform_data.site.id}',
    });
    expect(commands(r.info)).toEqual(['delete (destroy)']);
    expect(env(r.info, 'delete')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(r.info.depends_on).toBeUndefined();

    const spec = {
      kind: 'mailbox', path: 'MyStack/info', packageDomain: 'example.com', domain: 'example.com', localPart: 'info',
      send: true, receive: true, passwordVersion: 1,
    };
    expect(r.info_settings.triggers_replace).toEqual({ object: '${terraform_data.info.id}', send: 'true', receive: 'true', passwordVersion: '1' });
    // ensure on create; on replacement, retire-settings first tells it the outgoing password version
    expect(commands(r.info_settings)).toEqual(['ensure', 'retire-settings (destroy)']);
    expect(specOf(r.info_settings)).toEqual(spec);
    expect(env(r.info_settings, 'ensure')).toEqual({
      RESELLER_SPEC: JSON.stringify(spec),
      RESELLER_OBJECT_ID: '${terraform_data.info.id}',
      RESELLER_MAILBOX_PASSWORD: '${var.info_password}',
    });
    // destroy-time: only self, no connection settings, no password
    expect(env(r.info_settings, 'retire-settings')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(provisioner(r.info_settings, 'retire-settings').interpreter).toEqual(provisioner(r.info, 'delete').interpreter);
    // the package's ensure creates the domain the mailbox lives on: it runs first
    expect(r.info_settings.depends_on).toEqual(['terraform_data.site_settings']);
  });

  test('without a password: no passwordVersion anywhere, no retire-settings', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', send: false });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_settings', 'site', 'site_settings']);
    expect(specOf(r.info_settings)).toEqual({
      kind: 'mailbox', path: 'MyStack/info', packageDomain: 'example.com', domain: 'example.com', localPart: 'info', send: false, receive: true,
    });
    expect(env(r.info_settings, 'ensure').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(r.info_settings.triggers_replace).toEqual({ object: '${terraform_data.info.id}', send: 'false', receive: 'true' });
    expect(commands(r.info_settings)).toEqual(['ensure']);
  });

  test('passwordEnv and passwordVersion: the handler reads the named variable; the version is a settings trigger', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', passwordEnv: 'INFO_PASSWORD', passwordVersion: 3 });
    });
    const r = resources(json);
    expect(specOf(r.info_settings)).toMatchObject({ passwordEnv: 'INFO_PASSWORD', passwordVersion: 3 });
    expect(r.info_settings.triggers_replace).toEqual({ object: '${terraform_data.info.id}', send: 'true', receive: 'true', passwordVersion: '3' });
    expect(env(r.info_settings, 'ensure').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(commands(r.info_settings)).toEqual(['ensure', 'retire-settings (destroy)']);
    expect(r.info_password).toBeUndefined();
  });

  test('there is no password resource any more: its old name is free for another construct', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack);
      const info = new Mailbox(stack, 'info', { package: pkg, localPart: 'info', passwordEnv: 'PW' });
      expect((info as unknown as Record<string, unknown>).passwordResource).toBeUndefined();
      new Forwarder(stack, 'info_password', { package: pkg, localPart: 'pw', remote: 'x@example.org' });
    });
    expect(Object.keys(resources(json)).sort()).toEqual(['info', 'info_password', 'info_password_settings', 'info_settings', 'site', 'site_settings']);
    expect(resources(json).info_password.triggers_replace.kind).toBe('forwarder');
  });

  test('on an extra domain of the package: key on that domain, placement the package primary', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', domain: 'EXAMPLE.net' });
    });
    const r = resources(json);
    expect(r.info.triggers_replace).toMatchObject({ key: 'info@example.net', placement: 'example.com' });
    expect(specOf(r.info_settings)).toMatchObject({ domain: 'example.net', packageDomain: 'example.com' });
  });

  test('on a referenced package: no parent id, no depends_on, nothing synthesized for the reference', () => {
    const { json } = synth((stack) => {
      const legacy = HostingPackage.fromDomainName(stack, 'legacy', 'legacy.example.com');
      new Mailbox(stack, 'info', { package: legacy, localPart: 'info' });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_settings']);
    expect(r.info.triggers_replace).toEqual({ kind: 'mailbox', key: 'info@legacy.example.com', placement: 'legacy.example.com', parent: '' });
    expect(r.info_settings.depends_on).toBeUndefined();
  });

  test('absent: count = 0 on both resources; an absent parent is neither referenced nor depended on', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack, { absent: true });
      new Mailbox(stack, 'info', { package: pkg, localPart: 'info', passwordEnv: 'PW', absent: true });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_settings', 'site', 'site_settings']);
    for (const id of ['site', 'site_settings', 'info', 'info_settings']) expect(r[id].count).toBe(0);
    expect(r.info.triggers_replace.parent).toBe('');
    expect(r.info_settings.triggers_replace.object).toBe('');
    expect(r.info_settings.triggers_replace.passwordVersion).toBe('1');
    expect(env(r.info_settings, 'ensure').RESELLER_OBJECT_ID).toBe('');
    expect(r.info_settings.depends_on).toBeUndefined();
    // counted resources may only be referenced with an index: nothing references them
    expect(JSON.stringify(json)).not.toMatch(/terraform_data\.(site|info)(_settings)?[."]/);
    expect(provisioner(r.info, 'delete').when).toBe('destroy');
  });

  test('absent child of a present package still links to it, and orders after its settings', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', absent: true });
    });
    const r = resources(json);
    expect(r.site.count).toBeUndefined();
    expect(r.info.count).toBe(0);
    expect(r.info.triggers_replace.parent).toBe('${terraform_data.site.id}');
    expect(r.info_settings.depends_on).toEqual(['terraform_data.site_settings']);
  });

  test('protect: prevent_destroy on the object only', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', passwordEnv: 'PW', protect: true });
    });
    const r = resources(json);
    expect(r.info.lifecycle).toEqual({ prevent_destroy: true });
    // the settings resource is replaced on every settings change: it must not be protected
    expect(r.info_settings.lifecycle).toBeUndefined();
  });
});

describe('Forwarder', () => {
  test('shape: identity in the object, remote in the settings, ensure after the package', () => {
    const { json } = synth((stack) => {
      new Forwarder(stack, 'sales', { package: site(stack), localPart: 'Sales', remote: 'Team@Example.ORG' });
    });
    const r = resources(json);
    expect(r.sales.triggers_replace).toEqual({
      kind: 'forwarder', key: 'sales@example.com', placement: 'example.com', parent: '${terraform_data.site.id}',
    });
    expect(specOf(r.sales_settings)).toEqual({
      kind: 'forwarder', path: 'MyStack/sales', packageDomain: 'example.com', domain: 'example.com', localPart: 'sales', remote: 'Team@example.org',
    });
    expect(r.sales_settings.triggers_replace).toEqual({ object: '${terraform_data.sales.id}', remote: 'Team@example.org' });
    expect(Object.keys(r).sort()).toEqual(['sales', 'sales_settings', 'site', 'site_settings']);
    expect(commands(r.sales)).toEqual(['delete (destroy)']);
    expect(commands(r.sales_settings)).toEqual(['ensure']);
    expect(provisioner(r.sales, 'delete').environment).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(provisioner(r.sales_settings, 'ensure').environment).toEqual({
      RESELLER_SPEC: JSON.stringify(specOf(r.sales_settings)),
      RESELLER_OBJECT_ID: '${terraform_data.sales.id}',
    });
    expect(r.sales_settings.depends_on).toEqual(['terraform_data.site_settings']);
  });

  test('a mailbox and a forwarder may share a local part', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack);
      new Mailbox(stack, 'info', { package: pkg, localPart: 'info' });
      new Forwarder(stack, 'infoCopy', { package: pkg, localPart: 'info', remote: 'archive@example.org' });
    });
    expect(resources(json).infoCopy.triggers_replace.key).toBe('info@example.com');
  });

  test('absent and protect', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack);
      new Forwarder(stack, 'a', { package: pkg, localPart: 'a', remote: 'x@example.org', absent: true });
      new Forwarder(stack, 'b', { package: pkg, localPart: 'b', remote: 'x@example.org', protect: true });
    });
    const r = resources(json);
    expect([r.a.count, r.a_settings.count]).toEqual([0, 0]);
    expect(r.b.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.b_settings.lifecycle).toBeUndefined();
  });
});
