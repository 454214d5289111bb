import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { DnsRecord, Forwarder, HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { ResellerClient } from '../../src/client';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import type { DriftDocument } from '../../src/commands/drift/report';
import { runReviewCli } from '../../src/commands/review';
import { coreModel } from '../../src/provider/kind-resources';
import { isMoved, moveResourceState } from '../../src/provider/move-state';
import { objectTypeOf } from '../../src/provider/resources/schema';
import { API_KEY, handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, savedPlan, terraform } from '../e2e/support';
import { apiEnv, capture, LoggedRequest, outOfBand, removeTempDirs, tempDir } from './helpers';

/**
 * `review`, `drift` and `import --blocks` on provider-engine stacks (`reseller_*`
 * resources), and the migration of a carrier stack to the provider, with real Terraform
 * and the built provider against the emulator. The provider stacks are hand-written
 * Terraform JSON in a cdktf output layout (`<out>/stacks/<name>/cdk.tf.json`).
 */

const PASSWORD = 'Provider-Review-Passw0rd!';
const ROTATED = 'Rotated-Review-Passw0rd!';

let tf: string;
let emu: TestEmulator;
let api: ResellerClient;
let installer: typeof import('../../src/provider/install');
let journal: string;

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** A provider-engine stack as cdktf lays it out; returns the output and stack directories. */
function providerStack(out: string, name: string, resources: Resources, blocks: Record<string, unknown> = {}): { out: string; dir: string } {
  const dir = join(out, 'stacks', name);
  mkdirSync(dir, { recursive: true });
  // A stack that cdktf synthesized before keeps its backend (the state stays where it is).
  const file = join(dir, 'cdk.tf.json');
  const backend = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).terraform?.backend : undefined;
  const doc = {
    '//': { metadata: { stackName: name } },
    terraform: { required_providers: { reseller: { source: installer.PROVIDER_SOURCE } }, ...(backend ? { backend } : {}) },
    variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: [{ api_url: emu.url }] },
    resource: resources,
    ...blocks,
  };
  writeFileSync(file, JSON.stringify(doc, null, 2));
  if (!existsSync(join(dir, 'terraform.d'))) installer.installProvider(join(dir, 'terraform.d', 'plugins'));
  return { out, dir };
}

const siteResources = (mailbox: Record<string, unknown> = {}): Resources => ({
  reseller_package: { site: { domain_name: 'review-site.com', package_type: 'Linux Unlimited', label: 'Review Site' } },
  reseller_mailbox: {
    info: { package: '${reseller_package.site.domain_name}', local_part: 'info', password_wo: '${var.mailbox_password}', password_wo_version: 1, ...mailbox },
  },
  reseller_forwarder: { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: 'team@example.org' } },
});

