import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { CloudProvider, ManagedCloudServer, ResellerHosting } from '../../src';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform, ProvisionerFailed, summary } from '../helpers/mini-terraform';
import { requestLog, tempDir } from './support';

/**
 * A managed cloud server whose settings resource is replaced (a settings change, or
 * `terraform apply -replace` of it): ensure must never order, and charge for, a second
 * server behind a plan that says "update". The server is "cancelled outside Terraform"
 * by resetting the emulator (the API has no cancel operation; the stack holds nothing else).
 */
const HOST = 'web9.example.com';

function serverStack(outdir: string, options: { branded?: boolean; timeoutMinutes?: number } = {}) {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'cloud');
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' }); // the handler's path (the mini Terraform runs provisioners)
  new ManagedCloudServer(stack, 'web9', {
    hostName: HOST, provider: CloudProvider.NATIVE, spec: 'small', zone: 'dc_location-uk', forUser: 'stack-user:989901',
    branded: options.branded ?? false, timeoutMinutes: options.timeoutMinutes,
  });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', 'cloud', 'cdk.tf.json'), 'utf8'));
}

let emu: TestEmulator;
let outdir: string;
let tf: MiniTerraform;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 100 });
  outdir = tempDir('reseller-cloud-');
  tf = new MiniTerraform(join(outdir, 'stacks', 'cloud'), handlerEnv(emu.url, tempDir('journal-')));
});
afterAll(() => emu?.stop());

const orders = async () => (await requestLog(emu)).filter((r) => r.method === 'POST' && r.path.endsWith('/addCloudServer'));

test('the first apply orders the server once, from the settings resource', async () => {
  const runs = await tf.apply(serverStack(outdir));
  expect(summary(runs)).toEqual(['terraform_data.web9_settings ensure']);
  expect(runs[0].stdout).toMatch(/ordered cloud server web9\.example\.com \(id \d+\): native small in dc_location-uk/);
  expect(emu.account().cloudServers.map((s) => s.name)).toEqual([HOST]);
  expect(await orders()).toHaveLength(1);
});

test('a settings change of a listed server reconciles it without ordering', async () => {
  await emu.control('DELETE', 'requests');
  const runs = await tf.apply(serverStack(outdir, { branded: true }));
  expect(summary(runs)).toEqual(['terraform_data.web9_settings retire-settings', 'terraform_data.web9_settings ensure']);
  expect(runs[1].stdout).toMatch(/cloud server web9\.example\.com \(id \d+\)/);
  expect(await orders()).toEqual([]);
  expect(emu.account().cloudServers).toHaveLength(1);
});

test('a server cancelled outside Terraform plus a settings change: exit 1, a clear message, and no new order', async () => {
  await emu.control('POST', 'reset'); // the server is gone (and the request log is cleared)
  const balance = emu.account().balance;
  const failed = tf.apply(serverStack(outdir, { branded: false }));
  await expect(failed).rejects.toThrow(ProvisionerFailed);
  const ensure = tf.runs[tf.runs.length - 1];
  expect(`${ensure.address} ${ensure.command}`).toBe('terraform_data.web9_settings ensure');
  expect(ensure.code).toBe(1);
  expect(ensure.stderr).toMatch(/cloud\/web9: cloud server web9\.example\.com is not listed in the account \(cancelled outside Terraform\?\)/);
  expect(ensure.stderr).toMatch(/to order a new one \(charged\), replace its object resource: terraform apply -replace=/);
  expect(await orders()).toEqual([]);
  expect((await requestLog(emu)).filter((r) => r.method === 'POST')).toEqual([]);
  expect(emu.account().cloudServers).toEqual([]);
  expect(emu.account().balance).toBe(balance); // nothing charged

  // Applying again (the settings resource is tainted: no retire-settings) does not order either.
  await expect(tf.apply(serverStack(outdir, { branded: false }))).rejects.toThrow(/is not listed in the account/);
  expect(tf.runs[tf.runs.length - 1].command).toBe('ensure');
  expect(await orders()).toEqual([]);
  expect(emu.account().cloudServers).toEqual([]);
});

test('the remedy the message names, -replace of the object resource, orders a new server once', async () => {
  // Right after the error, as a user following its advice would. The first order was
  // listed (then cancelled): nothing is provisioning, so there is nothing to wait for.
  // timeoutMinutes is not a trigger: it only bounds this apply's wait (6 s, not 30 min).
  const config = serverStack(outdir, { branded: false, timeoutMinutes: 0.1 });
  const runs = await tf.apply(config, { replace: ['terraform_data.web9'] });
  expect(summary(runs)).toEqual(['terraform_data.web9 delete', 'terraform_data.web9_settings ensure']);
  expect(runs[1].stdout).toMatch(/ordered cloud server web9\.example\.com/);
  expect(await orders()).toHaveLength(1);
  expect(emu.account().cloudServers.map((s) => s.name)).toEqual([HOST]);
});
