import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { mailOf, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { configText, synthStacks } from './stacks';
import { builtExecutables, cliConfig, INSTALL_TIMEOUT_MS, providerEnv, tempDir, terraform, terraformOk } from './support';

/**
 * Installation 3: a remote run, as HCP Terraform (cdktf's documented remote backend)
 * and Atlantis do it. The app is synthesized here with `providerPlatforms`, the stack
 * directory packed as a tar.gz, unpacked in another directory with no node_modules
 * above it, and `terraform init`, `plan` and `apply` run there with no node on PATH and
 * an empty HOME: the provider engine and the terraform_data carriers (whose
 * provisioners run the executable's handler mode) both work.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

const PLATFORMS = ['linux_amd64', 'linux_arm64'];
let emu: TestEmulator;
let stacks: Record<string, string>;

beforeAll(async () => {
  builtExecutables();
  emu = await startTestEmulator();
  stacks = synthStacks(tempDir('synth'), [
    { name: 'remote-provider', engine: 'provider', domain: 'remote-provider.example.com', providerPlatforms: PLATFORMS },
    { name: 'remote-carriers', engine: 'terraform_data', domain: 'remote-carriers.example.com', providerPlatforms: PLATFORMS },
    { name: 'remote-launcher', engine: 'provider', domain: 'remote-launcher.example.com' },
  ]);
});

afterAll(async () => {
  await emu?.stop();
});

/** tar.gz of the stack directory, unpacked in a new directory elsewhere: the runner's copy. */
function shipAsTarball(stackDir: string): string {
  const archive = join(tempDir('upload'), 'stack.tar.gz');
  const pack = spawnSync('tar', ['-czf', archive, '-C', stackDir, '.'], { encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`tar -c: ${pack.stderr}`);
  const runnerDir = join(tempDir('runner'), 'workspace');
  mkdirSync(runnerDir);
  const unpack = spawnSync('tar', ['-xzf', archive, '-C', runnerDir], { encoding: 'utf8' });
  if (unpack.status !== 0) throw new Error(`tar -x: ${unpack.stderr}`);
  for (let dir = runnerDir; dirname(dir) !== dir; dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  return runnerDir;
}

describe.each([
  ['provider engine', 'remote-provider', 'remote-provider.example.com'],
  ['terraform_data carriers', 'remote-carriers', 'remote-carriers.example.com'],
])('a remote run of a stack synthesized for executables: %s', (_label, name, domain) => {
  test('init, plan and apply on a runner with Terraform alone; the next plan is empty', async () => {
    const text = configText(stacks[name]);
    // Nothing of this machine or of Node in the configuration.
    expect(text).not.toContain(REPO_ROOT);
    expect(text).not.toContain('reseller-hosting.js');
    expect(text).not.toMatch(/"node"/);
    const runnerDir = shipAsTarball(stacks[name]);
    const tf = { cwd: runnerDir, cliConfig: cliConfig(tempDir('cli')), env: providerEnv(emu.url) };
    await terraformOk(['init', '-input=false'], tf);
    // Only this machine's platform is unpacked, from the zip, executable.
    const installed = join(runnerDir, '.terraform', 'providers', 'reseller-hosting.local', 'cdktf', 'reseller');
    expect(readdirSync(join(installed, readdirSync(installed)[0]))).toEqual(['linux_amd64']);
    const plan = await terraform(['plan', '-input=false', '-detailed-exitcode'], tf);
    expect(plan.code).toBe(2);
    await terraformOk(['apply', '-auto-approve', '-input=false'], tf);
    const pkg = emu.account().packages.find((p) => p.name === domain);
    expect(pkg).toBeDefined();
    expect(mailOf(emu.account(), domain).forwarders).toHaveLength(1);
    expect(await terraform(['plan', '-input=false', '-detailed-exitcode'], tf)).toMatchObject({ code: 0 });
    expect(readFileSync(join(runnerDir, '.terraform.lock.hcl'), 'utf8').match(/"h1:/g)).toHaveLength(PLATFORMS.length);
  });
});

test('a remote run of a launcher stack stops at the first plan, saying to install Node or to synthesize with providerPlatforms', async () => {
  const runnerDir = shipAsTarball(stacks['remote-launcher']);
  const tf = { cwd: runnerDir, cliConfig: cliConfig(tempDir('cli')), env: providerEnv(emu.url) };
  await terraformOk(['init', '-input=false'], tf);
  const plan = await terraform(['plan', '-input=false'], tf);
  expect(plan.code).toBe(1);
  expect(plan.output.replace(/\s+/g, ' ')).toContain(
    "Unrecognized remote plugin message: reseller provider: this is the provider's Node launcher and 'node' is not on PATH: install Node.js >= 20 on this machine, " +
      "or synthesize the stack with ResellerHosting providerPlatforms (e.g. ['linux_amd64']) to place the self-contained executables",
  );
  expect(emu.account().packages.find((p) => p.name === 'remote-launcher.example.com')).toBeUndefined();
});
