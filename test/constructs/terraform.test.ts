/**
 * Checks the synthesized JSON with a real Terraform binary, offline: `terraform
 * validate` (self-only references in destroy provisioners, references to counted
 * resources, template escapes) and `terraform console` (what the jsonencode specs
 * decode to). A missing Terraform fails these tests (findTerraform's message says what to install).
 */
import { spawnSync } from 'node:child_process';
import { findTerraform, terraformEnv } from '../../scripts/lib/terraform';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { CloudProvider, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, ResellerHosting } from '../../src';
import { HANDLER, Json, STACK, stackDir } from './util';

const TF_ENV = terraformEnv({ TF_INPUT: '0' });
const TERRAFORM = findTerraform(); // throws, failing the suite loudly, when neither terraform nor tofu is installed
const tfTest = test;

function terraform(cwd: string, args: string[], input?: string): string {
  const r = spawnSync(TERRAFORM, args, { cwd, env: TF_ENV, input, encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`terraform ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('with terraform', () => {
  let dir: string;
  let config: Json;

  beforeAll(() => {
    const app = Testing.app();
    const stack = new TerraformStack(app, STACK);
    new ResellerHosting(stack, 'reseller', { engine: 'terraform_data', apiUrl: 'http://127.0.0.1:8080', resellerId: '*' });
    const pw = new TerraformVariable(stack, 'pw', { type: 'string', sensitive: true, default: 'x' });
    const stage = new TerraformVariable(stack, 'stage', { type: 'string', default: 'dev' });
    const type = new TerraformVariable(stack, 'type', { type: 'number', default: 812 });
    const server = new ManagedCloudServer(stack, 'web1', {
      hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: 'stack-user:1', branded: true,
    });
    const site = new HostingPackage(stack, 'site', {
      domainName: 'example.com', extraDomainNames: ['example.net'], packageType: 'Linux Unlimited',
      label: 'A "quoted" label with ${dollar} and %{percent} and \\ backslash', cloudServer: server, protect: true,
    });
    new Mailbox(stack, 'info', { package: site, localPart: 'info', password: pw.value, passwordVersion: 2 });
    new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
    const tok = new HostingPackage(stack, 'tok', {
      domainName: `${stage.stringValue}.example.org`, packageType: type.numberValue, label: `Stage "${stage.stringValue}" \${not-a-ref}`,
    });
    new Mailbox(stack, 'tokbox', { package: tok, localPart: 'info', passwordEnv: 'TOKBOX_PW' });
    // absent: the whole family, and an absent child of a present parent
    const gone = new HostingPackage(stack, 'gone', { domainName: 'gone.example.com', packageType: 'x', absent: true });
    new Mailbox(stack, 'gonebox', { package: gone, localPart: 'x', passwordEnv: 'PW', absent: true });
    new Forwarder(stack, 'oldfwd', { package: site, localPart: 'old', remote: 'x@example.org', absent: true });
    app.synth();
    dir = stackDir(app);
    config = JSON.parse(fs.readFileSync(path.join(dir, 'cdk.tf.json'), 'utf8'));
  });

  tfTest('the synthesized stack is valid Terraform (init offline + validate)', () => {
    terraform(dir, ['init', '-backend=false', '-input=false', '-no-color']);
    const result = JSON.parse(terraform(dir, ['validate', '-json', '-no-color']));
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
  });

  tfTest('the handler path works from the stack working directory', () => {
    const handler = config.resource.terraform_data.site_settings.provisioner[0]['local-exec'].interpreter[1];
    expect(config.resource.terraform_data.site.provisioner[0]['local-exec'].interpreter[1]).toBe(handler);
    expect(path.isAbsolute(handler)).toBe(false);
    expect(fs.realpathSync(path.resolve(dir, handler))).toBe(fs.realpathSync(HANDLER));
  });

  tfTest('jsonencode specs decode to the values, whatever quotes or template characters they hold', () => {
    // ensure runs from the settings resource; its RESELLER_SPEC is the object's spec
    const spec = (id: string) => {
      const ensure = config.resource.terraform_data[`${id}_settings`].provisioner[0]['local-exec'];
      expect(ensure.command).toBe('ensure');
      return ensure.environment.RESELLER_SPEC;
    };
    const consoleDir = fs.mkdtempSync(path.join(path.dirname(dir), 'console-'));
    fs.writeFileSync(
      path.join(consoleDir, 'main.tf.json'),
      JSON.stringify({ variable: config.variable, locals: { tok: spec('tok'), tokbox: spec('tokbox'), site: spec('site') } }),
    );
    const evaluate = (local: string, vars: string[]) => {
      const out = terraform(consoleDir, ['console', '-no-color', ...vars.flatMap((v) => ['-var', v])], `base64encode(local.${local})\n`);
      return JSON.parse(Buffer.from(JSON.parse(out.trim()), 'base64').toString('utf8'));
    };
    const stage = 'st"a\\ge ${x}';
    expect(evaluate('tok', [`stage=${stage}`, 'type=42'])).toEqual({
      kind: 'package', path: 'MyStack/tok', domainName: `${stage}.example.org`, extraDomainNames: [], packageType: 42,
      label: `Stage "${stage}" \${not-a-ref}`, documentRoots: {}, enabled: true,
    });
    expect(evaluate('tokbox', [`stage=${stage}`])).toMatchObject({ packageDomain: `${stage}.example.org`, domain: `${stage}.example.org`, passwordEnv: 'TOKBOX_PW' });
    // a literal spec is plain JSON with template sequences escaped: Terraform gives back the text
    expect(evaluate('site', []).label).toBe('A "quoted" label with ${dollar} and %{percent} and \\ backslash');
  });
});
