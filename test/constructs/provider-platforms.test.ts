import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack, Testing } from 'cdktf';
import { Forwarder, HostingPackage, ResellerHosting } from '../../src';
import { PROVIDER_SOURCE } from '../../src/protocol';
import { executablesDir, packageHash, packageRoot, packageVersion } from '../../src/provider-mirror';
import { placeExecutablesIn } from '../../src/constructs/private/engines/provider-placement';
import { provisioner, resources, validationMessages } from './util';

/**
 * ResellerHosting's `providerPlatforms`: which platforms' executables synth places
 * (test/install runs them), the rule of the list, and what the carriers run then.
 */

function stackWith(props: Record<string, unknown>) {
  const app = Testing.app();
  const stack = new TerraformStack(app, 'MyStack');
  new ResellerHosting(stack, 'reseller', props);
  const site = new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 1 });
  new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
  return stack;
}

test.each([
  [[], 'providerPlatforms must list at least one of "linux_amd64", "linux_arm64", not [] (leave it unset to place the Node launcher)'],
  [['darwin_arm64'], 'providerPlatforms [0] "darwin_arm64": the executables are built for linux_amd64 and linux_arm64 only (a darwin one cannot be built or started here); leave providerPlatforms unset to place the Node launcher, which runs wherever Node does'],
  [['linux_amd64', 'windows_amd64'], 'providerPlatforms [1] "windows_amd64": the executables are built for linux_amd64 and linux_arm64 only (a windows one cannot be built or started here); leave providerPlatforms unset to place the Node launcher, which runs wherever Node does'],
  [['linux_amd64', 'linux_amd64'], 'providerPlatforms [1] "linux_amd64" is listed twice'],
  [['linux_x86'], 'providerPlatforms [0] must be one of "linux_amd64", "linux_arm64", not "linux_x86"'],
])('providerPlatforms %j is refused, naming the rule', (platforms, message) => {
  expect(validationMessages(stackWith({ engine: 'provider', providerPlatforms: platforms }))).toEqual([`MyStack/reseller: ${message}`]);
});

test('with the carriers, the provisioners run the executable terraform init installed, and the stack requires the provider (no provider block)', () => {
  const json = JSON.parse(Testing.synth(stackWith({ engine: 'terraform_data', providerPlatforms: ['linux_amd64'] })));
  const version = packageVersion();
  expect(json.terraform.required_providers.reseller).toEqual({ source: PROVIDER_SOURCE, version });
  expect(json.provider?.reseller).toBeUndefined();
  const ensure = provisioner(resources(json).site_settings, 'ensure');
  expect(ensure.interpreter.slice(0, 2)).toEqual(['/bin/sh', '-c']);
  expect(ensure.interpreter[2]).toContain(`for e in "$d"/providers/${PROVIDER_SOURCE}/${version}/linux_amd64/terraform-provider-reseller_v${version}; do [ -x "$e" ] && exec "$e" handler "$@"; done`);
  expect(ensure.interpreter[2]).toContain('d=$TF_DATA_DIR; [ -n "$d" ] || d=.terraform');
  // No Terraform template sequence in the script: it reaches the shell as written.
  expect(ensure.interpreter[2]).not.toMatch(/\$\{|%\{/);
  expect(JSON.stringify(json)).not.toContain('reseller-hosting.js');
  const destroy = provisioner(resources(json).site, 'delete');
  expect(destroy.interpreter).toEqual(ensure.interpreter);
});

test('without providerPlatforms the carriers still run node with the relative handler path', () => {
  const json = JSON.parse(Testing.synth(stackWith({ engine: 'terraform_data' })));
  expect(provisioner(resources(json).site_settings, 'ensure').interpreter).toEqual(['node', expect.stringMatching(/bin\/reseller-hosting\.js$/), 'handler']);
  expect(json.terraform?.required_providers?.reseller).toBeUndefined();
});

test('synth without the zips fails, naming the missing file and how to make it', () => {
  const saved = process.env.RESELLER_PROVIDER_EXECUTABLES;
  const empty = mkdtempSync(join(tmpdir(), 'no-executables-'));
  process.env.RESELLER_PROVIDER_EXECUTABLES = empty;
  try {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'platforms-synth-')) });
    const stack = new TerraformStack(app, 'shop');
    new ResellerHosting(stack, 'reseller', { providerPlatforms: ['linux_arm64'] });
    new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 1 });
    expect(() => app.synth()).toThrow(
      `shop: cannot place the reseller provider for terraform init: providerPlatforms needs terraform-provider-reseller_${packageVersion()}_linux_arm64.zip, and ${empty} has none: ` +
        `run 'npm run build:executables' in ${packageRoot()}, or set RESELLER_PROVIDER_EXECUTABLES to a directory holding the release zips of ${packageVersion()}`,
    );
  } finally {
    if (saved === undefined) delete process.env.RESELLER_PROVIDER_EXECUTABLES;
    else process.env.RESELLER_PROVIDER_EXECUTABLES = saved;
  }
});

test('the zips come from the package\'s dist/executables unless RESELLER_PROVIDER_EXECUTABLES names another directory', () => {
  expect(executablesDir('/pkg', {})).toBe('/pkg/dist/executables');
  expect(executablesDir('/pkg', { RESELLER_PROVIDER_EXECUTABLES: '/downloads/0.1.0' })).toBe('/downloads/0.1.0');
});

test('synthesized on a machine without an executable (macOS, Windows), the stack also holds the launcher for that machine, locked with the zips', () => {
  const work = mkdtempSync(join(tmpdir(), 'platforms-host-'));
  placeExecutablesIn(work, packageVersion(), ['linux_amd64'], 'darwin_arm64');
  const typeDir = join(work, 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/'));
  expect(readdirSync(typeDir).sort()).toEqual([packageVersion(), `terraform-provider-reseller_${packageVersion()}_linux_amd64.zip`]);
  expect(readdirSync(join(typeDir, packageVersion()))).toEqual(['darwin_arm64']);
  const lock = readFileSync(join(work, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain(packageHash(join(typeDir, packageVersion(), 'darwin_arm64')));
  expect(lock.match(/"(h1|zh):/g)).toHaveLength(3);
  // On a Linux machine the executables are all there is: no launcher.
  const linux = mkdtempSync(join(tmpdir(), 'platforms-host-'));
  placeExecutablesIn(linux, packageVersion(), ['linux_arm64'], 'linux_amd64');
  expect(readdirSync(join(linux, 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/')))).toEqual([`terraform-provider-reseller_${packageVersion()}_linux_arm64.zip`]);
});
