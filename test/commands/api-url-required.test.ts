import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDoctorCli } from '../../src/commands/doctor';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import { runSweepCli } from '../../src/commands/sweep';
import { MISSING_API_URL } from '../../src/protocol';
import { capture, runBinary } from '../drift/helpers';
import { synthExample } from '../helpers/synth';
import { E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * DESIGN §1: there is no silent default API URL. Without RESELLER_API_URL (or the
 * stack's apiUrl / the provider block's api_url) every engine and every command that
 * talks to the API stops with one line naming RESELLER_API_URL, before any request: a
 * CI job that forgot the setting is told so, instead of "connection refused" at an
 * address nobody chose (0.1 fell back to the emulator's http://127.0.0.1:8080).
 */
jest.setTimeout(E2E_TIMEOUT_MS);

/** A key, a private journal, nothing else of this process's connection. */
function withoutUrl(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, RESELLER_API_KEY: 'some-key', RESELLER_HANDLER_STATE_DIR: join(dir, 'journal'), TF_VAR_mailbox_password: 'Some-Passw0rd!' };
  delete env.RESELLER_API_URL;
  delete env.RESELLER_ID;
  return env;
}

test('the message names the variable, the real service and the emulator', () => {
  expect(MISSING_API_URL).toMatch(/^RESELLER_API_URL is not set: /);
  expect(MISSING_API_URL).toContain('https://api.20i.com');
  expect(MISSING_API_URL).toContain('reseller-hosting emulator');
});

test('the provider engine: terraform plan stops with the missing URL, naming RESELLER_API_URL', async () => {
  const tf = requireTerraform();
  const dir = tempDir('no-url-provider');
  const { stackDir } = synthExample({ engine: 'provider' }, join(dir, 'cdktf.out'));
  const env = withoutUrl(dir);
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  const plan = await terraform(tf, ['plan', '-input=false', '-no-color'], stackDir, env, [1]);
  expect(plan.stderr).toContain('Missing API URL: set api_url or RESELLER_API_URL');
  // Terraform wraps a diagnostic's detail: the words are the message's.
  expect(plan.stderr.replace(/\s+/g, ' ')).toContain(MISSING_API_URL);
});

test('the terraform_data engine: the first provisioner fails with the one line, and nothing is sent anywhere', async () => {
  const tf = requireTerraform();
  const dir = tempDir('no-url-carrier');
  const { stackDir } = synthExample({ engine: 'terraform_data' }, join(dir, 'cdktf.out'));
  const env = withoutUrl(dir);
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  const apply = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=1'], stackDir, env, [1]);
  expect(apply.stdout + apply.stderr).toContain('error: RESELLER_API_URL is not set: export the reseller API');
  expect(apply.stdout + apply.stderr).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:8080/);
});

test('the handler itself (the null_resource engine runs the same command)', async () => {
  const dir = tempDir('no-url-handler');
  const spec = JSON.stringify({ kind: 'package', path: 'app/site', domainName: 'no-url.example', extraDomainNames: [], packageType: 'Linux Starter', enabled: true });
  const run = await runBinary(['handler', 'ensure'], { ...withoutUrl(dir), RESELLER_SPEC: spec, RESELLER_HANDLER_HOST: 'off' }, dir);
  expect(run.code).toBe(1);
  expect(run.stderr.trim()).toBe(`error: ${MISSING_API_URL}`);
});

test('drift, import and sweep stop with the one line (exit 1); doctor fails its first check with it', async () => {
  const dir = tempDir('no-url-commands');
  const env = withoutUrl(dir);
  // A synthesized provider-engine stack without api_url.
  mkdirSync(join(dir, 'cdktf.out', 'stacks', 'site'), { recursive: true });
  writeFileSync(join(dir, 'cdktf.out', 'stacks', 'site', 'cdk.tf.json'), JSON.stringify({
    resource: { reseller_package: { site: { domain_name: 'no-url.example', package_type: 'Linux Starter' } } },
  }));
  for (const [name, command, argv] of [
    ['drift', runDriftCli, []],
    ['import', runImportCli, []],
    ['import', runImportCli, ['--blocks']],
    ['sweep', runSweepCli, ['--prefix', 'tfacc-']],
  ] as const) {
    const run = await capture(command, [...argv], env, dir);
    expect([name, argv, run.code, run.stdout, run.stderr]).toEqual([name, argv, 1, '', `reseller-hosting ${name}: error: ${MISSING_API_URL}\n`]);
  }
  const doctor = await capture(runDoctorCli, ['--json'], env, dir);
  expect(doctor.code).toBe(1);
  const report = JSON.parse(doctor.stdout);
  expect(report.checks[0]).toMatchObject({ check: 'the API URL answers', status: 'failed', detail: MISSING_API_URL });
});
