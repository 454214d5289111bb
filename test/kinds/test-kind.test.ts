// The test-only kind registers first, as a real kind is (before anything reads the kind list).
import './locker/register';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import { HostingPackage, ResellerHosting } from '../../src';
import { ResellerClient } from '../../src/client';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import type { DriftDocument } from '../../src/commands/drift/report';
import { runReviewCli } from '../../src/commands/review';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, savedPlan, terraform } from '../e2e/support';
import { apiEnv, capture, removeTempDirs, tempDir } from '../drift/helpers';
import { testKindBundles } from './locker/bundles';
import { Lockers } from './locker/client';
import { Locker } from './locker/construct';

/**
 * The checklist is a test (issue "A kind in one place, part two"): the test-only kind of
 * test/kinds/locker (an identity, a setting, a write-only secret, a parent), written in
 * the files a real kind has and registered where a real kind is, runs through every
 * adapter with no adapter change: the carriers (terraform_data, with the secret in the
 * provisioner environment), the provider with its generic data sources, drift, import's
 * emitted code and review, each with real Terraform against the emulator. The core and
 * the provider's plan/apply/import are in the contract suite (contract.test.ts).
 */

const PASSCODE = 'Locker-Passc0de-1';
const ROTATED = 'Locker-Passc0de-2';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let tf: string;
let emu: TestEmulator;
let api: ResellerClient;
let journal: string;

beforeAll(async () => {
  tf = requireTerraform();
  emu = await startTestEmulator();
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  journal = tempDir('test-kind-journal-');
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs();
});

interface Declared { readonly version?: number; readonly label?: string; readonly absent?: boolean }

/** The app: a package and a locker on it whose passcode comes from a sensitive, ephemeral variable. */
function synthApp(out: string, engine: 'terraform_data' | 'provider', domain: string, declared: Declared = {}): string {
  const app = new App({ outdir: out });
  const stack = new TerraformStack(app, 'lockers');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { apiUrl: emu.url, engine });
  const passcode = new TerraformVariable(stack, 'passcode', { type: 'string', sensitive: true });
  passcode.addOverride('ephemeral', true);
  const site = new HostingPackage(stack, 'site', { domainName: domain, packageType: 'Linux Starter' });
  new Locker(stack, 'tools', {
    package: site, name: 'tools', label: declared.label ?? 'Tools', passcode: passcode.value, passcodeVersion: declared.version ?? 1, absent: declared.absent,
  });
  app.synth();
  const dir = join(out, 'stacks', 'lockers');
  if (engine === 'terraform_data') useTestHandler(dir);
  else useTestProvider(dir);
  return dir;
}

/** Terraform runs the provider with the test-only kind registered, where synth placed the shipped one. */
function useTestProvider(dir: string): void {
  builtProviderInstaller().installProvider(join(dir, 'terraform.d', 'plugins'), undefined, { bundle: testKindBundles().providerBundle, cache: join(dir, 'no-cache') });
  rmSync(join(dir, '.terraform.lock.hcl'), { force: true }); // synth wrote the shipped provider's hash; init records this one
}

/** The provisioners run the handler with the test-only kind registered (the shipped one cannot know it). */
function useTestHandler(dir: string): void {
  const file = join(dir, 'cdk.tf.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  for (const bodies of Object.values<Record<string, any>>(json.resource.terraform_data)) { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const p of bodies.provisioner ?? []) p['local-exec'].interpreter = ['node', testKindBundles().handlerScript, 'handler'];
  }
  writeFileSync(file, JSON.stringify(json, null, 2));
}

const lockerOf = (domain: string) => emu.account().packages.find((p) => p.name === domain)?.lockers?.find((l) => l.name === 'tools');
const tfEnv = (passcode = PASSCODE) => ({ ...apiEnv(emu.url, journal), TF_VAR_passcode: passcode, RESELLER_POLL_INTERVAL: '50ms' });
const review = (plan: unknown, dir: string) => {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  return capture(runReviewCli, [join(dir, 'plan.json')], tfEnv());
};

