import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import {
  CloudProvider, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, ResellerHosting, StackUser,
} from '../../src';
import { PROVIDER_SOURCE } from '../../src/protocol';
import { coreModel } from '../../src/provider/kind-resources';
import { schemaMessageOf } from '../../src/provider/resources/schema';
import { installProvider, lockProvider, packageHash } from '../../src/provider-mirror';
import { resources, synth, validationMessages } from './util';

/**
 * engine 'provider' (DESIGN §2.1): one `reseller_<kind>` resource per construct, with
 * the provider's own attribute names, references between them, the provider's
 * requirement and block, and the provider placed in the stack directory at synth.
 */

/** Attribute names the provider's schema declares per resource type (what Terraform accepts). */
const SCHEMA: Record<string, Set<string>> = Object.fromEntries(
  coreModel({}).kinds.map((kind) => {
    const block = schemaMessageOf(kind).block;
    return [kind.typeName, new Set([...(block.attributes ?? []).map((a) => a.name), ...(block.blockTypes ?? []).map((b) => b.typeName)])];
  }),
);

function everyKind(stack: TerraformStack, options: { apiUrl?: string } = {}) {
  new ResellerHosting(stack, 'reseller', { engine: 'provider', apiUrl: options.apiUrl });
  const password = new TerraformVariable(stack, 'mailbox_password', { type: 'string', sensitive: true });
  const owner = new StackUser(stack, 'owner', { email: 'owner@example.com', personName: 'Alex Owner' });
  const server = new ManagedCloudServer(stack, 'web1', {
    hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: owner, timeoutMinutes: 45,
  });
  const site = new HostingPackage(stack, 'site', {
    domainName: 'Example.com', extraDomainNames: ['example.net'], packageType: 'Linux Unlimited', label: 'Example',
    documentRoots: { 'example.net': 'public_html/net' }, stackUser: owner, protect: true,
  });
  new HostingPackage(stack, 'app', { domainName: 'app.example.com', cloudServer: server });
  new Mailbox(stack, 'info', { package: site, localPart: 'Info', password: password.value, passwordVersion: 2 });
  new Forwarder(stack, 'sales', { package: site, localPart: 'sales', domain: 'example.net', remote: 'team@example.org' });
}

