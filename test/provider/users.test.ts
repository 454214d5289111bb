import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { HostingPackage, ResellerHosting } from '../../src';
import { coreModel } from '../../src/provider/kind-resources';
import { API_KEY, mailOf, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, leaksOf, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The provider driven the way users drive it, with real Terraform against the emulator
 * (issue 23): `terraform -chdir` from the project root, provider values known only after
 * apply, plans that stay empty after every kind of update, changes the API cannot make,
 * several accounts in one configuration, and the provider block's own settings.
 * HOME is a temporary directory (test/helpers/isolated-home.ts): synth writes the
 * per-user mirror there, and Terraform reads it from there.
 */

let tf: string;
let emu: TestEmulator;
let source: string;
const dirs: string[] = [];

/** A working directory with the provider in its implied local mirror. */
function workDir(name: string): string {
  const dir = tempDir(`users-${name}`);
  dirs.push(dir);
  builtProviderInstaller().installProvider(join(dir, 'terraform.d', 'plugins'));
  return dir;
}

function writeConfig(dir: string, doc: Record<string, unknown>): void {
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({ terraform: { required_providers: { reseller: { source } } }, ...doc }, null, 2));
}

const baseEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms', ...extra });
const run = (dir: string, args: string[], env: NodeJS.ProcessEnv = baseEnv(), codes = [0]) => terraform(tf, [...args, '-no-color'], dir, env, codes);
const init = (dir: string, env?: NodeJS.ProcessEnv) => run(dir, ['init', '-input=false'], env);
const apply = (dir: string, env?: NodeJS.ProcessEnv) => run(dir, ['apply', '-auto-approve', '-input=false'], env);

/** `plan -detailed-exitcode -out`, and the plan's JSON. */
async function planJson(dir: string, env: NodeJS.ProcessEnv = baseEnv()) {
  const plan = await run(dir, ['plan', '-input=false', '-detailed-exitcode', '-out=p'], env, [0, 2]);
  const show = await run(dir, ['show', '-json', 'p'], env);
  return { code: plan.code, output: plan.stdout + plan.stderr, json: JSON.parse(show.stdout) };
}

beforeAll(async () => {
  tf = requireTerraform();
  source = builtProviderInstaller().PROVIDER_SOURCE;
  emu = await startTestEmulator({ provisionDelayMs: 100 });
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  await emu?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  if (emu) rmSync(emu.dir, { recursive: true, force: true });
});

describe('discovery', () => {
  it('finds the provider with terraform -chdir=<stack dir> init from the project root, offline and with no CLI configuration', async () => {
    const project = tempDir('users-chdir');
    dirs.push(project);
    const app = new App({ outdir: join(project, 'cdktf.out') });
    const stack = new TerraformStack(app, 'site');
    new ResellerHosting(stack, 'reseller', { apiUrl: emu.url });
    new HostingPackage(stack, 'site', { domainName: 'chdir-site.com', packageType: 'Linux Unlimited' });
    app.synth();
    // The project root has no terraform.d: only the per-user mirror can serve -chdir.
    expect(existsSync(join(project, 'terraform.d'))).toBe(false);
    const stackDir = join('cdktf.out', 'stacks', 'site');
    const env = baseEnv({ TF_CLI_CONFIG_FILE: join(project, 'empty.tfrc') }); // no CLI configuration of the user's
    writeFileSync(join(project, 'empty.tfrc'), '');
    await run(project, [`-chdir=${stackDir}`, 'init', '-input=false'], env);
    await run(project, [`-chdir=${stackDir}`, 'apply', '-auto-approve', '-input=false'], env);
    expect(emu.account().packages.map((p) => p.name)).toContain('chdir-site.com');

    // The per-user mirror: one directory per version, the provider's code only.
    const home = process.env.HOME!;
    const versions = join(home, '.terraform.d', 'plugins', 'reseller-hosting.local', 'cdktf', 'reseller');
    expect(readdirSync(versions)).toEqual([builtProviderInstaller().packageVersion()]);
    const platformDir = join(versions, builtProviderInstaller().packageVersion());
    const files = readdirSync(join(platformDir, readdirSync(platformDir)[0])).sort();
    expect(files).toEqual(['provider-bundle.js', 'provider-bundle.js.cache', 'provider-loader.js', `terraform-provider-reseller_v${builtProviderInstaller().packageVersion()}`]);
  }, E2E_TIMEOUT_MS);
});

