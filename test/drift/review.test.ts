import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { CloudProvider, Forwarder, HostingPackage, ManagedCloudServer, ResellerHosting } from '../../src';
import { runReviewCli } from '../../src/commands/review';
import { reviewPlan } from '../../src/commands/review/review';
import { EXAMPLE_STACK_NAME, ExampleOptions, ExampleResellerStack } from '../../examples/stack';
import { findTerraform, runTerraform } from '../../scripts/lib/terraform';
import { capture, removeTempDirs, runBinary, tempDir } from './helpers';

/**
 * `reseller-hosting review` on REAL plans: Terraform plans synthesized variants of the
 * example stack against the state of the deployed example, and `terraform show -json`
 * gives the document review reads. The baseline state is made by applying the example
 * with its provisioners left out: provisioners never reach the state or the plan's
 * resource changes, and review reads nothing else, so no API is needed here.
 */
let terraform: string;
let workDir: string;

type Edit = (stack: ExampleResellerStack) => void;

function synth(options: ExampleOptions = {}, edit?: Edit): any {
  const outdir = tempDir('reseller-review-synth-');
  const app = new App({ outdir });
  const stack = new ExampleResellerStack(app, EXAMPLE_STACK_NAME, { engine: 'terraform_data', ...options });
  edit?.(stack);
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', EXAMPLE_STACK_NAME, 'cdk.tf.json'), 'utf8'));
}

/**
 * The configuration without the resources of the named constructs (object and settings):
 * what Terraform sees once their code is deleted (without absent: true first).
 */
function withoutConstructs(config: any, ids: string[]): any {
  const resources = { ...config.resource.terraform_data };
  for (const id of ids) {
    if (!resources[id] || !resources[`${id}_settings`]) throw new Error(`no construct ${id} in the configuration`);
    delete resources[id];
    delete resources[`${id}_settings`];
  }
  return { ...config, resource: { ...config.resource, terraform_data: resources } };
}

function synthStack(build: (stack: TerraformStack) => void): any {
  const outdir = tempDir('reseller-review-synth-');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, EXAMPLE_STACK_NAME);
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' }); // these reviews are of carrier plans
  build(stack);
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', EXAMPLE_STACK_NAME, 'cdk.tf.json'), 'utf8'));
}

