import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { runTerraform } from '../../scripts/lib/terraform';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, savedPlan, tempDir, terraform } from '../e2e/support';

/**
 * The native provider with the kinds around a cloud server, under real Terraform:
 * stack users (create, import by e-mail and by stack-user:N), a cloud server whose
 * wait logs progress and honours `timeouts`, and whose destroy keeps it running with
 * a warning; `import {}` with -generate-config-out.
 */

let tf: string;
let emu: TestEmulator;
let dir: string;
let source: string;

type Resources = Record<string, Record<string, Record<string, unknown>>>;

function writeConfig(resources: Resources, extra: Record<string, unknown> = {}): void {
  const doc = { terraform: { required_providers: { reseller: { source } } }, provider: { reseller: { api_url: emu.url } }, resource: resources, ...extra };
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(doc, null, 2));
}

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms', RESELLER_PROGRESS_INTERVAL_MS: '100', ...extra,
});
const planCode = async () => (await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, env(), [0, 2])).code;

const serverStack = (): Resources => ({
  reseller_stack_user: { owner: { email: 'cloud-owner@example.com', person_name: 'Cloud Owner' } },
  reseller_cloud_server: {
    web: {
      host_name: 'web1.provider-cloud.com', cloud_provider: 'native', spec: 'small', zone: 'dc_location-uk',
      for_user: '${reseller_stack_user.owner.email}', timeouts: { create: '5m' },
    },
  },
  reseller_package: { app: { domain_name: 'app.provider-cloud.com', cloud_server: '${reseller_cloud_server.web.host_name}' } },
});

beforeAll(async () => {
  tf = requireTerraform();
  const installer = builtProviderInstaller();
  source = installer.PROVIDER_SOURCE;
  emu = await startTestEmulator({ provisionDelayMs: 1500 });
  dir = tempDir('provider-cloud');
  installer.installProvider(join(dir, 'terraform.d', 'plugins'));
  writeConfig(serverStack());
  await terraform(tf, ['init', '-input=false', '-no-color'], dir, env());
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  await emu?.stop();
});

