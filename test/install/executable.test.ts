import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandFor, QEMU_HINT, runnerFor } from '../../scripts/executables/runner';
import { REPO_ROOT, runTerraform } from '../../scripts/lib/terraform';
import { createServerCertificate } from '../../src/provider/transport/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshakeLine } from '../../src/provider/transport/handshake';
import { providerHandlers } from '../../src/provider/provider';
import { coreModel } from '../../src/provider/kind-resources';
import { mirrorPackageSegments, PROVIDER_SOURCE } from '../../src/protocol';
import { filesHash, readZip, zipHash } from '../../src/provider-mirror';
import { builtProviderInstaller } from '../e2e/support';
import { configText, synthStacks } from './stacks';
import { builtExecutables, cliConfig, Executables, INSTALL_TIMEOUT_MS, tempDir, terraform } from './support';

/**
 * The executables themselves: both platforms start to the go-plugin handshake (arm64
 * under qemu-aarch64), print the version `reseller-hosting --version` prints, and each
 * kind of bad input stops with one clear line: a damaged executable or bundle, an
 * executable for another platform, a Terraform too old for the provider.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

let exe: Executables;

beforeAll(() => {
  exe = builtExecutables();
});

/** Starts `program` for `platform` as Terraform does and resolves with its first stdout line (then kills it). */
function firstLine(platform: string, program: string, env: NodeJS.ProcessEnv): Promise<{ line: string; code: number | null }> {
  const [command, args] = commandFor(platform, program);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let settled = false;
    const done = (code: number | null) => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      resolve({ line: out.split('\n')[0], code });
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('\n')) done(null);
    });
    child.on('error', reject);
    child.on('exit', (code) => done(code));
  });
}

const pluginEnv = () => ({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: createServerCertificate().certPem, PLUGIN_PROTOCOL_VERSIONS: '5,6' });

describe.each(['linux_amd64', 'linux_arm64'])('the %s executable', (platform) => {
  test('starts to the go-plugin handshake with automatic mutual TLS (arm64: under qemu-aarch64)', async () => {
    if (!runnerFor(platform)) throw new Error(QEMU_HINT);
    const { line } = await firstLine(platform, exe.executable(platform), pluginEnv());
    const handshake = parseHandshakeLine(line);
    expect(handshake).toMatchObject({ core: 1, app: 6, network: 'unix', protocol: 'grpc' });
    expect(handshake.address).toMatch(/plugin\.sock$/);
    expect(handshake.cert.length).toBeGreaterThan(100);
  });

  test('prints the version reseller-hosting --version prints', () => {
    const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), '--version'], { encoding: 'utf8' });
    expect(cli.stdout).toBe(`${exe.version}\n`);
    const [command, args] = commandFor(platform, exe.executable(platform), ['--version']);
    const own = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
    expect({ status: own.status, stdout: own.stdout }).toEqual({ status: 0, stdout: cli.stdout });
  });
});

test('a damaged executable says so in one line, which Terraform shows, instead of a stack trace', async () => {
  const work = tempDir('damaged');
  const packageDir = join(work, 'terraform.d', 'plugins', ...mirrorPackageSegments(exe.version, 'linux_amd64'));
  mkdirSync(packageDir, { recursive: true });
  const damaged = join(packageDir, `terraform-provider-reseller_v${exe.version}`);
  // Where the program and its code cache (the program's SHA-256, then V8's data) sit inside.
  const original = readFileSync(exe.executable('linux_amd64'));
  const program = readFileSync(join(exe.dir, 'program.js'));
  const programAt = original.indexOf(program);
  const cacheAt = original.indexOf(createHash('sha256').update(program).digest());
  expect(programAt).toBeGreaterThan(0);
  expect(cacheAt).toBeGreaterThan(0);
  // A byte of the program changes, as a bad copy would change it.
  const bytes = Buffer.from(original);
  bytes[programAt + 1000] ^= 0x20;
  writeFileSync(damaged, bytes, { mode: 0o755 });
  // And in a second copy, a byte of the code cache.
  const cacheDamaged = join(work, 'cache-damaged');
  const other = Buffer.from(original);
  other[cacheAt + 1000] ^= 0x20;
  writeFileSync(cacheDamaged, other, { mode: 0o755 });
  const cacheRun = spawnSync(cacheDamaged, [], { encoding: 'utf8', env: pluginEnv(), timeout: 60_000 });
  expect({ status: cacheRun.status, stdout: cacheRun.stdout }).toEqual({
    status: 1,
    stdout: `terraform-provider-reseller ${exe.version}: this executable is damaged (its code cache does not match its checksum): download the release again, or synthesize the stack again\n`,
  });
  const expected = `terraform-provider-reseller ${exe.version}: this executable is damaged (its program does not match its checksum): download the release again, or synthesize the stack again`;
  const direct = spawnSync(damaged, [], { encoding: 'utf8', env: pluginEnv(), timeout: 60_000 });
  expect({ status: direct.status, stdout: direct.stdout, stderr: direct.stderr }).toEqual({ status: 1, stdout: `${expected}\n`, stderr: `${expected}\n` });

  writeFileSync(join(work, 'main.tf'), `terraform {\n  required_providers {\n    reseller = { source = "${PROVIDER_SOURCE}" }\n  }\n}\ndata "reseller_package_types" "all" {}\n`);
  const tf = { cwd: work, cliConfig: cliConfig(work) };
  expect(await terraform(['init', '-input=false'], tf)).toMatchObject({ code: 0 });
  const plan = await terraform(['plan', '-input=false'], tf);
  expect(plan.code).toBe(1);
  expect(plan.output.replace(/\s+/g, ' ')).toContain(`Unrecognized remote plugin message: ${expected}`);
});

