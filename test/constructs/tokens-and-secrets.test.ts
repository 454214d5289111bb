import { Fn, Lazy, TerraformVariable } from 'cdktf';
import { HostingPackage, Mailbox } from '../../src';
import { env, Json, provisioner, resources, synth, warnings } from './util';

/** Every string in the JSON, with the path where it occurs. */
function strings(value: Json, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

/** The one place a password goes: the environment of the settings resource's ensure. */
const PASSWORD_PATHS = ['.resource.terraform_data.info_settings.provisioner[0].local-exec.environment.RESELLER_MAILBOX_PASSWORD'];

describe('secrets', () => {
  test('a sensitive variable password reaches only the provisioner environment of ensure', () => {
    let info!: Mailbox;
    const { json } = synth((stack) => {
      const pw = new TerraformVariable(stack, 'info_pw', { type: 'string', sensitive: true });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      info = new Mailbox(stack, 'info', { package: site, localPart: 'info', password: pw.value });
    });
    const hits = strings(json).filter(([, v]) => v.includes('var.info_pw'));
    expect(hits.map(([at]) => at).sort()).toEqual(PASSWORD_PATHS);
    expect(JSON.stringify(json.resource)).not.toMatch(/"input"/);
    expect(json.output).toBeUndefined();
    expect(warnings(info)).toEqual([]);
    // the destroy-time provisioners never get it, and no trigger holds it
    const r = resources(json);
    expect(provisioner(r.info_settings, 'ensure').when).toBeUndefined();
    expect(env(r.info_settings, 'retire-settings').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(env(r.info, 'delete').RESELLER_MAILBOX_PASSWORD).toBeUndefined();
    expect(JSON.stringify(r.info_settings.triggers_replace)).not.toContain('info_pw');
    expect(r.info_password).toBeUndefined();
    expect(Object.keys(info)).not.toContain('passwordResource');
    expect((info as unknown as Record<string, unknown>).passwordResource).toBeUndefined();
  });

  test('a stringValue of a sensitive variable works the same', () => {
    const { json } = synth((stack) => {
      const pw = new TerraformVariable(stack, 'info_pw', { type: 'string', sensitive: true });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', password: pw.stringValue });
    });
    expect(strings(json).filter(([, v]) => v.includes('var.info_pw')).map(([at]) => at).sort()).toEqual(PASSWORD_PATHS);
  });

  test('a literal password: only in the provisioner environment, and a synth warning that does not repeat it', () => {
    const secret = 'Lit3ral-S3cret!';
    let info!: Mailbox;
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      info = new Mailbox(stack, 'info', { package: site, localPart: 'info', password: secret });
    });
    expect(strings(json).filter(([, v]) => v.includes(secret)).map(([at]) => at).sort()).toEqual(PASSWORD_PATHS);
    const w = warnings(info);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/MyStack\/info: password is a literal string/);
    expect(w[0]).toMatch(/sensitive TerraformVariable/);
    expect(w[0]).not.toContain(secret);
  });

  test('no API key anywhere: there is no prop for it', () => {
    const { json } = synth((stack) => {
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'INFO_PW' });
    });
    expect(JSON.stringify(json)).not.toContain('RESELLER_API_KEY');
  });
});

describe('tokens', () => {
  test('a spec holding tokens goes through jsonencode, with tokens as Terraform expressions', () => {
    const { json } = synth((stack) => {
      const domain = new TerraformVariable(stack, 'domain', { type: 'string' });
      const type = new TerraformVariable(stack, 'type', { type: 'number' });
      const enabled = new TerraformVariable(stack, 'enabled', { type: 'bool' });
      const extra = new TerraformVariable(stack, 'extra', { type: 'list(string)' });
      new HostingPackage(stack, 'site', {
        domainName: domain.stringValue,
        extraDomainNames: extra.listValue,
        packageType: type.numberValue,
        enabled: enabled.booleanValue,
        label: `Site "${Fn.upper(domain.stringValue)}" \${literal}`,
      });
    });
    const r = resources(json);
    const spec = env(r.site_settings, 'ensure').RESELLER_SPEC;
    expect(spec).toBe(
      '${jsonencode({"kind" = "package", "path" = "MyStack/site", "domainName" = var.domain, "extraDomainNames" = var.extra, ' +
        '"packageType" = var.type, "label" = "Site \\"${upper(var.domain)}\\" $${literal}", "documentRoots" = {}, "enabled" = var.enabled})}',
    );
    expect(r.site.provisioner).toHaveLength(1); // delete only: the spec is not repeated on the object
    expect(r.site.triggers_replace).toEqual({ kind: 'package', key: '${var.domain}', placement: '', parent: '' });
    expect(r.site_settings.triggers_replace).toEqual({
      object: '${terraform_data.site.id}',
      extraDomainNames: '["${jsonencode(var.extra)}"]',
      packageType: '${var.type}',
      label: 'Site "${upper(var.domain)}" $${literal}',
      stackUser: 'null',
      enabled: '"${var.enabled}"',
    });
  });

  test('a mixed literal/token domain keeps its literal part in a template', () => {
    const { json } = synth((stack) => {
      const stage = new TerraformVariable(stack, 'stage', { type: 'string' });
      const site = new HostingPackage(stack, 'site', { domainName: `${stage.stringValue}.example.com`, packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info' });
    });
    const r = resources(json);
    expect(r.info.triggers_replace.key).toBe('info@${var.stage}.example.com');
    expect(env(r.info_settings, 'ensure').RESELLER_SPEC).toContain('"packageDomain" = "${var.stage}.example.com"');
  });

  test('token values are not validated at synth', () => {
    expect(() =>
      synth((stack) => {
        const v = new TerraformVariable(stack, 'v', { type: 'string' });
        const n = new TerraformVariable(stack, 'n', { type: 'number' });
        const site = new HostingPackage(stack, 'site', { domainName: v.stringValue, packageType: n.numberValue, label: v.stringValue, stackUser: v.stringValue });
        new Mailbox(stack, 'info', { package: site, localPart: v.stringValue, domain: v.stringValue, passwordVersion: n.numberValue, passwordEnv: 'PW' });
      }),
    ).not.toThrow();
  });

  test('a password version token is a string token in the trigger', () => {
    const { json } = synth((stack) => {
      const n = new TerraformVariable(stack, 'pwv', { type: 'number' });
      const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 'x' });
      new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'PW', passwordVersion: n.numberValue });
    });
    const r = resources(json);
    expect(r.info_settings.triggers_replace.passwordVersion).toBe('${var.pwv}');
    expect(env(r.info_settings, 'ensure').RESELLER_SPEC).toContain('"passwordVersion" = var.pwv');
  });

  test('a lazy value that produces a literal is rendered as a literal inside jsonencode', () => {
    const { json } = synth((stack) => {
      const v = new TerraformVariable(stack, 'v', { type: 'string' });
      new HostingPackage(stack, 'site', {
        domainName: v.stringValue,
        packageType: 'x',
        label: Lazy.stringValue({ produce: () => 'say "hi" ${not}' }),
      });
    });
    expect(env(resources(json).site_settings, 'ensure').RESELLER_SPEC).toContain('"label" = "say \\"hi\\" $${not}"');
  });
});
