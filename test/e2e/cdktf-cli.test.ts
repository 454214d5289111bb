import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { EXAMPLE_STACK_NAME } from '../../examples/stack';
import { mailOf } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, E2EEmulator, leaksOf, managedResourceCounts, readText, requireTerraform, startE2EEmulator, tempDir } from './support';

/**
 * `npx cdktf deploy` / `npx cdktf destroy` (cdktf-cli) as users run them in CI: from the
 * repository root with the root cdktf.json (its `app` compiles and runs
 * examples/main.ts), against the emulator. Only the output directory differs
 * (`--output <tmpdir>`), so the repository's cdktf.out is never touched.
 *
 * Offline and quick: CI=true (no prompts, plain output), CHECKPOINT_DISABLE=1 (cdktf-cli's
 * telemetry reporter and Terraform's checkpoint both return early), DISABLE_VERSION_CHECK
 * (no npm look-up for a newer cdktf), CDKTF_DISABLE_PLUGIN_CACHE_ENV (no
 * ~/.terraform.d/plugin-cache, no TF_PLUGIN_CACHE_DIR), CDKTF_HOME in a temp dir, the
 * project's TF_CLI_CONFIG_FILE, and no SYNTH_HCL_OUTPUT. cdk.tf.json's crash reporting is
 * off in cdktf.json (`sendCrashReports: "false"`).
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const API_KEY = 'e2e-CDKTF-apikey-0d6b3f8a91c4';
const PASSWORD = 'Xq7!cdktf-cli-mailbox-pw-44ae';
/** Each cdktf-cli run is killed (process group) after this long, so a hang fails the test instead of leaking processes. */
const RUN_LIMIT_MS = 150_000;

let emu: E2EEmulator;
let dir: string;
let outdir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireTerraform(); // cdktf-cli runs `terraform` from PATH: no Terraform, every test fails with the install hint
  dir = tempDir('cdktf-cli');
  outdir = join(dir, 'cdktf.out');
  emu = await startE2EEmulator({ dir, apiKey: API_KEY, provisionDelayMs: 300 });
  env = { ...process.env };
  for (const name of ['SYNTH_HCL_OUTPUT', 'TF_PLUGIN_CACHE_DIR', 'CDKTF_LOG_FILE_DIRECTORY', 'CDKTF_CONTEXT_JSON', 'NODE_ENV', 'TF_VAR_mailbox_password']) delete env[name];
  Object.assign(env, {
    CI: 'true',
    CHECKPOINT_DISABLE: '1',
    DISABLE_VERSION_CHECK: 'true',
    CDKTF_DISABLE_PLUGIN_CACHE_ENV: 'true',
    CDKTF_HOME: join(dir, 'cdktf-home'),
    TF_CLI_CONFIG_FILE: join(REPO_ROOT, 'terraformrc'),
    TF_IN_AUTOMATION: '1',
    FORCE_COLOR: '0',
    RESELLER_API_URL: emu.url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: join(dir, 'journal'),
    RESELLER_POLL_INTERVAL: '100ms',
    TF_VAR_mailbox_password: PASSWORD,
  });
});
afterAll(() => emu?.stop());

interface CliRun {
  code: number | null;
  output: string;
}

/** `npx --no cdktf <args>` in the repository root; `--no`: never install anything. */
function cdktf(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no', 'cdktf', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[test] cdktf ${args[0]} still running after ${RUN_LIMIT_MS} ms: killed\n`;
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

function expectSuccess(run: CliRun, what: string): void {
  if (run.code !== 0) throw new Error(`npx cdktf ${what} exited ${run.code}:\n${run.output}`);
}

const stackDir = () => join(outdir, 'stacks', EXAMPLE_STACK_NAME);

/** The example's resources with the engine provider (the default): one reseller_* resource per construct. */
const EXAMPLE_RESOURCES = { reseller_package: 3, reseller_mailbox: 3, reseller_forwarder: 2, reseller_cloud_server: 1 };

test('npx cdktf deploy --auto-approve creates the example in the account', async () => {
  const run = await cdktf(['deploy', '--auto-approve', '--output', outdir]);
  expectSuccess(run, 'deploy');
  // From the state, not from the "Apply complete!" line: cdktf-cli may drop Terraform's last lines (managedResourceCounts).
  expect(managedResourceCounts(stackDir())).toEqual(EXAMPLE_RESOURCES);

  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  expect(mailOf(account, 'example-shop.com').mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
  expect(mailOf(account, 'example-shop.com').forwarders.map((f) => f.remote)).toEqual(['sales-team@example.org']);
  expect(mailOf(account, 'example-blog.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(mailOf(account, 'example-blog.com').forwarders.map((f) => f.local)).toEqual(['tips']);
  expect(account.cloudServers.map((s) => [s.name, s.state])).toEqual([['web1.example-shop.com', 'ready']]);

  // The stack went to --output, state included (LocalBackend path relative to the stack).
  expect(existsSync(join(outdir, 'manifest.json'))).toBe(true);
  expect(existsSync(join(stackDir(), 'terraform.tfstate'))).toBe(true);
  const files = { 'cdk.tf.json': readText(join(stackDir(), 'cdk.tf.json')), 'terraform.tfstate': readText(join(stackDir(), 'terraform.tfstate')) };
  expect(leaksOf(PASSWORD, { ...files, output: run.output })).toEqual([]);
  expect(leaksOf(API_KEY, { ...files, output: run.output })).toEqual([]);
});

test('npx cdktf destroy --auto-approve removes every package and mail object; the server stays, with the warning', async () => {
  const run = await cdktf(['destroy', '--auto-approve', '--output', outdir]);
  expectSuccess(run, 'destroy');
  expect(managedResourceCounts(stackDir())).toEqual({});
  // Terraform prints the warning just before its summary. cdktf-cli stops reading at
  // Terraform's exit and may lose both (managedResourceCounts); whenever the summary came
  // through, the warning must have come before it.
  const warned = /cloud server web1\.example-shop\.com \(id \d+\) was NOT cancelled[\s\S]*billing continues[\s\S]*Destroy complete! Resources: 9 destroyed/;
  if (/Destroy complete!/.test(run.output)) expect(run.output).toMatch(warned);

  const account = emu.account();
  expect(account.packages).toEqual([]); // and so no mail objects
  expect(account.cloudServers.map((s) => s.name)).toEqual(['web1.example-shop.com']);
  expect(leaksOf(PASSWORD, { output: run.output })).toEqual([]);
  expect(leaksOf(API_KEY, { output: run.output })).toEqual([]);
});