test('a damaged bundle of the Node launcher says so in one line, which Terraform shows', async () => {
  const work = tempDir('damaged-launcher');
  const launcher = builtProviderInstaller().installProvider(join(work, 'terraform.d', 'plugins'));
  const bundle = join(launcher, '..', 'provider-bundle.js');
  truncateSync(bundle, Math.floor(readFileSync(bundle).length / 2));
  writeFileSync(join(work, 'main.tf'), `terraform {\n  required_providers {\n    reseller = { source = "${PROVIDER_SOURCE}" }\n  }\n}\ndata "reseller_package_types" "all" {}\n`);
  // The launcher runs on Node: this Terraform has it on PATH.
  expect((await runTerraform(['init', '-input=false', '-no-color'], { cwd: work })).code).toBe(0);
  const plan = await runTerraform(['plan', '-input=false', '-no-color'], { cwd: work });
  expect(plan.code).toBe(1);
  expect(`${plan.stdout}${plan.stderr}`.replace(/\s+/g, ' ')).toMatch(
    /Unrecognized remote plugin message: reseller provider: the provider bundle \S+provider-bundle\.js cannot be loaded \(.+\): it is damaged or incomplete; run 'reseller-hosting provider install' or synthesize the stack again/,
  );
});

test('a stack whose executables are for another platform stops terraform init with the platform it lacks', async () => {
  const stacks = synthStacks(tempDir('synth'), [{ name: 'arm-only', engine: 'provider', domain: 'arm-only.example.com', providerPlatforms: ['linux_arm64'] }]);
  expect(configText(stacks['arm-only'])).toContain(PROVIDER_SOURCE);
  const init = await terraform(['init', '-input=false'], { cwd: stacks['arm-only'], cliConfig: cliConfig(tempDir('cli')) });
  expect(init.code).toBe(1);
  expect(init.output.replace(/\s+/g, ' ')).toContain(`Provider ${PROVIDER_SOURCE} v${exe.version} does not have a package available for your current platform, linux_amd64.`);
});

test('a Terraform older than 1.11 is refused at ConfigureProvider, before anything is read or written, in one line', async () => {
  const handlers = providerHandlers(coreModel({}), { log: () => undefined }, {});
  const old = await handlers.ConfigureProvider!({ terraformVersion: '1.10.5' });
  expect(old.diagnostics).toEqual([expect.objectContaining({
    summary: "Terraform 1.10.5 is too old for the reseller provider, which needs Terraform >= 1.11 (write-only attributes keep mailbox passwords out of state): upgrade Terraform, or synthesize the stack with engine 'terraform_data' (Terraform >= 1.4)",
    detail: '',
  })]);
  const current = await handlers.ConfigureProvider!({ terraformVersion: '1.11.4' });
  expect(JSON.stringify(current.diagnostics ?? [])).not.toMatch(/too old/);
  // A Terraform that offers protocol 5 only (before 0.15.4) gets one line where it reads the handshake.
  const v5 = spawnSync(exe.executable('linux_amd64'), [], { encoding: 'utf8', env: { ...pluginEnv(), PLUGIN_PROTOCOL_VERSIONS: '5' }, timeout: 60_000 });
  expect({ status: v5.status, stdout: v5.stdout }).toEqual({ status: 1, stdout: 'This provider speaks plugin protocol 6; this Terraform offers 5. Use Terraform >= 1.11.\n' });
});

test('a stack directory synthesized for executables holds the zips (packed layout) and both platforms\' hashes; the launcher replaces them again', () => {
  const outdir = tempDir('synth');
  const stacks = synthStacks(outdir, [{ name: 'both', engine: 'provider', domain: 'both.example.com', providerPlatforms: ['linux_amd64', 'linux_arm64'] }]);
  const typeDir = join(stacks.both, 'terraform.d', 'plugins', ...mirrorPackageSegments(exe.version, 'x').slice(0, 3));
  const listing = spawnSync('ls', [typeDir], { encoding: 'utf8' }).stdout.trim().split('\n');
  expect(listing).toEqual([`terraform-provider-reseller_${exe.version}_linux_amd64.zip`, `terraform-provider-reseller_${exe.version}_linux_arm64.zip`]);
  const lock = readFileSync(join(stacks.both, '.terraform.lock.hcl'), 'utf8');
  for (const [i, platform] of ['linux_amd64', 'linux_arm64'].entries()) {
    const zip = readFileSync(exe.zip(platform));
    expect(readFileSync(join(typeDir, listing[i])).equals(zip)).toBe(true);
    expect(lock).toContain(`"${zipHash(zip)}"`);
    expect(lock).toContain(`"${filesHash(readZip(zip))}"`);
  }
  expect(lock.match(/"(h1|zh):/g)).toHaveLength(4);

  synthStacks(outdir, [{ name: 'both', engine: 'provider', domain: 'both.example.com' }]);
  expect(spawnSync('ls', [typeDir], { encoding: 'utf8' }).stdout.trim().split('\n')).toEqual([exe.version]);
  expect(readFileSync(join(stacks.both, '.terraform.lock.hcl'), 'utf8').match(/"(h1|zh):/g)).toHaveLength(1);
});
