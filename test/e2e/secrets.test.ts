import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import {
  E2E_TIMEOUT_MS, E2EEmulator, filesUnder, leaksOf, planExitCode, readText, requireTerraform, savedPlan, sha256, stackEnv,
  startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * Secrets audit with the real engine: the API key and the mailbox passwords (distinctive
 * values, so a hit cannot be a coincidence) must appear in no file Terraform or the
 * handler writes and in no output a CI log would keep: cdk.tf.json, the state and its
 * backup, the human plan, the JSON plan, apply/destroy output (handler lines included),
 * a failed apply's error, and the handler's journal. Each test also proves the secret
 * was really used (the emulator holds sha256(password); every request authenticated),
 * so an empty audit is not a vacuous one.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const API_KEY = 'e2e-AUDIT-apikey-5c1f9b7d2e8a4630';
const PASSWORD_1 = 'Xq7!audit-mailbox-pw-ONE-83f1';
const PASSWORD_2 = 'Xq7!audit-mailbox-pw-TWO-6b2d';
const PASSWORD_ENV = 'Xq7!audit-mailbox-pw-ENV-91ce';
const SECRETS = { API_KEY, PASSWORD_1, PASSWORD_2, PASSWORD_ENV };

let tf: string;
let emu: E2EEmulator;
let dir: string;

beforeAll(async () => {
  tf = requireTerraform(); // no Terraform: every test of this file fails with the install hint
  dir = tempDir('secrets');
  emu = await startE2EEmulator({ dir, apiKey: API_KEY, provisionDelayMs: 300 });
});
afterAll(() => emu?.stop());

/** Each named secret -> the names of the texts it leaks into (the audit passes with every list empty). */
function audit(texts: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(SECRETS).map(([name, secret]) => [name, leaksOf(secret, texts)]));
}
const CLEAN = { API_KEY: [], PASSWORD_1: [], PASSWORD_2: [], PASSWORD_ENV: [] };

/** Every file under the synthesized output and the handler journal, by path. Saved plan files are
 *  binary archives of the run's inputs and are audited through `terraform show` instead. */
function writtenFiles(...dirs: string[]): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const d of dirs) for (const f of filesUnder(d, (name) => name === 'p')) texts[f] = readText(f);
  return texts;
}

async function expectAllRequestsAuthenticated(): Promise<void> {
  const log = await emu.requests();
  expect(log.length).toBeGreaterThan(0);
  expect(log.filter((r) => r.account === null || r.status === 401)).toEqual([]);
}

test('the example stack (password from an ephemeral, sensitive variable): apply, rotate, plan, destroy leak nothing', async () => {
  const outdir = join(dir, 'example.out');
  const journalDir = join(dir, 'example.journal');
  const envWith = (password: string) => stackEnv({ url: emu.url, apiKey: API_KEY, password, journalDir });
  const outputs: Record<string, string> = {};
  const keep = (name: string, r: { stdout: string; stderr: string }) => {
    outputs[name] = r.stdout + r.stderr;
  };

  const { stackDir } = synthExample({}, outdir);
  keep('init', await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, envWith(PASSWORD_1)));
  keep('apply', await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, envWith(PASSWORD_1)));
  const hashes = () => mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => [m.local, m.passwordSha256]).sort();
  expect(hashes()).toEqual([['info', sha256(PASSWORD_1)], ['orders', sha256(PASSWORD_1)]]);
  const noChanges = await planExitCode(tf, stackDir, envWith(PASSWORD_1));
  expect(noChanges.code).toBe(0);
  outputs['plan -detailed-exitcode'] = noChanges.output;

  // Rotation: a new password value and a bumped version, reviewed as a saved plan, then applied.
  synthExample({ infoPasswordVersion: 2 }, outdir);
  const plan = await savedPlan(tf, stackDir, envWith(PASSWORD_2));
  expect(plan.changes).toEqual({ 'terraform_data.shop_info_settings': ['delete', 'create'] });
  outputs['plan -out'] = plan.planText;
  outputs['show (human)'] = plan.showText;
  keep('apply p', await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, envWith(PASSWORD_2)));
  expect(hashes()).toEqual([['info', sha256(PASSWORD_2)], ['orders', sha256(PASSWORD_1)]]);

  // The JSON plan: Terraform writes the values of root input variables into a saved plan,
  // sensitive or not (hashicorp/terraform#26737). The example's password variable is
  // ephemeral, so it is not recorded at all: the whole plan JSON is audited below.
  expect(plan.json.variables?.mailbox_password).toBeUndefined();
  outputs['show -json'] = plan.jsonText;
  expect(plan.json.configuration.root_module.variables.mailbox_password.sensitive).toBe(true);

  keep('destroy', await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], stackDir, envWith(PASSWORD_2)));
  expect(emu.account().packages).toEqual([]);

  const files = writtenFiles(outdir, journalDir);
  expect(Object.keys(files).filter((f) => f.startsWith(journalDir)).length).toBeGreaterThan(0); // the journal was written, and is audited
  expect(Object.keys(files)).toEqual(expect.arrayContaining([
    join(stackDir, 'cdk.tf.json'), join(stackDir, 'terraform.tfstate'), join(stackDir, 'terraform.tfstate.backup'),
  ]));
  expect(audit({ ...files, ...outputs })).toEqual(CLEAN);
  await expectAllRequestsAuthenticated();
});