describe('provider configuration known only after apply', () => {
  it('plans creates with api_url and reseller_id from resources not applied yet, then applies them', async () => {
    const dir = workDir('unknown');
    writeConfig(dir, {
      resource: {
        terraform_data: { url: { input: emu.url }, rid: { input: '*' } },
        reseller_package: { late: { domain_name: 'late-config.com', package_type: 'Linux Unlimited' } },
        reseller_forwarder: { late: { package: '${reseller_package.late.domain_name}', local_part: 'hi', remote: 'late@example.org' } },
      },
      provider: { reseller: { api_url: '${terraform_data.url.output}', reseller_id: '${terraform_data.rid.output}' } },
    });
    await init(dir);
    const plan = await planJson(dir);
    expect(plan.code).toBe(2);
    expect(plan.output).not.toMatch(/Plugin error|is not a function|rpc error/);
    const actions = Object.fromEntries(plan.json.resource_changes.map((rc: any) => [rc.address, rc.change.actions]));
    expect(actions).toMatchObject({ 'reseller_package.late': ['create'], 'reseller_forwarder.late': ['create'] });
    await apply(dir);
    expect(emu.account().packages.map((p) => p.name)).toContain('late-config.com');
    expect(mailOf(emu.account(), 'late-config.com').forwarders.map((f) => f.remote)).toEqual(['late@example.org']);

    // Replacing the resources the provider block reads makes it unknown again with objects in state: a warning, never a crash.
    const replanned = await run(dir, ['plan', '-input=false', '-replace=terraform_data.url', '-replace=terraform_data.rid'], baseEnv());
    expect(replanned.stdout + replanned.stderr).toMatch(/not refreshed: the provider configuration is known only after apply/);
  }, E2E_TIMEOUT_MS);
});

describe('plans are true after apply', () => {
  const resources = (variant: 0 | 1) => ({
    reseller_package: {
      site: {
        domain_name: 'true-plans.com',
        label: ['First label', 'Second label'][variant],
        extra_domain_names: [['true-plans.net'], ['true-plans.org', 'true-plans.info']][variant],
        package_type: ['Linux Unlimited', 'Linux Starter'][variant],
        enabled: [true, false][variant],
        stack_user: ['owner@example.com', 'ops@example.org'][variant],
      },
    },
    reseller_mailbox: {
      info: {
        package: '${reseller_package.site.domain_name}', local_part: 'info',
        send: [true, false][variant], receive: [false, true][variant],
        password_wo: '${var.mailbox_password}', password_wo_version: [1, 2][variant],
      },
    },
    reseller_forwarder: {
      sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: ['team@example.org', 'other@example.net'][variant] },
    },
    reseller_stack_user: { person: { email: 'true-plans@example.com', person_name: 'True Plans' } },
    reseller_web_settings: {
      site: {
        package: '${reseller_package.site.domain_name}',
        force_https: [true, false][variant],
        free_certificates: [['true-plans.com'], ['true-plans.com', 'www.true-plans.com']][variant],
        php_version: ['8.2', '8.3'][variant],
        delete_certificates: [false, true][variant],
        on_certificate_timeout: ['warn', 'fail'][variant],
      },
    },
    // A fixture registration of the emulator (these kinds adopt one, never register).
    reseller_domain_nameservers: {
      blog: { domain: 'example-blog.com', nameservers: [['ns1.true-plans.net', 'ns2.true-plans.net'], ['ns3.true-plans.net', 'ns1.true-plans.net']][variant] },
    },
    reseller_domain_transfer_lock: { blog: { domain: 'example-blog.com', locked: [true, false][variant] } },
    reseller_autoresponder: {
      away: {
        package: '${reseller_package.site.domain_name}', local_part: 'away', subject: ['Away', 'Back soon'][variant],
        content: ['First body', '<p>Second body</p>'][variant], content_type: ['text/plain', 'text/html'][variant], enabled: [true, false][variant],
        // Times in a form the emulator reads back otherwise (milliseconds, UTC): the plan after the apply is still empty.
        start_time: [null, '2026-12-24T10:00:00+01:00'][variant], end_time: ['2027-01-02T08:00:00Z', null][variant],
        forward_to: [null, 'Desk@Example.org'][variant],
      },
    },
    reseller_mysql_database: {
      shop: {
        package: '${reseller_package.site.domain_name}', name: 'true_plans',
        password_wo: '${var.mailbox_password}', password_wo_version: [1, 2][variant], keep_on_destroy: [false, true][variant],
      },
    },
  });
  /** Every attribute an update can change, per resource type: what this test must change. */
  const mutable = () => Object.fromEntries(coreModel({}).kinds.map((k) => [
    k.typeName,
    k.fields.filter((f) => f.role === 'setting' && !f.fixedAfterCreate).map((f) => f.attribute).sort(),
  ]));

  it('changes every mutable attribute of every resource type; the next plan -detailed-exitcode is empty with no resource_drift', async () => {
    const changed = resources(1);
    const covered = Object.fromEntries(Object.entries(mutable()).map(([type, attrs]) => {
      const declared = Object.values((changed as Record<string, Record<string, Record<string, unknown>>>)[type] ?? {})[0] ?? {};
      return [type, attrs.filter((a) => !(a in declared))];
    }));
    // Cloud servers have no attribute an update can change (size, zone, provider: fixed; period, for_user: create only).
    expect(covered).toEqual(Object.fromEntries(Object.keys(mutable()).map((t) => [t, []])));

    const dir = workDir('true-plans');
    const doc = (variant: 0 | 1) => ({
      variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
      provider: { reseller: { api_url: emu.url } },
      resource: resources(variant),
    });
    const env = baseEnv({ TF_VAR_mailbox_password: 'True-Plans-Passw0rd!' });
    writeConfig(dir, doc(0));
    await init(dir, env);
    await apply(dir, env);
    for (const variant of [1, 0] as const) {
      writeConfig(dir, doc(variant));
      await apply(dir, env);
      const plan = await planJson(dir, env);
      expect({ variant, output: plan.code === 0 ? '' : plan.output }).toEqual({ variant, output: '' });
      expect(plan.json.resource_drift ?? []).toEqual([]);
    }
    const live = emu.account().packages.find((p) => p.name === 'true-plans.com')!;
    expect(live).toMatchObject({ packageTypeName: 'Linux Unlimited', label: 'First label', enabled: true });
  }, 2 * E2E_TIMEOUT_MS);
});

