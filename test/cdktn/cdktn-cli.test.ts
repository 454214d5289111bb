import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { EXAMPLE_STACK_NAME } from '../../examples/stack';
import { mailOf } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, E2EEmulator, leaksOf, managedResourceCounts, readText, requireTerraform, startE2EEmulator, tempDir } from '../e2e/support';
import { createUserProject, packLibrary, repoVersion, UserProject, userEnv } from './user-project';

/**
 * `cdktn deploy` (cdktn-cli, CDK Terrain's CLI) in a user's project: the packed library,
 * cdktn and constructs, the example stack, against the emulator.
 *
 * cdktn-cli requires Node >= 22.19 (its `engines`), and this project supports Node 20:
 * the CLI runs on a Node 22 taken from the npm registry (the `node` package, which
 * installs the platform's `node-<os>-<arch>` package), installed into the test's project
 * only. Not a dev dependency of this repository: its `node` binary would land in
 * node_modules/.bin and so run every npm script (the whole test suite) on Node 22.
 * Both are fetched with `--prefer-offline`: from the npm cache after the first run.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

/** cdktn-cli of the cdktn release this repository tests (package-lock's cdktn). */
const CDKTN_CLI_VERSION = '0.24.0';
/** A Node that satisfies cdktn-cli's `engines` (>= 22.19). */
const NODE_FOR_CLI = '22.23.3';
const API_KEY = 'cdktn-cli-key-8c02e4';
const PASSWORD = 'Xq7!cdktn-cli-mailbox-pw-19bd';
/** Each cdktn run is killed (process group) after this long, so a hang fails the test instead of leaking processes. */
const RUN_LIMIT_MS = 150_000;

let dir: string;
let project: UserProject;
let emu: E2EEmulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireTerraform();
  dir = tempDir('cdktn-cli');
  project = createUserProject(join(dir, 'app'), packLibrary(dir), 'cdktn', {
    devDependencies: { 'cdktn-cli': CDKTN_CLI_VERSION, node: NODE_FOR_CLI },
    scripts: true, // the `node` package installs its binary in a preinstall script
  });
  // The app as `cdktn synth` runs it: compiled first (the template's `npx ts-node main.ts` would need ts-node).
  project.synthExample();
  writeFileSync(join(project.dir, 'cdktf.json'), JSON.stringify({
    language: 'typescript', app: 'node main.js', sendCrashReports: 'false', terraformProviders: [], terraformModules: [], context: {},
  }));
  emu = await startE2EEmulator({ dir, apiKey: API_KEY, provisionDelayMs: 300 });
  env = userEnv({
    // The project's node_modules/.bin first: cdktn, and the Node 22 that runs it, the app and the handler.
    PATH: [join(project.dir, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
    CI: 'true',
    CHECKPOINT_DISABLE: '1',
    DISABLE_VERSION_CHECK: 'true',
    CDKTF_DISABLE_PLUGIN_CACHE_ENV: 'true',
    CDKTF_HOME: join(dir, 'cdktn-home'),
    TF_CLI_CONFIG_FILE: join(REPO_ROOT, 'terraformrc'),
    TF_IN_AUTOMATION: '1',
    FORCE_COLOR: '0',
    RESELLER_API_URL: emu.url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: join(dir, 'journal'),
    RESELLER_POLL_INTERVAL: '100ms',
    TF_VAR_mailbox_password: PASSWORD,
  });
  for (const name of ['SYNTH_HCL_OUTPUT', 'TF_PLUGIN_CACHE_DIR', 'CDKTF_LOG_FILE_DIRECTORY', 'CDKTF_CONTEXT_JSON', 'NODE_ENV']) delete env[name];
}, 300_000);
afterAll(() => emu?.stop());

/** Runs `<project>/node_modules/.bin/<command> <args>` in the project; its exit code and output (colours stripped). */
function runBin(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(project.dir, 'node_modules', '.bin', command), args, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[test] ${command} ${args[0]} still running after ${RUN_LIMIT_MS} ms: killed\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, RUN_LIMIT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // eslint-disable-next-line no-control-regex
      resolve({ code, output: output.replace(/\u001b\[[0-9;]*m/g, '') });
    });
  });
}

test('the CLI runs on the Node 22 from the npm registry, and the project has no cdktf', async () => {
  const version = await runBin('node', ['--version']);
  expect(version.output.trim()).toBe(`v${NODE_FOR_CLI}`);
  const cli = await runBin('cdktn', ['--version']);
  expect(cli.code).toBe(0);
  expect(cli.output).toContain(CDKTN_CLI_VERSION);
  expect(existsSync(join(project.dir, 'node_modules', 'cdktf'))).toBe(false);
});

test('cdktn deploy --auto-approve creates the example in the account, without leaking a secret', async () => {
  const run = await runBin('cdktn', ['deploy', '--auto-approve']);
  if (run.code !== 0) throw new Error(`cdktn deploy exited ${run.code}:\n${run.output}`);

  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  expect(mailOf(account, 'example-shop.com').mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
  expect(mailOf(account, 'example-blog.com').forwarders.map((f) => f.local)).toEqual(['tips']);
  expect(account.cloudServers.map((s) => [s.name, s.state])).toEqual([['web1.example-shop.com', 'ready']]);

  const stackDir = join(project.dir, 'cdktf.out', 'stacks', EXAMPLE_STACK_NAME);
  // The default engine: one reseller_* resource per construct, the provider placed in the stack directory at synth.
  // Counted in the state: cdktn-cli, like cdktf-cli, may drop Terraform's last lines (managedResourceCounts).
  expect(managedResourceCounts(stackDir)).toEqual({ reseller_package: 3, reseller_mailbox: 3, reseller_forwarder: 2, reseller_cloud_server: 1 });
  const files = { 'cdk.tf.json': readText(join(stackDir, 'cdk.tf.json')), 'terraform.tfstate': readText(join(stackDir, 'terraform.tfstate')) };
  expect(JSON.parse(files['cdk.tf.json'])['//'].metadata.version).toBe(repoVersion('cdktn')); // synthesized by cdktn
  expect(leaksOf(PASSWORD, { ...files, output: run.output })).toEqual([]);
  expect(leaksOf(API_KEY, { ...files, output: run.output })).toEqual([]);
});