describe('the carriers (terraform_data): the secret facet carries the passcode through the provisioner environment', () => {
  const domain = 'carried-lockers.com';
  let out: string;
  let dir: string;
  const run = (args: string[], passcode = PASSCODE, codes = [0]) => terraform(tf, [args[0], '-input=false', '-no-color', ...args.slice(1)], dir, tfEnv(passcode), codes);

  beforeAll(async () => {
    out = tempDir('test-kind-carriers-');
    dir = synthApp(out, 'terraform_data', domain);
    await run(['init']);
  }, E2E_TIMEOUT_MS);

  test('apply creates the locker with its passcode, which is in no file Terraform wrote', async () => {
    await run(['apply', '-auto-approve']);
    expect(lockerOf(domain)).toMatchObject({ name: 'tools', label: 'Tools', passcodeSha256: sha(PASSCODE) });
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') || f.includes('tfstate'))) {
      expect(readFileSync(join(dir, file), 'utf8')).not.toContain(PASSCODE);
    }
    // The version is a settings trigger; the secret's variable is the facet's.
    const json = JSON.parse(readFileSync(join(dir, 'cdk.tf.json'), 'utf8'));
    expect(json.resource.terraform_data.tools_settings.triggers_replace).toMatchObject({ label: 'Tools', passcodeVersion: '1' });
    const ensure = json.resource.terraform_data.tools_settings.provisioner[0]['local-exec'];
    expect(ensure.environment.RESELLER_LOCKER_PASSCODE).toBe('${var.passcode}');
  }, E2E_TIMEOUT_MS);

  test('drift reads it through the core: in sync, then changed after a change in the control panel', async () => {
    const inSync = await capture(runDriftCli, ['--stacks', out, '--json', '--detailed-exitcode'], tfEnv());
    expect(inSync.code).toBe(0);
    const doc = JSON.parse(inSync.stdout) as DriftDocument;
    expect(doc.objects.find((o) => o.kind === ('locker' as never))).toMatchObject({ key: `${domain}/tools`, status: 'in-sync' });
    await api.noun(Lockers).update(domain, lockerOf(domain)!.id, { label: 'Changed in the panel' });
    const drifted = await capture(runDriftCli, ['--stacks', out, '--json', '--detailed-exitcode'], tfEnv());
    expect(drifted.code).toBe(2);
    const changed = (JSON.parse(drifted.stdout) as DriftDocument).objects.find((o) => o.kind === ('locker' as never))!;
    expect(changed).toMatchObject({ status: 'changed', diffs: [{ field: 'label', declared: 'Tools', live: 'Changed in the panel' }] });
    // drift --fix puts it back with the core's ensure (and keeps the passcode: no history).
    const fixed = await capture(runDriftCli, ['--stacks', out, '--fix', '--detailed-exitcode'], tfEnv('Not-Used-0'));
    expect(fixed.code).toBe(0);
    expect(lockerOf(domain)).toMatchObject({ label: 'Tools', passcodeSha256: sha(PASSCODE) });
  }, E2E_TIMEOUT_MS);

  test('a new passcode version rotates it; review says so in the facet\'s words, never the value', async () => {
    synthApp(out, 'terraform_data', domain, { version: 2 });
    const plan = await savedPlan(tf, dir, tfEnv(ROTATED));
    const reviewed = await review(plan.json, dir);
    expect(reviewed.stdout).toContain(`locker ${domain}/tools is updated in place: passcode rotated (version 1 -> 2)`);
    expect(reviewed.stdout + plan.jsonText + plan.showText).not.toContain(ROTATED);
    await run(['apply', '-auto-approve', 'p'], ROTATED);
    expect(lockerOf(domain)).toMatchObject({ passcodeSha256: sha(ROTATED) });
  }, E2E_TIMEOUT_MS);

  test('absent: true deletes it (with what is kept in it, review says)', async () => {
    synthApp(out, 'terraform_data', domain, { version: 2, absent: true });
    const plan = await savedPlan(tf, dir, tfEnv(ROTATED));
    expect((await review(plan.json, dir)).stdout).toContain(`locker ${domain}/tools is DELETED (declared absent: true), with what is kept in it`);
    await run(['apply', '-auto-approve', 'p'], ROTATED);
    expect(lockerOf(domain)).toBeUndefined();
  }, E2E_TIMEOUT_MS);
});