describe('native provider: stack users and cloud servers', () => {
  it('creates a user, orders a server (progress in TF_LOG=info) and places a package on it; a re-plan is empty', async () => {
    const applied = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env({ TF_LOG: 'info' }));
    expect(applied.stdout + applied.stderr).toMatch(/provider\.terraform-provider-reseller_v[^:]*: waiting for cloud server web1\.provider-cloud\.com/);
    const account = emu.account();
    const server = account.cloudServers.find((s) => s.name === 'web1.provider-cloud.com')!;
    expect(server).toMatchObject({ spec: 'small', zone: 'dc_location-uk' });
    const user = account.users.find((u) => u.contact.email === 'cloud-owner@example.com')!;
    expect(server.forUser).toBe(user.ref);
    expect(account.packages.find((p) => p.name === 'app.provider-cloud.com')!.cloudServerId).toBe(server.id);
    expect(await planCode()).toBe(0);
    const state = JSON.parse((await terraform(tf, ['show', '-json'], dir, env())).stdout);
    const values = (address: string) => state.values.root_module.resources.find((r: any) => r.address === address).values;
    expect(values('reseller_cloud_server.web')).toMatchObject({ id: 'web1.provider-cloud.com', server_id: server.id });
    expect(values('reseller_stack_user.owner')).toMatchObject({ id: 'cloud-owner@example.com', user_ref: user.ref });
  }, E2E_TIMEOUT_MS);

  it('imports users by e-mail and by stack-user:N, and writes configuration for an import block (-generate-config-out)', async () => {
    const ops = emu.account().users.find((u) => u.contact.email === 'ops@example.org')!;
    const resources = serverStack();
    resources.reseller_stack_user.ops = { email: 'ops@example.org' };
    writeConfig(resources, { import: [{ to: 'reseller_stack_user.ops', id: ops.ref }, { to: 'reseller_package.generated', id: 'app.provider-cloud.com' }] });
    rmGenerated();
    const plan = await terraform(tf, ['plan', '-input=false', '-no-color', '-generate-config-out=generated.tf'], dir, env(), [0, 2]);
    expect(plan.stdout).toMatch(/Plan: 2 to import, 0 to add, 0 to change, 0 to destroy/);
    const generated = readFileSync(join(dir, 'generated.tf'), 'utf8');
    expect(generated).toMatch(/resource "reseller_package" "generated" \{/);
    expect(generated).toMatch(/domain_name\s+= "app.provider-cloud.com"/);
    expect(generated).toMatch(/cloud_server\s+= "web1.provider-cloud.com"/);
    rmGenerated();
    writeConfig(resources, { import: [{ to: 'reseller_stack_user.ops', id: ops.ref }] });
    const imported = await savedPlan(tf, dir, env());
    expect(imported.changes).toEqual({});
    await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], dir, env());
    writeConfig(resources);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('gives up a cloud server wait at its timeouts.create, then adopts the ordered server on the next apply', async () => {
    const resources = serverStack();
    resources.reseller_stack_user.ops = { email: 'ops@example.org' };
    resources.reseller_cloud_server.slow = {
      host_name: 'web2.provider-cloud.com', cloud_provider: 'native', spec: 'micro', zone: 'dc_location-uk',
      for_user: 'ops@example.org', timeouts: { create: '1s' },
    };
    writeConfig(resources);
    const failed = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env(), [1]);
    expect(failed.stderr).toMatch(/Could not create the cloud server web2\.provider-cloud\.com/);
    expect(emu.account().cloudServers.filter((s) => s.name === 'web2.provider-cloud.com')).toHaveLength(1);
    (resources.reseller_cloud_server.slow as { timeouts: unknown }).timeouts = { create: '2m' };
    writeConfig(resources);
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env());
    expect(emu.account().cloudServers.filter((s) => s.name === 'web2.provider-cloud.com')).toHaveLength(1); // adopted, not ordered twice
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('destroying a cloud server removes it from state with a warning and leaves it running', async () => {
    const resources = serverStack();
    resources.reseller_stack_user.ops = { email: 'ops@example.org' };
    delete resources.reseller_cloud_server;
    delete resources.reseller_package;
    writeConfig(resources);
    const plan = await savedPlan(tf, dir, env());
    expect(plan.changes).toEqual({ 'reseller_cloud_server.web': ['delete'], 'reseller_cloud_server.slow': ['delete'], 'reseller_package.app': ['delete'] });
    const applied = await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], dir, env());
    expect(applied.stdout + applied.stderr).toMatch(/Warning:[\s\S]*web1\.provider-cloud\.com[\s\S]*NOT cancelled/);
    expect(emu.account().cloudServers.map((s) => s.name)).toContain('web1.provider-cloud.com');
    expect(emu.account().packages.map((p) => p.name)).not.toContain('app.provider-cloud.com');
    const state = JSON.parse((await terraform(tf, ['show', '-json'], dir, env())).stdout);
    expect(state.values.root_module.resources.map((r: any) => r.address).sort()).toEqual(['reseller_stack_user.ops', 'reseller_stack_user.owner']);
  }, E2E_TIMEOUT_MS);

  it('a Ctrl-C while a cloud server provisions ends the wait at once (StopProvider), says the order stands, and the next apply adopts it', async () => {
    const host = 'web3.provider-cloud.com';
    await emu.control('POST', 'settings', { provisionDelayMs: 86_400_000 }); // provisions for a day
    const resources = serverStack();
    resources.reseller_stack_user.ops = { email: 'ops@example.org' };
    resources.reseller_cloud_server = { late: { host_name: host, cloud_provider: 'native', spec: 'micro', zone: 'dc_location-uk', timeouts: { create: '60m' } } };
    delete resources.reseller_package;
    writeConfig(resources);
    // Neither a progress line nor a poll comes within the hour: only the stop can end the wait.
    const slow = env({ RESELLER_POLL_INTERVAL: '3600000ms', RESELLER_PROGRESS_INTERVAL_MS: '3600000' });
    // Once the order is placed, the provider is waiting for the server.
    const stopped = await applyInterruptedWhen(() => emu.account().cloudServers.some((s) => s.name === host), slow);
    expect(stopped.code).toBe(1);
    const ordered = emu.account().cloudServers.filter((s) => s.name === host);
    expect(ordered).toHaveLength(1);
    expect(stopped.stderr.replace(/\s+/g, ' ')).toContain(
      `stopped while waiting for cloud server ${host}: Terraform asked the provider to stop. The order (id ${ordered[0].id}) stands and is not placed again: apply again to wait for the server`,
    );
    await emu.control('POST', 'settings', { provisionDelayMs: 0 });
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env());
    expect(emu.account().cloudServers.filter((s) => s.name === host)).toHaveLength(1); // adopted, not ordered twice
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a Ctrl-C while the API asks to retry later (429, Retry-After: 1 h) ends the wait at once; nothing was written, the next apply creates', async () => {
    const domain = 'stop.provider-cloud.com';
    writeConfig(withOnePackage('stop', domain));
    await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: 'addWeb$', status: 429, retryAfterS: 3600, times: 1 }] });
    // Once the API has answered 429, the provider waits to retry (the client's cap: a minute).
    const stopped = await applyInterruptedWhen(faultFired, env());
    await emu.control('DELETE', 'faults');
    expect(stopped.code).toBe(1);
    expect(stopped.stderr.replace(/\s+/g, ' ')).toMatch(/Could not create the package stop\.provider-cloud\.com .*stopped: Terraform asked the provider to stop/);
    expect(emu.account().packages.map((p) => p.name)).not.toContain(domain); // a 429 writes nothing
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env());
    expect(emu.account().packages.filter((p) => p.name === domain)).toHaveLength(1);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a server ordered for a user number the account lacks fails the plan, naming for_user; nothing is ordered', async () => {
    const resources = serverStack();
    resources.reseller_stack_user.ops = { email: 'ops@example.org' };
    resources.reseller_cloud_server = { lost: { host_name: 'web4.provider-cloud.com', cloud_provider: 'native', spec: 'micro', zone: 'dc_location-uk', for_user: 'stack-user:999999' } };
    delete resources.reseller_package;
    writeConfig(resources);
    const plan = await terraform(tf, ['plan', '-input=false', '-no-color'], dir, env(), [1]);
    expect(plan.stderr).toContain('Error: Invalid for_user: "stack-user:999999" is not a control-panel user of this account');
    expect(plan.stderr).toMatch(/with reseller_cloud_server\.lost/);
    expect(emu.account().cloudServers.map((s) => s.name)).not.toContain('web4.provider-cloud.com');
  }, E2E_TIMEOUT_MS);

  it('a Ctrl-C while a read-back hangs (no answer for ten minutes; the request deadline is an hour) ends it at once; the next apply adopts what was written', async () => {
    const domain = 'hang.provider-cloud.com';
    writeConfig(withOnePackage('hang', domain));
    // The read that confirms the package's create gets no answer for ten minutes (the emulator's longest delay).
    await emu.control('POST', 'faults', { rules: [{ method: 'GET', path: `^/package/${domain.replace(/\./g, '\\.')}$`, latencyMs: 600_000, times: 1 }] });
    const slow = env({ RESELLER_REQUEST_TIMEOUT: '1h' });
    const stopped = await applyInterruptedWhen(faultFired, slow);
    await emu.control('DELETE', 'faults');
    expect(stopped.code).toBe(1);
    expect(stopped.stderr.replace(/\s+/g, ' ')).toMatch(/Could not create the package hang\.provider-cloud\.com .*stopped: Terraform asked the provider to stop/);
    expect(emu.account().packages.filter((p) => p.name === domain)).toHaveLength(1); // the write stands
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env());
    expect(emu.account().packages.filter((p) => p.name === domain)).toHaveLength(1); // adopted, not created twice
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);
});