describe("engine 'provider'", () => {
  test('each construct synthesizes one reseller_* resource with the schema attributes and references to its parents', () => {
    const { json } = synth((stack) => everyKind(stack), true, 'as-declared');
    expect(resources(json)).toEqual({}); // no carriers
    const body = (type: string, name: string) => {
      const { '//': _metadata, ...rest } = resources(json, type)[name];
      return rest;
    };
    expect(body('reseller_stack_user', 'owner')).toEqual({ email: 'owner@example.com', person_name: 'Alex Owner' });
    expect(body('reseller_cloud_server', 'web1')).toEqual({
      host_name: 'web1.example.com', cloud_provider: 'native', spec: 'medium', zone: 'dc_location-uk', branded: false, period_months: 1,
      for_user: '${reseller_stack_user.owner.email}', timeouts: { create: '45m' },
    });
    expect(body('reseller_package', 'site')).toEqual({
      domain_name: 'example.com', extra_domain_names: ['example.net'], package_type: 'Linux Unlimited', label: 'Example',
      document_roots: { 'example.net': 'public_html/net' }, stack_user: '${reseller_stack_user.owner.email}', enabled: true,
      lifecycle: { prevent_destroy: true },
    });
    expect(body('reseller_package', 'app')).toEqual({
      domain_name: 'app.example.com', cloud_server: '${reseller_cloud_server.web1.host_name}', extra_domain_names: [], enabled: true,
    });
    // What a package's deletion takes along is replaced with it: a new package (another cloud server, -replace) has a new package_id.
    const replacedWithSite = { replace_triggered_by: ['reseller_package.site.package_id'] };
    expect(body('reseller_mailbox', 'info')).toEqual({
      package: '${reseller_package.site.domain_name}', domain: 'example.com', local_part: 'info', send: true, receive: true,
      password_wo: '${var.mailbox_password}', password_wo_version: 2, lifecycle: replacedWithSite,
    });
    expect(body('reseller_forwarder', 'sales')).toEqual({
      package: '${reseller_package.site.domain_name}', domain: 'example.net', local_part: 'sales', remote: 'team@example.org', lifecycle: replacedWithSite,
    });
    // Every attribute written is one the provider's schema declares (the two can never disagree on a name).
    for (const [type, byName] of Object.entries(json.resource as Record<string, Record<string, object>>)) {
      for (const body of Object.values(byName)) {
        const written = Object.keys(body).filter((k) => !['//', 'lifecycle', 'count', 'depends_on'].includes(k));
        expect(written.filter((a) => !SCHEMA[type].has(a))).toEqual([]);
      }
    }
  });

  test('the stack requires the provider at this package version and configures it from ResellerHosting', () => {
    const { json } = synth((stack) => everyKind(stack, { apiUrl: 'http://127.0.0.1:9999' }), true, 'as-declared');
    const version = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')).version;
    expect(json.terraform.required_providers).toEqual({ reseller: { source: PROVIDER_SOURCE, version } });
    expect(json.provider).toEqual({ reseller: [{ api_url: 'http://127.0.0.1:9999' }] });
    expect(JSON.stringify(json)).not.toMatch(/api_key|RESELLER_API_KEY/);
  });

  test('absent: count = 0 and literal parent names; the objectId is the resource id', () => {
    let objectId = '';
    const { json } = synth((stack) => {
      new ResellerHosting(stack, 'reseller', { engine: 'provider' });
      const site = new HostingPackage(stack, 'site', { domainName: 'gone.example.com', packageType: 1, absent: true });
      objectId = site.objectId;
      new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'a@example.org', absent: true });
    }, true, 'as-declared');
    expect(objectId).toBe('${reseller_package.site.id}');
    expect(resources(json, 'reseller_package').site).toMatchObject({ count: 0, domain_name: 'gone.example.com', package_type: '1' });
    expect(resources(json, 'reseller_forwarder').sales).toMatchObject({ count: 0, package: 'gone.example.com' });
  });

  test('tokens pass through: a variable label, a package in another construct scope', () => {
    const { json } = synth((stack) => {
      new ResellerHosting(stack, 'reseller', { engine: 'provider' });
      const label = new TerraformVariable(stack, 'label', { type: 'string' });
      new HostingPackage(stack, 'site', { domainName: 'tokens.example.com', packageType: 'Linux Starter', label: label.stringValue });
    }, true, 'as-declared');
    expect(resources(json, 'reseller_package').site.label).toBe('${var.label}');
  });

  test('passwordEnv is refused with the provider, naming what to use', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'provider-engine-')) });
    const stack = new TerraformStack(app, 'MyStack');
    new ResellerHosting(stack, 'reseller', { engine: 'provider' });
    const site = new HostingPackage(stack, 'site', { domainName: 'env.example.com', packageType: 1 });
    new Mailbox(stack, 'info', { package: site, localPart: 'info', passwordEnv: 'INFO_PASSWORD' });
    expect(validationMessages(stack)).toEqual([
      expect.stringMatching(/^MyStack\/info: passwordEnv is for the provisioner carriers only: with engine 'provider' the password is the write-only attribute password_wo/),
    ]);
  });

  test('app.synth() places the provider in the stack directory (relative, self-contained), so terraform init needs nothing else', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'provider-engine-'));
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'shop');
    new LocalBackend(stack, { path: 'terraform.tfstate' }); // (cdktf's default backend path is absolute)
    new ResellerHosting(stack, 'reseller', { engine: 'provider' });
    new HostingPackage(stack, 'site', { domainName: 'placed.example.com', packageType: 1 });
    app.synth();
    const stackDir = join(outdir, 'stacks', 'shop');
    const version = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8')).terraform.required_providers.reseller.version;
    const platform = `${process.platform === 'win32' ? 'windows' : process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
    const dir = join(stackDir, 'terraform.d', 'plugins', 'reseller-hosting.local', 'cdktf', 'reseller', version, platform);
    const executable = join(dir, `terraform-provider-reseller_v${version}`);
    expect(statSync(executable).mode & 0o111).not.toBe(0);
    expect(existsSync(join(dir, 'provider-bundle.js'))).toBe(true);
    // No absolute path of this machine: the launcher finds its loader next to itself.
    expect(readFileSync(executable, 'utf8')).not.toContain(outdir);
    expect(readFileSync(executable, 'utf8')).not.toContain(join(__dirname, '..', '..'));
    expect(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8')).not.toContain(join(__dirname, '..', '..'));
    // And locked, so that `cdktf deploy` never asks a registry to lock it.
    const lock = readFileSync(join(stackDir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`provider "${PROVIDER_SOURCE}" {\n  version     = "${version}"\n  constraints = "${version}"\n  hashes = [\n    "${packageHash(dir)}",\n  ]\n}\n`);
  });

  test("the lock file keeps other providers' entries and replaces only its own", () => {
    const work = mkdtempSync(join(tmpdir(), 'provider-engine-lock-'));
    const pkgDir = mkdtempSync(join(tmpdir(), 'provider-engine-pkg-'));
    writeFileSync(join(pkgDir, 'a'), 'one');
    const other = 'provider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.4"\n  hashes = [\n    "h1:abc=",\n  ]\n}\n';
    writeFileSync(join(work, '.terraform.lock.hcl'), `# header\n\n${other}`);
    lockProvider(work, '1.0.0', pkgDir);
    const first = packageHash(pkgDir);
    writeFileSync(join(pkgDir, 'a'), 'two');
    lockProvider(work, '1.0.1', pkgDir);
    const text = readFileSync(join(work, '.terraform.lock.hcl'), 'utf8');
    expect(text).toContain(other);
    expect(text).not.toContain(first);
    expect(text.match(/provider "reseller-hosting.local\/cdktf\/reseller"/g)).toHaveLength(1);
    expect(text).toContain(`version     = "1.0.1"`);
    expect(text).toContain(packageHash(pkgDir));
  });

  test('a missing build is a clear error saying what to run', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'provider-engine-')), 'dist', 'src', 'provider', 'bundle.js');
    expect(() => installProvider(join(tmpdir(), 'never-used'), '0.0.1', { bundle: missing, cache: `${missing}.cache` }))
      .toThrow(/the provider of cdktf-reseller-hosting is not built \(.*bundle\.js is missing\): run 'npm run build'/);
  });
});