describe('the provider: a write-only passcode, generic data sources, review; import emits its construct', () => {
  const domain = 'provided-lockers.com';
  let out: string;
  let dir: string;
  const run = (args: string[], passcode = PASSCODE, codes = [0]) => terraform(tf, [args[0], '-input=false', '-no-color', ...args.slice(1)], dir, tfEnv(passcode), codes);

  beforeAll(async () => {
    out = tempDir('test-kind-provider-');
    dir = synthApp(out, 'provider', domain);
    await run(['init']);
  }, E2E_TIMEOUT_MS);

  test('apply creates it; the passcode is in neither state nor plan; the next plan is clean', async () => {
    await run(['apply', '-auto-approve']);
    expect(lockerOf(domain)).toMatchObject({ label: 'Tools', passcodeSha256: sha(PASSCODE) });
    expect(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')).not.toContain(PASSCODE);
    const state = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8'));
    const locker = state.resources.find((r: { type: string }) => r.type === 'reseller_locker').instances[0].attributes;
    expect(locker).toMatchObject({ id: `${domain}/tools`, passcode_wo: null, passcode_wo_version: 1, locker_id: lockerOf(domain)!.id });
    expect((await run(['plan', '-detailed-exitcode'])).stdout).toContain('No changes.');
  }, E2E_TIMEOUT_MS);

  test('its singular and plural data sources come from the definition', async () => {
    writeFileSync(join(dir, 'reads.tf.json'), JSON.stringify({
      data: {
        reseller_locker: { one: { package: domain, name: 'tools' } },
        reseller_lockers: { all: { package: domain } },
      },
      output: {
        label: { value: '${data.reseller_locker.one.label}' },
        ids: { value: '${data.reseller_lockers.all.ids}' },
      },
    }));
    await run(['apply', '-auto-approve']);
    const outputs = JSON.parse((await terraform(tf, ['output', '-json'], dir, tfEnv())).stdout);
    expect(outputs.label.value).toBe('Tools');
    expect(outputs.ids.value).toEqual([`${domain}/tools`]);
  }, E2E_TIMEOUT_MS);

  test('review names a label change and a rotation in the definition\'s words', async () => {
    synthApp(out, 'provider', domain, { version: 2, label: 'Garden tools' });
    await run(['init']);
    const plan = await savedPlan(tf, dir, tfEnv(ROTATED));
    const reviewed = await review(plan.json, dir);
    expect(reviewed.stdout).toContain(`locker ${domain}/tools is updated in place: label changed from "Tools" to "Garden tools"; passcode rotated (version 1 -> 2)`);
    expect(reviewed.stdout + plan.jsonText + plan.showText).not.toContain(ROTATED);
    await run(['apply', '-auto-approve', 'p'], ROTATED);
    expect(lockerOf(domain)).toMatchObject({ label: 'Garden tools', passcodeSha256: sha(ROTATED) });
  }, E2E_TIMEOUT_MS);

  test('import emits the construct from the definition\'s import facet, its package as a reference to the package\'s variable', async () => {
    const code = join(out, 'imported.ts');
    const imported = await capture(runImportCli, ['--kinds', 'package,locker', '--out', code], tfEnv());
    expect(imported.code).toBe(0);
    const text = readFileSync(code, 'utf8');
    expect(text).toMatch(/const (pkg_provided_lockers_com) = new HostingPackage\(this, 'pkg_provided_lockers_com'/);
    expect(text).toContain("new Locker(this, 'locker_provided_lockers_com_tools', { package: pkg_provided_lockers_com, name: 'tools', label: 'Garden tools' });");
    expect(text).toContain('Lockers are declared without a passcode: adoption keeps the current one.');
  }, E2E_TIMEOUT_MS);
});
