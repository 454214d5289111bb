import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, TerraformStack, Testing } from 'cdktf';
import { Forwarder, HostingPackage, ResellerHosting } from '../../src';
import { PROVIDER_SOURCE } from '../../src/protocol';
import { executableZipOf, packageHash, packageRoot, packageVersion } from '../../src/provider-mirror';
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

test('synth without the zips fails, naming the platform, its package at this version and the other ways to get the zip', () => {
  const saved = process.env.RESELLER_PROVIDER_EXECUTABLES;
  const empty = mkdtempSync(join(tmpdir(), 'no-executables-'));
  process.env.RESELLER_PROVIDER_EXECUTABLES = empty;
  try {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'platforms-synth-')) });
    const stack = new TerraformStack(app, 'shop');
    new ResellerHosting(stack, 'reseller', { providerPlatforms: ['linux_arm64'] });
    new HostingPackage(stack, 'site', { domainName: 'example.com', packageType: 1 });
    const v = packageVersion();
    expect(() => app.synth()).toThrow(
      `shop: cannot place the reseller provider for terraform init: providerPlatforms needs terraform-provider-reseller_${v}_linux_arm64.zip for linux_arm64, ` +
        `and RESELLER_PROVIDER_EXECUTABLES (${empty}) has none: unset RESELLER_PROVIDER_EXECUTABLES and install its package: ` +
        `npm install --save-dev cdktf-reseller-hosting-provider-linux_arm64@${v}; ` +
        `or set RESELLER_PROVIDER_EXECUTABLES to a directory holding the release zips of ${v}; ` +
        `or, in a checkout of the library, run 'npm run build:executables' in ${packageRoot()}`,
    );
  } finally {
    if (saved === undefined) delete process.env.RESELLER_PROVIDER_EXECUTABLES;
    else process.env.RESELLER_PROVIDER_EXECUTABLES = saved;
  }
});

describe('where synth takes a platform\'s zip from', () => {
  const V = '9.8.7';
  const zipName = (platform: string) => `terraform-provider-reseller_${V}_${platform}.zip`;
  /** A directory with `files` (relative path -> content). */
  function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'zip-lookup-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }
  const platformPackage = (version: string, platform = 'linux_amd64') => ({
    [`node_modules/cdktf-reseller-hosting-provider-${platform}/package.json`]: JSON.stringify({ name: `cdktf-reseller-hosting-provider-${platform}`, version }),
    [`node_modules/cdktf-reseller-hosting-provider-${platform}/${zipName(platform)}`]: 'package zip',
  });
  const library = () => tree({ [`dist/executables/${zipName('linux_amd64')}`]: 'built zip' });

  test('RESELLER_PROVIDER_EXECUTABLES first, over an installed package and the build', () => {
    const downloads = tree({ [zipName('linux_amd64')]: 'release zip' });
    const project = tree(platformPackage(V));
    expect(executableZipOf('linux_amd64', { version: V, packageRoot: library(), cwd: project, env: { RESELLER_PROVIDER_EXECUTABLES: downloads } }))
      .toBe(join(downloads, zipName('linux_amd64')));
  });

  test('then the platform package installed in the user\'s project, over the library\'s own build', () => {
    const project = tree(platformPackage(V));
    expect(executableZipOf('linux_amd64', { version: V, packageRoot: library(), cwd: project, env: {} }))
      .toBe(join(project, 'node_modules', 'cdktf-reseller-hosting-provider-linux_amd64', zipName('linux_amd64')));
  });

  test('a platform package beside the library resolves too (the library\'s own node_modules tree)', () => {
    const project = tree({ ...platformPackage(V), 'node_modules/cdktf-reseller-hosting/package.json': '{"name":"cdktf-reseller-hosting"}' });
    const elsewhere = tree({});
    expect(executableZipOf('linux_amd64', { version: V, packageRoot: join(project, 'node_modules', 'cdktf-reseller-hosting'), cwd: elsewhere, env: {} }))
      .toBe(join(project, 'node_modules', 'cdktf-reseller-hosting-provider-linux_amd64', zipName('linux_amd64')));
  });

  test('then the library\'s dist/executables (npm run build:executables in a checkout)', () => {
    const root = library();
    expect(executableZipOf('linux_amd64', { version: V, packageRoot: root, cwd: tree({}), env: {} })).toBe(join(root, 'dist', 'executables', zipName('linux_amd64')));
  });

  test('a platform package of another version is an error naming both versions and the install command', () => {
    const project = tree(platformPackage('9.8.6'));
    expect(() => executableZipOf('linux_amd64', { version: V, packageRoot: library(), cwd: project, env: {} })).toThrow(
      `cdktf-reseller-hosting-provider-linux_amd64 9.8.6 is installed (${join(project, 'node_modules', 'cdktf-reseller-hosting-provider-linux_amd64')}), ` +
        `but cdktf-reseller-hosting is ${V}: the executables must be the library's own version: npm install --save-dev cdktf-reseller-hosting-provider-linux_amd64@${V}`,
    );
  });

  test('no zip anywhere is an error naming the platform, the package to install at this version and the alternatives', () => {
    const root = tree({});
    expect(() => executableZipOf('linux_arm64', { version: V, packageRoot: root, cwd: tree(platformPackage(V, 'linux_amd64')), env: {} })).toThrow(
      `providerPlatforms needs the linux_arm64 executable (${zipName('linux_arm64')}) and finds none: ` +
        `install its package: npm install --save-dev cdktf-reseller-hosting-provider-linux_arm64@${V}; ` +
        `or set RESELLER_PROVIDER_EXECUTABLES to a directory holding the release zips of ${V}; ` +
        `or, in a checkout of the library, run 'npm run build:executables' in ${root}`,
    );
  });

  test('a platform package without its zip says to reinstall it', () => {
    const project = tree({ 'node_modules/cdktf-reseller-hosting-provider-linux_amd64/package.json': JSON.stringify({ version: V }) });
    expect(() => executableZipOf('linux_amd64', { version: V, packageRoot: library(), cwd: project, env: {} })).toThrow(
      `cdktf-reseller-hosting-provider-linux_amd64 ${V} (${join(project, 'node_modules', 'cdktf-reseller-hosting-provider-linux_amd64')}) does not hold ${zipName('linux_amd64')}: ` +
        `it is incomplete; reinstall it: npm install --save-dev cdktf-reseller-hosting-provider-linux_amd64@${V}`,
    );
  });
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