/** The users, the server ordered by the Ctrl-C test (web3) and one package on the account: the stack of the later tests. */
function withOnePackage(name: string, domain: string): Resources {
  const resources = serverStack();
  resources.reseller_stack_user.ops = { email: 'ops@example.org' };
  resources.reseller_cloud_server = { late: { host_name: 'web3.provider-cloud.com', cloud_provider: 'native', spec: 'micro', zone: 'dc_location-uk' } };
  resources.reseller_package = { [name]: { domain_name: domain, package_type: 'Linux Starter' } };
  return resources;
}

/** Whether the emulator's one fault rule has fired. */
const faultFired = async () => ((await emu.control('GET', 'faults')) as { rules: Array<{ fired: number }> }).rules[0].fired > 0;

/**
 * `terraform apply`, interrupted as Ctrl-C does (SIGINT to Terraform, which then sends
 * StopProvider) as soon as `ready()` holds. An apply that ends before is a failure.
 */
async function applyInterruptedWhen(ready: () => boolean | Promise<boolean>, runEnv: NodeJS.ProcessEnv) {
  let child: ChildProcess | undefined;
  let ended = false;
  const run = runTerraform(['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: dir, binary: tf, env: runEnv, onSpawn: (c) => { child = c; } });
  void run.then(() => { ended = true; });
  while (!ended && !(await ready())) await delay(50);
  if (ended) throw new Error(`terraform apply ended before it could be interrupted:\n${(await run).stderr}`);
  child!.kill('SIGINT');
  return run;
}

function rmGenerated(): void {
  require('node:fs').rmSync(join(dir, 'generated.tf'), { force: true });
}