describe('changes the API cannot make', () => {
  it('fails the plan on the attribute, naming the way out, instead of failing the apply', async () => {
    const dir = workDir('fixed');
    const doc = (name: string) => ({
      provider: { reseller: { api_url: emu.url } },
      resource: { reseller_stack_user: { fixed: { email: 'fixed-name@example.com', person_name: name } } },
    });
    writeConfig(dir, doc('First Name'));
    await init(dir);
    await apply(dir);
    writeConfig(dir, doc('Second Name'));
    const plan = await run(dir, ['plan', '-input=false'], baseEnv(), [1]);
    const output = (plan.stdout + plan.stderr).replace(/\s+/g, ' ');
    expect(output).toMatch(/Error: person_name of an existing stack user cannot be changed with reseller_stack_user\.fixed/);
    expect(output).toMatch(/Keep person_name = "First Name", or declare a new stack user with another email/);
    // Nothing was attempted.
    expect(Object.values(emu.account().users).find((u: any) => u.contact.email === 'fixed-name@example.com')).toMatchObject({ contact: { person_name: 'First Name' } });
  }, E2E_TIMEOUT_MS);
});

describe('several accounts in one configuration', () => {
  const KEY_A = 'account-a-key-q8Zr61vTn';
  const KEY_B = 'account-b-key-Wm40pXc7s';

  it('applies two aliased provider blocks, each with its api_key from an ephemeral variable, into their own accounts; no key in any file or log', async () => {
    const a = (await emu.control('POST', 'accounts', { apiKey: KEY_A })) as { id: number };
    const b = (await emu.control('POST', 'accounts', { apiKey: KEY_B })) as { id: number };
    const dir = workDir('accounts');
    writeConfig(dir, {
      variable: {
        key_a: { type: 'string', sensitive: true, ephemeral: true },
        key_b: { type: 'string', sensitive: true, ephemeral: true },
      },
      provider: { reseller: [{ api_url: emu.url, api_key: '${var.key_a}' }, { alias: 'b', api_url: emu.url, api_key: '${var.key_b}' }] },
      resource: {
        reseller_package: {
          a: { domain_name: 'account-a.com', package_type: 'Linux Unlimited' },
          b: { provider: 'reseller.b', domain_name: 'account-b.com', package_type: 'Linux Unlimited' },
        },
      },
    });
    const env = { TF_VAR_key_a: KEY_A, TF_VAR_key_b: KEY_B, RESELLER_API_KEY: '', TF_LOG: 'trace' };
    await init(dir, { ...env, TF_LOG_PATH: join(dir, 'init.log') });
    await run(dir, ['plan', '-input=false', '-out=p'], { ...env, TF_LOG_PATH: join(dir, 'plan.log') });
    const planShow = await run(dir, ['show', '-json', 'p'], env);
    await run(dir, ['apply', '-input=false', 'p'], { ...env, TF_LOG_PATH: join(dir, 'apply.log') });
    const second = await run(dir, ['plan', '-input=false', '-detailed-exitcode'], { ...env, TF_LOG_PATH: join(dir, 'replan.log') });
    expect(second.code).toBe(0);

    const accounts = emu.emulator.snapshot().accounts;
    const namesOf = (id: number) => accounts.find((x) => x.id === id)!.packages.map((p) => p.name);
    expect(namesOf(a.id)).toEqual(['account-a.com']);
    expect(namesOf(b.id)).toEqual(['account-b.com']);

    const texts: Record<string, string> = { 'plan JSON': planShow.stdout, 'plan output': second.stdout + second.stderr };
    for (const file of ['terraform.tfstate', 'p', 'init.log', 'plan.log', 'apply.log', 'replan.log', 'main.tf.json']) {
      texts[file] = readFileSync(join(dir, file)).toString('latin1');
    }
    expect(texts['apply.log']).toMatch(/provider\.terraform-provider-reseller/); // the provider's own log lines are in it
    expect(leaksOf(KEY_A, texts)).toEqual([]);
    expect(leaksOf(KEY_B, texts)).toEqual([]);
    for (const key of [KEY_A, KEY_B]) expect(leaksOf(Buffer.from(key).toString('base64'), texts)).toEqual([]);
  }, 2 * E2E_TIMEOUT_MS);
});

