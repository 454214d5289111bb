import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRelease } from '../../scripts/executables/release';
import { filesHash, readZip, zipHash } from '../../src/provider-mirror';
import { createUserProject, packLibrary, UserProject, userEnv } from '../cdktn/user-project';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { makeSigningKey } from './registry';
import { builtExecutables, cliConfig, Executables, INSTALL_TIMEOUT_MS, providerEnv, tempDir, terraform, terraformOk } from './support';

/**
 * Installation 5: the executables as npm packages. The library's package carries no
 * executable; `npm run release` writes one npm package per platform
 * (`cdktf-reseller-hosting-provider-<platform>`), and a user adds the ones they
 * synthesize for. Here the linux_amd64 package is packed (`npm pack`) and installed
 * into a project beside the packed library, and the project synthesizes a stack with
 * `providerPlatforms: ['linux_amd64']` without RESELLER_PROVIDER_EXECUTABLES: synth
 * places that package's zip and locks it, and Terraform alone (no node on PATH)
 * installs it and plans against the emulator.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

const PLATFORM = 'linux_amd64';
const NAME = `cdktf-reseller-hosting-provider-${PLATFORM}`;
const STACK = 'platform-package';
let exe: Executables;
let root: string;
let npmDir: string;
let project: UserProject;
let emu: TestEmulator;

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** npm in `cwd` as the user runs it (none of this repository's npm settings); its stdout. */
function npm(cwd: string, args: string[]): string {
  const r = spawnSync('npm', args, { cwd, env: userEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status} in ${cwd}:\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  exe = builtExecutables();
  root = tempDir('platform-package');
  const gnupg = join(root, 'gnupg');
  mkdirSync(gnupg, { mode: 0o700 });
  const key = makeSigningKey(gnupg, 'Reseller Release');
  const release = writeRelease({ env: { RESELLER_RELEASE_GPG_KEY: key.secret }, outDir: join(root, 'release'), executablesDir: exe.dir, log: () => undefined });
  npmDir = join(root, 'release', `${exe.version}-npm`);
  expect(release.npmPackages.sort()).toEqual([join(npmDir, `cdktf-reseller-hosting-provider-linux_amd64`), join(npmDir, `cdktf-reseller-hosting-provider-linux_arm64`)]);
  const [{ filename }] = JSON.parse(npm(join(npmDir, NAME), ['pack', '--json', '--pack-destination', root])) as Array<{ filename: string }>;
  project = createUserProject(join(root, 'project'), packLibrary(root), 'cdktf', { devDependencies: { [NAME]: `file:${join(root, filename)}` } });
  emu = await startTestEmulator();
});

/**
 * Synthesizes the user's app (a stack for `platform`) in the project, as the user
 * runs it: without RESELLER_PROVIDER_EXECUTABLES, which this run's jest sets for the
 * other suites. The stack directory.
 */
function synth(platform: string): string {
  const name = `${STACK}-${platform}`;
  writeFileSync(join(project.dir, `${name}.js`), `
const { App, LocalBackend, TerraformStack } = require('cdktf');
const { Forwarder, HostingPackage, ResellerHosting } = require('cdktf-reseller-hosting');
const app = new App({ outdir: 'cdktf.out' });
const stack = new TerraformStack(app, '${name}');
new LocalBackend(stack, { path: 'terraform.tfstate' });
new ResellerHosting(stack, 'reseller', { engine: 'provider', providerPlatforms: ['${platform}'] });
const site = new HostingPackage(stack, 'site', { domainName: 'platform-package.example.com', packageType: 'Linux Unlimited' });
new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
app.synth();
`);
  const env = userEnv();
  delete env.RESELLER_PROVIDER_EXECUTABLES;
  project.run(process.execPath, [`${name}.js`], env);
  return join(project.dir, 'cdktf.out', 'stacks', name);
}

afterAll(async () => {
  await emu?.stop();
});

test('npm run release writes one npm package per platform: the zip alone, the library\'s version, installable anywhere', () => {
  const library = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  for (const platform of ['linux_amd64', 'linux_arm64']) {
    const dir = join(npmDir, `cdktf-reseller-hosting-provider-${platform}`);
    const zip = `terraform-provider-reseller_${exe.version}_${platform}.zip`;
    expect(readdirSync(dir).sort()).toEqual(['LICENSE', 'README.md', 'package.json', zip].sort());
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: `cdktf-reseller-hosting-provider-${platform}`, version: library.version, license: library.license, repository: library.repository, files: [zip] });
    expect(pkg.description).toContain(platform);
    // The platform is where Terraform runs, not where npm installs: nothing restricts or runs at install.
    for (const field of ['os', 'cpu', 'scripts', 'dependencies', 'main', 'bin']) expect(pkg).not.toHaveProperty(field);
    expect(sha256(join(dir, zip))).toBe(sha256(exe.zip(platform)));
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(`npm install --save-dev cdktf-reseller-hosting-provider-${platform}@${library.version}`);
  }
});

test('the packed platform package holds the zip, and the packed library holds none', () => {
  const installed = join(project.dir, 'node_modules', NAME);
  expect(readdirSync(installed).sort()).toEqual(['LICENSE', 'README.md', 'package.json', `terraform-provider-reseller_${exe.version}_${PLATFORM}.zip`]);
  expect(existsSync(join(project.dir, 'node_modules', 'cdktf-reseller-hosting', 'dist', 'executables'))).toBe(false);
});

test('synth in the project places the platform package\'s zip and locks it; terraform init and plan run with Terraform alone', async () => {
  const stackDir = synth(PLATFORM);
  const zipName = `terraform-provider-reseller_${exe.version}_${PLATFORM}.zip`;
  const placedFile = join(stackDir, 'terraform.d', 'plugins', 'reseller-hosting.local', 'cdktf', 'reseller', zipName);
  const placed = readFileSync(placedFile);
  // Same bytes (compared by digest: jest's equality walks a 41 MB Buffer entry by entry).
  expect(sha256(placedFile)).toBe(sha256(join(project.dir, 'node_modules', NAME, zipName)));
  expect(sha256(placedFile)).toBe(sha256(exe.zip(PLATFORM)));
  const lock = readFileSync(join(stackDir, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain(`"${filesHash(readZip(placed))}"`);
  expect(lock).toContain(`"${zipHash(placed)}"`);

  const tf = { cwd: stackDir, cliConfig: cliConfig(tempDir('cli')), env: providerEnv(emu.url) };
  const init = await terraformOk(['init', '-input=false'], tf);
  expect(init.output).toContain(`Installing reseller-hosting.local/cdktf/reseller v${exe.version}`);
  await terraformOk(['validate'], tf);
  const plan = await terraform(['plan', '-input=false', '-detailed-exitcode'], tf);
  expect(plan).toMatchObject({ code: 2 });
  expect(plan.output).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
});

test('without the platform package (and without RESELLER_PROVIDER_EXECUTABLES), synth fails naming the package to install at this version', () => {
  expect(() => synth('linux_arm64'))
    .toThrow(`providerPlatforms needs the linux_arm64 executable (terraform-provider-reseller_${exe.version}_linux_arm64.zip) and finds none: install its package: npm install --save-dev cdktf-reseller-hosting-provider-linux_arm64@${exe.version}`);
});
