import { TerraformVariable } from 'cdktf';
import { Forwarder, HostingPackage, Mailbox } from '../../src';
import { env, provisioner, resources, specOf, synth } from './util';

const site = (stack: import('cdktf').TerraformStack, props: Partial<import('../../src').HostingPackageProps> = {}) =>
  new HostingPackage(stack, 'site', { domainName: 'example.com', extraDomainNames: ['example.net'], packageType: 'x', ...props });

describe('Mailbox', () => {
  test('with a sensitive variable password: object, settings and password resources', () => {
    const { json } = synth((stack) => {
      const pw = new TerraformVariable(stack, 'info_password', { type: 'string', sensitive: true });
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'Info', password: pw.value });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_password', 'info_settings', 'site', 'site_settings']);

    expect(r.info.triggers_replace).toEqual({
      kind: 'mailbox', key: 'info@example.com', placement: 'example.com', parent: '${terraform_data.site.id}',
    });
    const spec = {
      kind: 'mailbox', path: 'MyStack/info', packageDomain: 'example.com', domain: 'example.com', localPart: 'info',
      send: true, receive: true, passwordVersion: 1,
    };
    expect(specOf(r.info)).toEqual(spec);
    expect(env(r.info, 'ensure')).toEqual({
      RESELLER_SPEC: JSON.stringify(spec),
      RESELLER_OBJECT_ID: '${self.id}',
      RESELLER_MAILBOX_PASSWORD: '${var.info_password}',
    });
    expect(env(r.info, 'delete')).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });

    expect(r.info_settings.triggers_replace).toEqual({ object: '${terraform_data.info.id}', send: 'true', receive: 'true' });
    expect(env(r.info_settings, 'update')).toEqual({ RESELLER_SPEC: JSON.stringify(spec), RESELLER_OBJECT_ID: '${terraform_data.info.id}' });

    expect(r.info_password.triggers_replace).toEqual({ object: '${terraform_data.info.id}', passwordVersion: '1' });
    expect(r.info_password.provisioner).toHaveLength(1);
    expect(env(r.info_password, 'set-password')).toEqual({
      RESELLER_SPEC: JSON.stringify(spec),
      RESELLER_OBJECT_ID: '${terraform_data.info.id}',
      RESELLER_MAILBOX_PASSWORD: '${var.info_password}',
    });
  });

  test('without a password: no password resource, no passwordVersion in the spec', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', send: false });
    });
    const r = resources(json);
    expect(r.info_password).toBeUndefined();
    expect(specOf(r.info)).toEqual({
      kind: 'mailbox', path: 'MyStack/info', packageDomain: 'example.com', domain: 'example.com', localPart: 'info', send: false, receive: true,
    });
    expect(env(r.info, 'ensure').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(r.info_settings.triggers_replace.send).toBe('false');
  });

  test('passwordEnv and passwordVersion: the handler reads the named variable; the version is the only trigger', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', passwordEnv: 'INFO_PASSWORD', passwordVersion: 3 });
    });
    const r = resources(json);
    expect(specOf(r.info)).toMatchObject({ passwordEnv: 'INFO_PASSWORD', passwordVersion: 3 });
    expect(r.info_password.triggers_replace).toEqual({ object: '${terraform_data.info.id}', passwordVersion: '3' });
    expect(env(r.info_password, 'set-password').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(env(r.info, 'ensure').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
  });

  test('on an extra domain of the package: key on that domain, placement the package primary', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', domain: 'EXAMPLE.net' });
    });
    const r = resources(json);
    expect(r.info.triggers_replace).toMatchObject({ key: 'info@example.net', placement: 'example.com' });
    expect(specOf(r.info)).toMatchObject({ domain: 'example.net', packageDomain: 'example.com' });
  });

  test('on a referenced package: no parent id, nothing synthesized for the reference', () => {
    const { json } = synth((stack) => {
      const legacy = HostingPackage.fromDomainName(stack, 'legacy', 'legacy.example.com');
      new Mailbox(stack, 'info', { package: legacy, localPart: 'info' });
    });
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['info', 'info_settings']);
    expect(r.info.triggers_replace).toEqual({ kind: 'mailbox', key: 'info@legacy.example.com', placement: 'legacy.example.com', parent: '' });
  });

  test('absent: count = 0 on all three resources; an absent parent is not referenced', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack, { absent: true });
      new Mailbox(stack, 'info', { package: pkg, localPart: 'info', passwordEnv: 'PW', absent: true });
    });
    const r = resources(json);
    for (const id of ['site', 'site_settings', 'info', 'info_settings', 'info_password']) expect(r[id].count).toBe(0);
    expect(r.info.triggers_replace.parent).toBe('');
    expect(r.info_settings.triggers_replace.object).toBe('');
    expect(r.info_password.triggers_replace.object).toBe('');
    expect(env(r.info_password, 'set-password').RESELLER_OBJECT_ID).toBe('');
  });

  test('absent child of a present package still links to it', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', absent: true });
    });
    const r = resources(json);
    expect(r.site.count).toBeUndefined();
    expect(r.info.count).toBe(0);
    expect(r.info.triggers_replace.parent).toBe('${terraform_data.site.id}');
  });

  test('protect: prevent_destroy on the object only', () => {
    const { json } = synth((stack) => {
      new Mailbox(stack, 'info', { package: site(stack), localPart: 'info', passwordEnv: 'PW', protect: true });
    });
    const r = resources(json);
    expect(r.info.lifecycle).toEqual({ prevent_destroy: true });
    expect(r.info_settings.lifecycle).toBeUndefined();
    expect(r.info_password.lifecycle).toBeUndefined();
  });
});

describe('Forwarder', () => {
  test('shape: identity in the object, remote in the settings', () => {
    const { json } = synth((stack) => {
      new Forwarder(stack, 'sales', { package: site(stack), localPart: 'Sales', remote: 'Team@Example.ORG' });
    });
    const r = resources(json);
    expect(r.sales.triggers_replace).toEqual({
      kind: 'forwarder', key: 'sales@example.com', placement: 'example.com', parent: '${terraform_data.site.id}',
    });
    expect(specOf(r.sales)).toEqual({
      kind: 'forwarder', path: 'MyStack/sales', packageDomain: 'example.com', domain: 'example.com', localPart: 'sales', remote: 'Team@example.org',
    });
    expect(r.sales_settings.triggers_replace).toEqual({ object: '${terraform_data.sales.id}', remote: 'Team@example.org' });
    expect(r.sales_password).toBeUndefined();
    expect(provisioner(r.sales, 'delete').environment).toEqual({ RESELLER_SPEC: '${jsonencode(self.triggers_replace)}' });
    expect(provisioner(r.sales_settings, 'update').environment.RESELLER_OBJECT_ID).toBe('${terraform_data.sales.id}');
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
  });
});