async function tf(args: string[]): Promise<string> {
  const r = await runTerraform(args, { cwd: workDir, binary: terraform, env: { TF_VAR_mailbox_password: 'not-used-by-a-plan' } });
  if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} failed (${r.code}):\n${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Plans `config` against the baseline state; returns the path of `terraform show -json` output. */
async function plan(name: string, config: any): Promise<string> {
  writeFileSync(join(workDir, 'cdk.tf.json'), JSON.stringify(config));
  await tf(['plan', '-input=false', '-lock=false', `-out=${name}.tfplan`]);
  const file = join(workDir, `${name}.json`);
  writeFileSync(file, await tf(['show', '-json', `${name}.tfplan`]));
  return file;
}

const review = (args: string[]) => capture(runReviewCli, args, process.env, workDir);

let combined: string;
let serverAbsent: string;
let serverRemoved: string;
let noChange: string;
let updateOnly: string;
let letGo: string;

beforeAll(async () => {
  terraform = findTerraform(); // a missing terraform fails here, loudly: never skipped
  workDir = tempDir('reseller-review-');
  const baseline = synth();
  for (const byName of Object.values<any>(baseline.resource)) for (const body of Object.values<any>(byName)) delete body.provisioner;
  writeFileSync(join(workDir, 'cdk.tf.json'), JSON.stringify(baseline));
  await tf(['init', '-input=false']);
  await tf(['apply', '-auto-approve', '-input=false', '-lock=false']);

  combined = await plan('combined', withoutConstructs(synth(
    { shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'], infoPasswordVersion: 2, blogDomain: 'example-journal.com', ordersAbsent: true },
    (stack) => {
      const shop = stack.node.findChild('shop') as HostingPackage;
      new Forwarder(stack, 'shop_support', { package: shop, localPart: 'support', remote: 'helpdesk@example.org' });
    },
  ), ['shop_sales'])); // removed from the code without absent: true
  const web1Props = {
    hostName: 'web1.example-shop.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', periodMonths: 1,
    forUser: 'stack-user:989901', branded: true,
  };
  // Declaring web1 (and the package on it) absent: the example without them, plus the
  // resources the same two constructs synthesize with absent: true (declared in a stack of
  // the same name, because a construct id cannot be declared twice in one stack).
  const withoutServer = withoutConstructs(synth(), ['shop_app', 'web1']);
  const absentOnly = synthStack((stack) => {
    const web1 = new ManagedCloudServer(stack, 'web1', { ...web1Props, absent: true });
    new HostingPackage(stack, 'shop_app', { domainName: 'app.example-shop.com', packageType: 'Managed Cloud', label: 'Example Shop app', cloudServer: web1, absent: true });
  });
  serverAbsent = await plan('server-absent', {
    ...withoutServer,
    resource: { terraform_data: { ...withoutServer.resource.terraform_data, ...absentOnly.resource.terraform_data } },
  });
  serverRemoved = await plan('server-removed', withoutServer);
  noChange = await plan('no-change', synth());
  updateOnly = await plan('update-only', synth({ ordersSend: false, salesRemote: 'orders-desk@example.org' }));
  // A forwarder let go of with removed blocks (destroy = false) for both of its carriers.
  letGo = await plan('let-go', {
    ...withoutConstructs(synth(), ['shop_sales']),
    removed: ['terraform_data.shop_sales', 'terraform_data.shop_sales_settings'].map((from) => ({ from, lifecycle: { destroy: false } })),
  });
}, 60_000);
afterAll(() => removeTempDirs());

test('each category of a combined plan, grouped per construct', async () => {
  const result = reviewPlan(JSON.parse(readFileSync(combined, 'utf8')));
  expect(result.counts).toEqual({ destructive: 4, orphan: 1, retained: 0, updated: 2, created: 1, imported: 0, forgotten: 0, moved: 0, drift: 0 });
  expect(result.unchanged).toBe(2); // web1 and shop_app
  const line = (address: string) => result.items.find((i) => i.address === address)!;
  expect(line('terraform_data.blog')).toMatchObject({
    category: 'destructive', kind: 'package', key: 'example-blog.com', newKey: 'example-journal.com',
    summary: 'package example-blog.com is REPLACED: deleted with its mail, DNS records and MySQL databases, then example-journal.com created (its primary domain changes)',
  });
  expect(line('terraform_data.blog_editor')).toMatchObject({
    category: 'destructive', newKey: 'editor@example-journal.com',
    summary: 'mailbox editor@example-blog.com is REPLACED: deleted with the mail stored in it, then editor@example-journal.com created (its package example-blog.com is replaced)',
  });
  expect(line('terraform_data.shop_orders')).toMatchObject({
    category: 'destructive', summary: 'mailbox orders@example-shop.com is DELETED (declared absent: true), with the mail stored in it',
  });
  expect(line('terraform_data.shop_sales')).toMatchObject({ category: 'orphan', kind: 'forwarder', key: 'sales@example-shop.com' });
  expect(line('terraform_data.shop_sales').summary).toMatch(/removed from the code without absent: true.*the remote object stays/);
  expect(line('terraform_data.shop')).toMatchObject({
    category: 'updated',
    changes: [{ field: 'extraDomainNames', before: '["example-shop.net","example-shop.org"]', after: '["example-shop.co.uk","example-shop.net"]' }],
  });
  expect(line('terraform_data.shop_info')).toMatchObject({
    category: 'updated', changes: [], passwordRotation: { before: '1', after: '2' },
    summary: 'mailbox info@example-shop.com is updated in place: password rotated (version 1 -> 2)',
  });
  expect(line('terraform_data.shop_support')).toMatchObject({ category: 'created', kind: 'forwarder', key: 'support@example-shop.com' });
  // One line per construct: the settings and password resources are folded in.
  expect(result.items.map((i) => i.address).filter((a) => /_(settings|password)$/.test(a))).toEqual([]);
  expect(result.otherChanges).toEqual([]);
});

test('plain text: highlighted destructive lines, field values, never a password', async () => {
  const run = await review([combined]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Reseller hosting plan review: 4 destructive, 1 orphaned, 0 retained, 2 updated in place, 1 created; 2 unchanged');
  expect(run.stdout).toMatch(/DESTRUCTIVE \(remote objects are deleted or replaced\):\n  ! package example-blog\.com is REPLACED/);
  expect(run.stdout).toContain('  ~ package example-shop.com is updated in place: extraDomainNames ["example-shop.net","example-shop.org"] -> ["example-shop.co.uk","example-shop.net"]  [terraform_data.shop]');
  expect(run.stdout).toContain('  ~ mailbox info@example-shop.com is updated in place: password rotated (version 1 -> 2)  [terraform_data.shop_info]');
  expect(run.stdout).toContain('  + forwarder support@example-shop.com is created  [terraform_data.shop_support]');
  expect(run.stdout).toMatch(/ORPHANED[^\n]*:\n  ! forwarder sales@example-shop\.com is orphaned/);
  expect(run.stdout).not.toContain('not-used-by-a-plan');
});

test('--markdown for a pull-request comment', async () => {
  const run = await review([combined, '--markdown']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^### Reseller hosting plan review\n\n\*\*4 destructive\*\* · \*\*1 orphaned\*\* · 0 retained · 2 updated in place · 1 created · 2 unchanged/);
  expect(run.stdout).toContain('#### :warning: Destructive (4)');
  expect(run.stdout).toContain('| **package `example-blog.com` → `example-journal.com`** |');
  expect(run.stdout).toContain('| package `example-shop.com` | `extraDomainNames`: `["example-shop.net","example-shop.org"]` → `["example-shop.co.uk","example-shop.net"]` | `terraform_data.shop` |');
  expect(run.stdout).toContain('password rotated (version 1 → 2)');
  expect(run.stdout).toContain('#### :warning: Orphaned (1)');
});

test('--fail-on exits 2 (differences found) when a named category is present, 0 otherwise', async () => {
  const failing = await review([combined, '--fail-on', 'destructive,orphan']);
  expect(failing.code).toBe(2);
  expect(failing.stderr).toMatch(/the plan has 4 destructive, 1 orphan \(--fail-on destructive,orphan\)/);
  expect(failing.stdout).toContain('Reseller hosting plan review'); // the summary is still printed
  expect((await review([updateOnly, '--fail-on', 'destructive,orphan'])).code).toBe(0);
  expect((await review([updateOnly, '--fail-on', 'updated'])).code).toBe(2);
  expect((await review([combined, '--fail-on', 'created', '--markdown'])).code).toBe(2);
  expect((await review([noChange, '--fail-on', 'destructive,orphan,retained,updated,created'])).code).toBe(0);
});

test('updated in place: each field old -> new', async () => {
  const result = reviewPlan(JSON.parse(readFileSync(updateOnly, 'utf8')));
  expect(result.counts).toEqual({ destructive: 0, orphan: 0, retained: 0, updated: 2, created: 0, imported: 0, forgotten: 0, moved: 0, drift: 0 });
  expect(result.items.map((i) => i.summary)).toEqual([
    'mailbox orders@example-shop.com is updated in place: send true -> false',
    'forwarder sales@example-shop.com is updated in place: remote "sales-team@example.org" -> "orders-desk@example.org"',
  ]);
});

test('a removed block with destroy = false: the object is no longer managed, nothing is written (not orphaned, not deleted)', async () => {
  const result = reviewPlan(JSON.parse(readFileSync(letGo, 'utf8')));
  expect(result.counts).toMatchObject({ destructive: 0, orphan: 0, forgotten: 1 });
  expect(result.items).toEqual([expect.objectContaining({
    category: 'forgotten', kind: 'forwarder', key: 'sales@example-shop.com',
    summary: 'forwarder sales@example-shop.com is no longer managed (a removed block with destroy = false): it stays in the account as it is; nothing is written',
  })]);
  const text = await review([letGo]);
  expect(text.stdout).toMatch(/1 no longer managed/);
  expect(text.stdout).toMatch(/NO LONGER MANAGED \(removed blocks with destroy = false[^\n]*\n  - forwarder sales@example-shop\.com/);
  expect((await review([letGo, '--fail-on', 'forgotten'])).code).toBe(2);
});

test('a cloud server planned for delete is retained: declared absent, or removed from the code', async () => {
  const absent = reviewPlan(JSON.parse(readFileSync(serverAbsent, 'utf8')));
  expect(absent.counts).toMatchObject({ retained: 1, destructive: 1, orphan: 0 });
  expect(absent.items.find((i) => i.kind === 'cloud-server')!.summary).toMatch(
    /^cloud server web1\.example-shop\.com is retained \(the API cannot cancel servers\): it keeps running and billing, unmanaged;/,
  );
  expect(absent.items.find((i) => i.kind === 'package')).toMatchObject({ category: 'destructive', key: 'app.example-shop.com' });

  const removed = reviewPlan(JSON.parse(readFileSync(serverRemoved, 'utf8')));
  expect(removed.counts).toMatchObject({ retained: 1, orphan: 1, destructive: 0 });
  expect(removed.items.find((i) => i.kind === 'cloud-server')!.summary).toContain('(its construct was removed from the code)');
  expect(removed.items.find((i) => i.kind === 'package')).toMatchObject({ category: 'orphan', key: 'app.example-shop.com' });
  expect((await review([serverRemoved, '--fail-on', 'retained'])).code).toBe(2);
});

test('no changes; stdin; input and usage errors', async () => {
  const none = await review([noChange]);
  expect(none.stdout).toContain('0 destructive, 0 orphaned, 0 retained, 0 updated in place, 0 created; 9 unchanged');
  expect(none.stdout).toContain('No reseller object changes.');
  const piped = await runBinary(['review', '-', '--markdown', '--fail-on', 'orphan'], process.env, workDir, readFileSync(combined, 'utf8'));
  expect(piped.code).toBe(2);
  expect(piped.stdout).toContain('#### :warning: Orphaned (1)');
  const binary = await review([join(workDir, 'no-change.tfplan')]);
  expect(binary.code).toBe(1);
  expect(binary.stderr).toMatch(/is a binary plan file: convert it first with: terraform show -json/);
  expect((await review([join(workDir, 'missing.json')])).code).toBe(1);
  const notPlan = join(workDir, 'not-a-plan.json');
  writeFileSync(notPlan, '{"hello": 1}');
  expect((await review([notPlan])).stderr).toMatch(/not a Terraform plan/);
  expect((await review([])).code).toBe(64);
  const unknown = await review([combined, '--fail-on', 'destructive,everything']);
  expect(unknown.code).toBe(64);
  expect(unknown.stderr).toMatch(/unknown category "everything"/);
  const json = await review([combined, '--json']);
  expect(JSON.parse(json.stdout)).toMatchObject({ version: 1, counts: { destructive: 4 } });
});

test('null_resource carriers and sensitive trigger values', () => {
  // The null provider cannot be downloaded offline: this plan fragment has the shape
  // terraform show -json gives for null_resource (`triggers`) with a sensitive label.
  const settings = (label: string) => ({ object: 'id-1', label, packageType: 'Linux Unlimited', enabled: 'true', extraDomainNames: '[]', stackUser: 'null' });
  const result = reviewPlan({
    format_version: '1.2',
    resource_changes: [
      { address: 'null_resource.site', mode: 'managed', type: 'null_resource', name: 'site',
        change: { actions: ['no-op'], before: { id: '1', triggers: { kind: 'package', key: 'example.com', placement: '', parent: '' } }, after: { id: '1', triggers: { kind: 'package', key: 'example.com', placement: '', parent: '' } } } },
      { address: 'null_resource.site_settings', mode: 'managed', type: 'null_resource', name: 'site_settings',
        change: { actions: ['delete', 'create'], before: { triggers: settings('Old secret') }, after: { triggers: settings('New secret') },
          after_unknown: { id: true, triggers: {} }, before_sensitive: { triggers: { label: true } }, after_sensitive: { triggers: { label: true } } } },
    ],
    configuration: { root_module: { resources: [{ address: 'null_resource.site' }, { address: 'null_resource.site_settings' }] } },
  });
  expect(result.items).toEqual([
    expect.objectContaining({
      category: 'updated', summary: 'package example.com is updated in place: label (changed)',
      changes: [{ field: 'label', before: '(sensitive)', after: '(changed)', sensitive: true }],
    }),
  ]);
  expect(JSON.stringify(result)).not.toContain('secret');
});


test('a password version where there was none (upgrade from 0.1) is not reported as a rotation', () => {
  const identity = { kind: 'mailbox', key: 'info@example.com', placement: 'example.com', parent: 'pkg-1' };
  const result = reviewPlan({
    format_version: '1.2',
    resource_changes: [
      { address: 'terraform_data.info', mode: 'managed', type: 'terraform_data', name: 'info',
        change: { actions: ['no-op'], before: { id: 'id-1', triggers_replace: identity }, after: { id: 'id-1', triggers_replace: identity } } },
      { address: 'terraform_data.info_settings', mode: 'managed', type: 'terraform_data', name: 'info_settings',
        change: { actions: ['delete', 'create'], before: { triggers_replace: { object: 'id-1', send: 'true', receive: 'true' } },
          after: { triggers_replace: { object: 'id-1', passwordVersion: '1', send: 'true', receive: 'true' } }, after_unknown: { id: true } } },
      // 0.1's password resource, no longer in the configuration.
      { address: 'terraform_data.info_password', mode: 'managed', type: 'terraform_data', name: 'info_password',
        change: { actions: ['delete'], before: { triggers_replace: { object: 'id-1', passwordVersion: '1' } }, after: null }, action_reason: 'delete_because_no_resource_config' },
    ],
    configuration: { root_module: { resources: [{ address: 'terraform_data.info' }, { address: 'terraform_data.info_settings' }] } },
  });
  expect(result.items).toEqual([
    expect.objectContaining({
      category: 'updated',
      changes: [],
      summary: 'mailbox info@example.com is updated in place: password version 1 recorded; the mailbox keeps its current password (raise passwordVersion to set the declared one)',
    }),
  ]);
  expect(result.items[0].passwordRotation).toBeUndefined();
});

test('provider plans: what only the state records (creation-time choices, values the API does not read back) is told apart from writes', () => {
  const server = { id: 'web1.example.com', host_name: 'web1.example.com', cloud_provider: 'native', spec: 'small', zone: 'dc_location-uk', period_months: 1, server_id: 7 };
  const site = { id: 'example.com', domain_name: 'example.com', label: 'Old', document_roots: null, enabled: true, extra_domain_names: [], package_type: 'Linux Starter' };
  const result = reviewPlan({
    format_version: '1.2',
    resource_changes: [
      // Adopted by an import block; the configuration declares branded and for_user, which an import cannot read.
      { address: 'reseller_cloud_server.web', mode: 'managed', type: 'reseller_cloud_server', name: 'web',
        change: { actions: ['update'], importing: { id: 'web1.example.com' }, before: { ...server, branded: null, for_user: null }, after: { ...server, branded: true, for_user: 'ops@example.com' } } },
      // An update that writes the label, and a document root that only a new package would get.
      { address: 'reseller_package.site', mode: 'managed', type: 'reseller_package', name: 'site',
        change: { actions: ['update'], before: site, after: { ...site, label: 'New', document_roots: { 'example.com': 'public_html/shop' } } } },
    ],
  });
  const line = (address: string) => result.items.find((i) => i.address === address)!.summary;
  expect(line('reseller_cloud_server.web')).toBe(
    'cloud server web1.example.com is imported (adopted by id "web1.example.com") as it is (no write); ' +
      'recorded in the state only: branded = true (not read back from the API); for user = "ops@example.com" (applied at creation only)',
  );
  expect(line('reseller_package.site')).toBe(
    'package example.com is updated in place: label changed from "Old" to "New"; ' +
      'recorded in the state only: document roots = {"example.com":"public_html/shop"} (applied at creation only)',
  );
});