describe('the provider block', () => {
  it('gives plan-time diagnostics on the attribute for a negative retry count, malformed durations and a non-URL', async () => {
    const dir = workDir('bad-values');
    writeConfig(dir, {
      provider: { reseller: { api_url: 'not a url', max_retries: -1, request_timeout: 'soon', confirm_timeout: '10 minutes', poll_interval: '-2s' } },
      resource: { reseller_package: { x: { domain_name: 'bad-values.com', package_type: 'Linux Unlimited' } } },
    });
    await init(dir);
    const plan = await run(dir, ['plan', '-input=false'], baseEnv(), [1]);
    const output = plan.stdout + plan.stderr;
    for (const [attribute, rule] of [
      ['api_url', 'must be an http\\(s\\) URL'],
      ['max_retries', 'must be a whole number from 0 to 100, got -1'],
      ['request_timeout', 'must be a duration such as "30s"'],
      ['confirm_timeout', 'must be a duration'],
      ['poll_interval', 'must be a duration'],
    ]) {
      expect(output).toMatch(new RegExp(`Error: Invalid ${attribute}: ${rule}`));
    }
  }, E2E_TIMEOUT_MS);

  it('takes its tuning from the block, and logs every API request at debug and its version once at info', async () => {
    const dir = workDir('tuning');
    writeConfig(dir, {
      provider: { reseller: { api_url: emu.url, max_retries: 2, request_timeout: '20s', confirm_timeout: '40s', poll_interval: '150ms' } },
      resource: { reseller_package: { tuned: { domain_name: 'tuned.com', package_type: 'Linux Unlimited' } } },
    });
    await init(dir);
    await apply(dir, baseEnv({ TF_LOG_PROVIDER: 'debug', TF_LOG_PATH: join(dir, 'debug.log') }));
    const lines = readFileSync(join(dir, 'debug.log'), 'utf8').split('\n');
    const requests = lines.filter((l) => /API (GET|POST) \//.test(l));
    expect(requests.length).toBeGreaterThan(1);
    for (const line of requests) {
      expect(line).toMatch(/API (GET|POST) \/\S* -> \d{3}/);
      expect(line).toMatch(/attempt=1/);
      expect(line).toMatch(/durationMs=\d+/);
      expect(line).not.toMatch(new RegExp(API_KEY));
    }
    expect(requests.some((l) => /API POST \/reseller\/\*\/addWeb -> 200/.test(l))).toBe(true);
    // Once per provider process: the apply walk starts one for plan and one for apply.
    const versionLines = lines.filter((l) => /reseller provider \d+\.\d+\.\d+/.test(l));
    expect(versionLines.length).toBeGreaterThanOrEqual(1);
    expect(versionLines.length).toBeLessThanOrEqual(2);
    expect(versionLines[0]).toMatch(/terraform_version=1\.\d+\.\d+/);
  }, E2E_TIMEOUT_MS);
});