const tfEnv = (password = PASSWORD): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, TF_VAR_mailbox_password: password, RESELLER_POLL_INTERVAL: '100ms' });
const cliEnv = () => apiEnv(emu.url, journal);
let plans = 0;
/** `reseller-hosting review` of a plan document, written to a file as `terraform show -json` would. */
function review(doc: unknown, args: string[] = []) {
  const file = join(journal, `plan-${++plans}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return capture(runReviewCli, [file, ...args], cliEnv());
}
const requests = async () => (await emu.control('GET', 'requests')) as LoggedRequest[];
const writes = (log: LoggedRequest[]) => log.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  tf = requireTerraform();
  requireBuiltHandler();
  installer = builtProviderInstaller();
  emu = await startTestEmulator();
  api = outOfBand(emu.url);
  journal = tempDir('reseller-provider-drift-');
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs();
});

describe('a provider-engine stack', () => {
  let out: string;
  let dir: string;

  beforeAll(async () => {
    ({ out, dir } = providerStack(tempDir('reseller-provider-review-'), 'site', siteResources()));
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, tfEnv());
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, tfEnv());
  }, E2E_TIMEOUT_MS);

  it('drift reads the reseller_* resources and reports changes made outside Terraform; review shows them in their own section', async () => {
    const inSync = await capture(runDriftCli, ['--stacks', out, '--json', '--detailed-exitcode'], cliEnv());
    expect(inSync.stderr).toBe('');
    expect(inSync.code).toBe(0);
    const first = JSON.parse(inSync.stdout) as DriftDocument;
    expect(first.objects.map((o) => [o.address, o.kind, o.key, o.status])).toEqual([
      ['reseller_package.site', 'package', 'review-site.com', 'in-sync'],
      ['reseller_mailbox.info', 'mailbox', 'info@review-site.com', 'in-sync'],
      ['reseller_forwarder.sales', 'forwarder', 'sales@review-site.com', 'in-sync'],
    ]);

    // A customer changes the forwarder's target and the label, and deletes the mailbox.
    const site = emu.account().packages.find((p) => p.name === 'review-site.com')!;
    const mail = await api.mail.get(site.id, 'review-site.com');
    await api.mail.delete(site.id, 'review-site.com', [mail.forwarders[0].id, mail.mailboxes[0].id]);
    await api.mail.createForwarder(site.id, 'review-site.com', { local: 'sales', remote: 'evil@example.net' });
    await api.packages.setLabel(site.id, 'Renamed in the panel');

    const drifted = await capture(runDriftCli, ['--stacks', out, '--detailed-exitcode'], cliEnv());
    expect(drifted.code).toBe(2);
    expect(drifted.stdout).toMatch(/CHANGED\s+package\s+review-site\.com\s+reseller_package\.site\n\s+label: "Review Site" \(declared\) -> "Renamed in the panel" \(live\)/);
    expect(drifted.stdout).toMatch(/MISSING\s+mailbox\s+info@review-site\.com\s+reseller_mailbox\.info/);
    expect(drifted.stdout).toMatch(/CHANGED\s+forwarder\s+sales@review-site\.com\s+reseller_forwarder\.sales\n\s+remote: "team@example\.org" \(declared\) -> "evil@example\.net" \(live\)/);
    expect(drifted.stdout).toContain('or, in the stack directory of site: terraform apply (the plan shows the drift of reseller_package.site, reseller_mailbox.info, reseller_forwarder.sales and repairs it)');
    expect(drifted.stdout).not.toContain('-replace=');

    const plan = await savedPlan(tf, dir, tfEnv());
    const text = await review(plan.json);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Reseller hosting plan review: 0 destructive, 0 orphaned, 0 retained, 2 updated in place, 1 created, 3 changed outside Terraform; 0 unchanged');
    const section = text.stdout.slice(text.stdout.indexOf('CHANGED OUTSIDE TERRAFORM'), text.stdout.indexOf('UPDATED IN PLACE'));
    expect(section).toContain('* package review-site.com was changed outside Terraform: label changed from "Review Site" to "Renamed in the panel"  [reseller_package.site]');
    expect(section).toContain('* mailbox info@review-site.com was deleted outside Terraform  [reseller_mailbox.info]');
    expect(section).toContain('* forwarder sales@review-site.com was changed outside Terraform: target changed from "team@example.org" to "evil@example.net"  [reseller_forwarder.sales]');
    expect(text.stdout).toContain('~ package review-site.com is updated in place: label changed from "Renamed in the panel" to "Review Site"  [reseller_package.site]');
    expect(text.stdout).toContain('~ forwarder sales@review-site.com is updated in place: target changed from "evil@example.net" to "team@example.org"  [reseller_forwarder.sales]');
    expect(text.stdout).toContain('+ mailbox info@review-site.com is created  [reseller_mailbox.info]');
    const md = await review(plan.json, ['--markdown']);
    expect(md.stdout).toContain('#### :warning: Changed outside Terraform (3)');
    const failing = await review(plan.json, ['--fail-on', 'drift']);
    expect(failing.code).toBe(2);
    for (const output of [text.stdout, md.stdout, plan.jsonText]) expect(output).not.toContain(PASSWORD);

    // drift --fix repairs a provider-engine stack too (the password from TF_VAR_<variable of password_wo>);
    // the next plan refreshes to the repaired objects and has nothing to do.
    const fixed = await capture(runDriftCli, ['--stacks', out, '--detailed-exitcode', '--fix'], { ...cliEnv(), TF_VAR_mailbox_password: PASSWORD });
    expect(fixed.stdout).toMatch(/fixed\s+reseller_mailbox\.info\s+mailbox info@review-site\.com: created mailbox info@review-site\.com/);
    expect(fixed.stdout + fixed.stderr).not.toContain(PASSWORD);
    expect(fixed.code).toBe(0);
    expect(mailOf(emu.account(), 'review-site.com').forwarders.map((f) => f.remote)).toEqual(['team@example.org']);
    expect((await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, tfEnv(), [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('review names replacements by the identity attribute that forces them, deletions as destructive, rotations without the password', async () => {
    const resources = siteResources({ local_part: 'hello', password_wo_version: 1 });
    delete resources.reseller_forwarder; // the construct is removed from the code: the provider deletes the forwarder
    resources.reseller_package.site.label = 'Review Site v2';
    resources.reseller_package.site.extra_domain_names = ['review-site.net'];
    providerStack(out, 'site', resources);
    const plan = await savedPlan(tf, dir, tfEnv(ROTATED));
    expect(plan.changes).toEqual({
      'reseller_package.site': ['update'],
      'reseller_mailbox.info': ['delete', 'create'],
      'reseller_forwarder.sales': ['delete'],
    });
    // The provider's own warning, on the attribute that forces the replacement.
    expect(plan.planText.replace(/[│╷╵]/g, ' ').replace(/\s+/g, ' ')).toMatch(/Warning: Replacing this mailbox deletes the mail stored in it with reseller_mailbox\.info/);
    const text = await review(plan.json, ['--fail-on', 'destructive']);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('Reseller hosting plan review: 2 destructive, 0 orphaned, 0 retained, 1 updated in place, 0 created; 0 unchanged');
    expect(text.stdout).toContain('! mailbox info@review-site.com is REPLACED: deleted with the mail stored in it, then hello@review-site.com created (local part "info" -> "hello" forces it)  [reseller_mailbox.info]');
    expect(text.stdout).toContain('! forwarder sales@review-site.com is DELETED (its construct was removed from the code)  [reseller_forwarder.sales]');
    expect(text.stdout).toContain(
      '~ package review-site.com is updated in place: extra domain names changed from [] to ["review-site.net"]; label changed from "Review Site" to "Review Site v2"  [reseller_package.site]',
    );
    const json = await review(plan.json, ['--json']);
    for (const output of [text.stdout, json.stdout, plan.jsonText]) {
      expect(output).not.toContain(ROTATED);
      expect(output).not.toContain(PASSWORD);
    }

    // A rotation alone: the version changes, the password is never shown.
    providerStack(out, 'site', siteResources({ password_wo_version: 2 }));
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, tfEnv());
    const rotate = await savedPlan(tf, dir, tfEnv(ROTATED));
    const rotation = await review(rotate.json);
    expect(rotation.stdout).toBe(
      'Reseller hosting plan review: 0 destructive, 0 orphaned, 0 retained, 0 updated in place, 0 created; 3 unchanged\n\nNo reseller object changes.\n',
    );
    providerStack(out, 'site', siteResources({ password_wo_version: 3 }));
    const rotate3 = await savedPlan(tf, dir, tfEnv(ROTATED));
    const rotation3 = await review(rotate3.json);
    expect(rotation3.stdout).toContain('~ mailbox info@review-site.com is updated in place: password rotated (version 2 -> 3)  [reseller_mailbox.info]');
    expect(rotation3.stdout).not.toContain(ROTATED);
  }, E2E_TIMEOUT_MS);

  it('review lists objects that only move in the state (moved blocks) as moved, and notes the move on a change', async () => {
    const resources = siteResources({ password_wo_version: 3 });
    resources.reseller_mailbox = { info_box: resources.reseller_mailbox.info };
    resources.reseller_forwarder = { sales_team: resources.reseller_forwarder.sales };
    providerStack(out, 'site', resources, {
      moved: [{ from: 'reseller_mailbox.info', to: 'reseller_mailbox.info_box' }, { from: 'reseller_forwarder.sales', to: 'reseller_forwarder.sales_team' }],
    });
    const plan = await savedPlan(tf, dir, tfEnv());
    expect((plan.json.resource_changes as any[]).map((rc) => [rc.address, rc.change.actions, rc.previous_address ?? null])).toEqual([
      ['reseller_forwarder.sales_team', ['no-op'], 'reseller_forwarder.sales'],
      ['reseller_mailbox.info_box', ['update'], 'reseller_mailbox.info'],
      ['reseller_package.site', ['no-op'], null],
    ]);
    const text = await review(plan.json, ['--fail-on', 'destructive']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Reseller hosting plan review: 0 destructive, 0 orphaned, 0 retained, 1 updated in place, 0 created, 1 moved; 1 unchanged');
    expect(text.stdout).toContain('MOVED (new addresses in the state for the same remote objects; nothing is written):\n' +
      '  > forwarder sales@review-site.com is moved in the state from reseller_forwarder.sales (no write)  [reseller_forwarder.sales_team]');
    expect(text.stdout).toContain(
      '~ mailbox info@review-site.com is updated in place: password rotated (version 2 -> 3) (moved in the state from reseller_mailbox.info)  [reseller_mailbox.info_box]',
    );
    const json = JSON.parse((await review(plan.json, ['--json'])).stdout);
    expect(json.counts.moved).toBe(1);
    expect(json.items.map((i: any) => [i.category, i.address, i.previousAddress])).toEqual([
      ['updated', 'reseller_mailbox.info_box', 'reseller_mailbox.info'],
      ['moved', 'reseller_forwarder.sales_team', 'reseller_forwarder.sales'],
    ]);
    expect((await review(plan.json, ['--fail-on', 'moved'])).code).toBe(2);
  }, E2E_TIMEOUT_MS);
});

describe('import --blocks', () => {
  it('writes import blocks that adopt the whole account with zero writes', async () => {
    // The account already has these objects; the stack declares them, its state is empty.
    const shop = await api.packages.create({ type: 811, domainName: 'adopt-shop.com', extraDomainNames: ['adopt-shop.net'], label: 'Adopt Shop' });
    await api.mail.createMailbox(shop, 'adopt-shop.com', { local: 'info', send: true, receive: false, password: 'Adopt-Passw0rd!' });
    await api.mail.createForwarder(shop, 'adopt-shop.com', { local: 'sales', remote: 'team@example.org' });
    const { out, dir } = providerStack(tempDir('reseller-provider-import-'), 'adopt', {
      reseller_package: { shop: { domain_name: 'adopt-shop.com', extra_domain_names: ['adopt-shop.net'], package_type: 'Linux Unlimited', label: 'Adopt Shop' } },
      reseller_mailbox: { info: { package: '${reseller_package.shop.domain_name}', local_part: 'info', receive: false } },
      reseller_forwarder: { sales: { package: '${reseller_package.shop.domain_name}', local_part: 'sales', remote: 'team@example.org' } },
    });
    const run = await capture(runImportCli, ['--blocks', '--stacks', out], cliEnv());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*stacks\/adopt\/reseller-import\.tf\.json: 3 import block\(s\) for stack adopt\n$/);
    expect(JSON.parse(readFileSync(join(dir, 'reseller-import.tf.json'), 'utf8')).import).toEqual([
      { to: 'reseller_package.shop', id: 'adopt-shop.com' },
      { to: 'reseller_mailbox.info', id: 'info@adopt-shop.com' },
      { to: 'reseller_forwarder.sales', id: 'sales@adopt-shop.com' },
    ]);

    await terraform(tf, ['init', '-input=false', '-no-color'], dir, tfEnv());
    await emu.control('DELETE', 'requests');
    const before = emu.account();
    const plan = await savedPlan(tf, dir, tfEnv());
    const actions = (plan.json.resource_changes as any[]).map((rc) => [rc.address, rc.change.actions, rc.change.importing?.id]);
    expect(actions).toEqual([
      ['reseller_forwarder.sales', ['no-op'], 'sales@adopt-shop.com'],
      ['reseller_mailbox.info', ['no-op'], 'info@adopt-shop.com'],
      ['reseller_package.shop', ['no-op'], 'adopt-shop.com'],
    ]);
    expect(plan.planText).toContain('Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.');
    const text = await review(plan.json);
    expect(text.stdout).toContain('3 imported; 0 unchanged');
    expect(text.stdout).toContain('< package adopt-shop.com is imported (adopted by id "adopt-shop.com") as it is (no write)  [reseller_package.shop]');
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', 'p'], dir, tfEnv());
    expect(writes(await requests())).toEqual([]);
    expect(emu.account()).toEqual(before);
    const state = await terraform(tf, ['state', 'list'], dir, tfEnv());
    expect(state.stdout.trim().split('\n').sort()).toEqual(['reseller_forwarder.sales', 'reseller_mailbox.info', 'reseller_package.shop']);
    expect((await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, tfEnv(), [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('refuses a carrier stack, and options of the TypeScript mode (exit 64)', async () => {
    const out = tempDir('reseller-import-carrier-');
    const app = new App({ outdir: out });
    const stack = new TerraformStack(app, 'carrier');
    new ResellerHosting(stack, 'reseller', { apiUrl: emu.url, engine: 'terraform_data' });
    new HostingPackage(stack, 'shop', { domainName: 'carrier-shop.com', packageType: 'Linux Starter' });
    app.synth();
    const carrier = await capture(runImportCli, ['--blocks', '--stacks', out], cliEnv());
    expect(carrier.code).toBe(1);
    expect(carrier.stderr).toMatch(/stack carrier declares no reseller_\* resources: import blocks are for provider-engine stacks/);
    const usage = await capture(runImportCli, ['--blocks', '--out', 'x.ts'], cliEnv());
    expect(usage.code).toBe(64);
    expect(usage.stderr).toMatch(/--out does not go with --blocks/);
  });
});

describe('migration from the carriers to the provider', () => {
  /**
   * The migrating app: a package, a mailbox (on the package's second domain, `.net`) and a
   * forwarder, synthesized with `engine` into `out` (the same construct ids whatever the
   * engine). The carriers take the
   * mailbox password from an environment variable; the provider needs none to adopt.
   */
  function synthMigrating(out: string, name: string, domain: string, engine: 'terraform_data' | 'provider', withDns = false): string {
    const app = new App({ outdir: out });
    const stack = new TerraformStack(app, name);
    new LocalBackend(stack, { path: 'terraform.tfstate' }); // in the stack directory, not the working directory
    new ResellerHosting(stack, 'reseller', { apiUrl: emu.url, engine });
    const site = new HostingPackage(stack, 'site', { domainName: domain, extraDomainNames: [net(domain)], packageType: 'Linux Unlimited', label: 'Migrate' });
    new Mailbox(stack, 'info', { package: site, domain: net(domain), localPart: 'info', send: false, ...(engine === 'provider' ? {} : { passwordEnv: 'MIGRATE_PW' }) });
    new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
    if (withDns) new DnsRecord(stack, 'spf', { package: site, zone: net(domain), name: '@', type: 'TXT', value: 'v=spf1 -all' });
    app.synth();
    return join(out, 'stacks', name);
  }

  const net = (domain: string) => domain.replace(/\.com$/, '.net');

  /** The carrier stack, deployed. */
  async function deployCarrierStack(name: string, domain: string, withDns = false): Promise<{ out: string; dir: string }> {
    const out = tempDir(`reseller-${name}-`);
    const dir = synthMigrating(out, name, domain, 'terraform_data', withDns);
    const carrierEnv = handlerEnv(emu.url, journal, { MIGRATE_PW: 'Migrate-Passw0rd!' });
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, carrierEnv);
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], dir, carrierEnv);
    expect(mailOf(emu.account(), net(domain)).mailboxes.map((m) => m.local)).toEqual(['info']);
    return { out, dir };
  }

  /** The same objects as provider resources (same construct ids, so the same resource names). */
  const switchToProvider = (out: string, name: string, domain: string) =>
    providerStack(out, name, {
      reseller_package: { site: { domain_name: domain, extra_domain_names: [net(domain)], package_type: 'Linux Unlimited', label: 'Migrate' } },
      reseller_mailbox: { info: { package: '${reseller_package.site.domain_name}', domain: net(domain), local_part: 'info', send: false } },
      reseller_forwarder: { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: 'team@example.org' } },
    });

  it('moved blocks: the provider moves each carrier\'s state (MoveResourceState); nothing is deleted or created, the apply sends no write', async () => {
    const { out, dir } = await deployCarrierStack('moved', 'moved-site.com');
    const deployed = emu.account();
    // The same app, synthesized with engine 'provider' (the constructs' own provider stack).
    synthMigrating(out, 'moved', 'moved-site.com', 'provider');
    const synthesized = JSON.parse(readFileSync(join(dir, 'cdk.tf.json'), 'utf8'));
    expect(Object.keys(synthesized.resource).sort()).toEqual(['reseller_forwarder', 'reseller_mailbox', 'reseller_package']);
    const written = await capture(runImportCli, ['--moved', '--stacks', out], cliEnv());
    expect(written.stderr).toBe('');
    expect(written.stdout).toMatch(/^wrote .*stacks\/moved\/reseller-migrate\.tf\.json: 3 moved and 6 removed block\(s\) for stack moved\n$/);
    const blocks = JSON.parse(readFileSync(join(dir, 'reseller-migrate.tf.json'), 'utf8'));
    expect(blocks.moved).toEqual([
      { from: 'terraform_data.site', to: 'reseller_package.site' },
      { from: 'terraform_data.info', to: 'reseller_mailbox.info' },
      { from: 'terraform_data.sales', to: 'reseller_forwarder.sales' },
    ]);
    expect(blocks.removed).toContainEqual({ from: 'terraform_data.info_settings', lifecycle: { destroy: false } });
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, tfEnv());
    await emu.control('DELETE', 'requests');
    const plan = await savedPlan(tf, dir, tfEnv());
    const changes = (plan.json.resource_changes as any[]).map((rc) => [rc.address, rc.change.actions, rc.previous_address ?? null]);
    expect(changes).toEqual([
      ['reseller_forwarder.sales', ['no-op'], 'terraform_data.sales'],
      ['reseller_mailbox.info', ['no-op'], 'terraform_data.info'],
      ['reseller_package.site', ['no-op'], 'terraform_data.site'],
      ['terraform_data.info_settings', ['forget'], null],
      ['terraform_data.sales_settings', ['forget'], null],
      ['terraform_data.site_settings', ['forget'], null],
    ]);
    // drift reads the constructs' own provider stack: construct paths, package references resolved.
    const drift = await capture(runDriftCli, ['--stacks', out, '--json', '--detailed-exitcode'], cliEnv());
    expect(drift.code).toBe(0);
    expect((JSON.parse(drift.stdout) as DriftDocument).objects.map((o) => [o.address, o.path, o.key, o.status])).toEqual([
      ['reseller_package.site', 'moved/site', 'moved-site.com', 'in-sync'],
      ['reseller_mailbox.info', 'moved/info', 'info@moved-site.net', 'in-sync'],
      ['reseller_forwarder.sales', 'moved/sales', 'sales@moved-site.com', 'in-sync'],
    ]);
    const reviewed = await review(plan.json);
    // The refresh fills in what the moved states did not hold: reported as drift by Terraform, not by the review (the account did not change).
    expect(plan.json.resource_drift).toHaveLength(3);
    expect(reviewed.stdout).toContain('Reseller hosting plan review: 0 destructive, 0 orphaned, 0 retained, 0 updated in place, 0 created, 3 moved; 0 unchanged');
    expect(reviewed.stdout).not.toContain('CHANGED OUTSIDE TERRAFORM');
    expect(reviewed.stdout).toContain('> package moved-site.com is moved in the state from terraform_data.site (no write)  [reseller_package.site]');
    expect(reviewed.stdout).toContain('> mailbox info@moved-site.net is moved in the state from terraform_data.info (no write)  [reseller_mailbox.info]');
    expect(reviewed.stdout).toContain('terraform_data.site_settings: forget');
    expect(plan.showText).toContain('# terraform_data.info has moved to reseller_mailbox.info');
    expect(plan.showText).toContain('# terraform_data.site_settings will no longer be managed by Terraform, but will not be destroyed');
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', 'p'], dir, tfEnv());
    expect(writes(await requests())).toEqual([]);
    expect(emu.account()).toEqual(deployed);
    const state = await terraform(tf, ['state', 'list'], dir, tfEnv());
    expect(state.stdout.trim().split('\n').sort()).toEqual(['reseller_forwarder.sales', 'reseller_mailbox.info', 'reseller_package.site']);
    expect((await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, tfEnv(), [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('moved blocks move a DNS record in an extra domain\'s zone too: its first refresh reads it by the import id the definition formats', async () => {
    const { out, dir } = await deployCarrierStack('moveddns', 'moved-dns.com', true);
    const deployed = emu.account();
    synthMigrating(out, 'moveddns', 'moved-dns.com', 'provider', true);
    const written = await capture(runImportCli, ['--moved', '--stacks', out], cliEnv());
    expect(written.stdout).toMatch(/4 moved and 8 removed block\(s\) for stack moveddns/);
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, tfEnv());
    await emu.control('DELETE', 'requests');
    const plan = await savedPlan(tf, dir, tfEnv());
    const changes = (plan.json.resource_changes as any[]).filter((rc) => rc.type.startsWith('reseller_'));
    expect(changes.map((rc) => [rc.address, rc.change.actions, rc.previous_address ?? null])).toContainEqual(['reseller_dns_record.spf', ['no-op'], 'terraform_data.spf']);
    expect(changes.every((rc) => rc.change.actions[0] === 'no-op')).toBe(true);
    const record = changes.find((rc) => rc.address === 'reseller_dns_record.spf').change.after;
    expect(record).toMatchObject({ package: 'moved-dns.com', zone: 'moved-dns.net', name: '@', type: 'TXT', value: 'v=spf1 -all' });
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', 'p'], dir, tfEnv());
    expect(writes(await requests())).toEqual([]);
    expect(emu.account()).toEqual(deployed);
    expect((await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, tfEnv(), [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('MoveResourceState refuses a settings carrier, another kind, and other resource types, with the reason', async () => {
    const kinds = new Map(coreModel({}).kinds.map((k) => [k.typeName, k]));
    const move = (target: string, sourceTypeName: string, state: unknown, sourceProviderAddress = 'terraform.io/builtin/terraform') =>
      moveResourceState(kinds.get(target)!, objectTypeOf(kinds.get(target)!), { sourceProviderAddress, sourceTypeName, sourceState: { json: Buffer.from(JSON.stringify(state)) } });
    const dynamic = (value: unknown) => ({ value, type: ['map', 'string'] });
    const settings = await move('reseller_package', 'terraform_data', { id: 'x', triggers_replace: dynamic({ object: 'y', label: 'Migrate' }) });
    expect(JSON.stringify(settings)).toMatch(/it is not an object carrier.*Move the object resource \(e\.g\. terraform_data\.shop\), not its _settings resource/);
    const wrongKind = await move('reseller_forwarder', 'terraform_data', { triggers_replace: dynamic({ kind: 'mailbox', key: 'info@x.com', placement: 'x.com' }) });
    expect(JSON.stringify(wrongKind)).toContain('Cannot move terraform_data (terraform.io/builtin/terraform) to reseller_forwarder: it carries a mailbox');
    const other = await move('reseller_package', 'aws_instance', {}, 'registry.terraform.io/hashicorp/aws');
    expect(JSON.stringify(other)).toContain('moves only the carriers of its provisioner engines');
    const ok = await move('reseller_mailbox', 'null_resource', { triggers: { kind: 'mailbox', key: 'info@x.com', placement: 'x.com', parent: '' } }, 'registry.terraform.io/hashicorp/null');
    expect(ok).toMatchObject({ diagnostics: [] });
    // Marked as moved, with the import id (the definition's formatImportId) its first refresh reads the object by.
    expect(isMoved(ok.targetPrivate)).toBe(true);
    expect(String(ok.targetPrivate)).toBe('reseller:moved-from-carrier\ninfo@x.com');
  });

  it('state rm of the carriers, then import blocks: nothing is deleted or created, the apply sends no write', async () => {
    const { out, dir } = await deployCarrierStack('migrate', 'migrate-site.com');
    const deployed = emu.account();
    switchToProvider(out, 'migrate', 'migrate-site.com');
    await terraform(tf, ['init', '-input=false', '-no-color'], dir, tfEnv());

    // 3. The documented sequence: forget the carriers (their destroy-time provisioners must not run), write import blocks.
    const listed = await terraform(tf, ['state', 'list'], dir, tfEnv());
    const carriers = listed.stdout.trim().split('\n').filter((a) => /^(terraform_data|null_resource)\./.test(a));
    expect(carriers.sort()).toEqual(['terraform_data.info', 'terraform_data.info_settings', 'terraform_data.sales', 'terraform_data.sales_settings', 'terraform_data.site', 'terraform_data.site_settings']);
    await terraform(tf, ['state', 'rm', ...carriers], dir, tfEnv());
    const blocks = await capture(runImportCli, ['--blocks', '--stacks', out], cliEnv());
    expect(blocks.code).toBe(0);

    // 4. The plan imports the three objects and deletes or creates nothing; the apply writes nothing.
    await emu.control('DELETE', 'requests');
    const plan = await savedPlan(tf, dir, tfEnv());
    expect(plan.changes).toEqual({});
    const changes = plan.json.resource_changes as any[];
    expect(changes.map((rc) => [rc.address, rc.change.actions, Boolean(rc.change.importing)])).toEqual([
      ['reseller_forwarder.sales', ['no-op'], true],
      ['reseller_mailbox.info', ['no-op'], true],
      ['reseller_package.site', ['no-op'], true],
    ]);
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', 'p'], dir, tfEnv());
    expect(writes(await requests())).toEqual([]);
    expect(emu.account()).toEqual(deployed);
    expect((await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], dir, tfEnv(), [0, 2])).code).toBe(0);
  }, E2E_TIMEOUT_MS);
});