/** A small stack whose mailbox password comes from an environment variable of the apply (passwordEnv). */
function synthPasswordEnvStack(outdir: string, passwordVersion: number): string {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'audit-env');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' }); // passwordEnv: a carrier's way
  const site = new HostingPackage(stack, 'site', {
    domainName: 'audit-env.example.com', packageType: 'Linux Starter', stackUser: 'stack-user:989902',
  });
  new Mailbox(stack, 'admin', { package: site, localPart: 'admin', passwordEnv: 'AUDIT_MAILBOX_PASSWORD', passwordVersion });
  app.synth();
  return join(outdir, 'stacks', 'audit-env');
}

test('passwordEnv keeps the password out of even the JSON plan, and out of handler output and errors', async () => {
  const outdir = join(dir, 'env.out');
  const journalDir = join(dir, 'env.journal');
  const env = stackEnv({ url: emu.url, apiKey: API_KEY, journalDir, extra: { AUDIT_MAILBOX_PASSWORD: PASSWORD_ENV } });
  const outputs: Record<string, string> = {};

  let stackDir = synthPasswordEnvStack(outdir, 1);
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  let plan = await savedPlan(tf, stackDir, env);
  outputs['plan 1'] = plan.planText + plan.showText + plan.jsonText;
  const applied = await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env);
  outputs['apply 1'] = applied.stdout + applied.stderr;
  // No sensitive value in the configuration, so Terraform shows the handler's lines: audit them for real.
  expect(outputs['apply 1']).toMatch(/created mailbox admin@audit-env\.example\.com/);
  const admin = () => mailOf(emu.account(), 'audit-env.example.com').mailboxes.find((m) => m.local === 'admin')!;
  expect(admin().passwordSha256).toBe(sha256(PASSWORD_ENV));

  // A rotation whose API write fails: the error reaches the output, the password does not.
  stackDir = synthPasswordEnvStack(outdir, 2);
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: '^/package/[^/]+/email/', status: 400 }] });
  const failed = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env, [1]);
  outputs['failed apply'] = failed.stdout + failed.stderr;
  expect(outputs['failed apply']).toMatch(/error: ensure audit-env\/admin \(mailbox\): .*400/);
  expect(outputs['failed apply']).toMatch(/Error running command 'ensure'/);
  await emu.control('DELETE', 'faults');

  plan = await savedPlan(tf, stackDir, env); // the tainted settings resource is replaced
  outputs['plan 2'] = plan.planText + plan.showText + plan.jsonText;
  expect(plan.changes).toEqual({ 'terraform_data.admin_settings': ['delete', 'create'] });
  const rotated = await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env);
  outputs['apply 2'] = rotated.stdout + rotated.stderr;
  expect(admin().passwordSha256).toBe(sha256(PASSWORD_ENV));

  const destroyed = await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], stackDir, env);
  outputs.destroy = destroyed.stdout + destroyed.stderr;
  expect(emu.account().packages).toEqual([]);

  expect(audit({ ...writtenFiles(outdir, journalDir), ...outputs })).toEqual(CLEAN);
  await expectAllRequestsAuthenticated();
});
