import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack, TerraformVariable } from 'cdktf';
import { ResellerClient } from '../../src/client';
import { runDriftCli } from '../../src/commands/drift';
import type { DriftDocument } from '../../src/commands/drift/report';
import { HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import { legacyStack } from '../integration/legacy-stack';
import { MiniTerraform } from '../helpers/mini-terraform';
import { sha256 } from '../integration/support';
import { apiEnv, capture, LoggedRequest, outOfBand, removeTempDirs, runBinary, tempDir } from './helpers';

/**
 * `reseller-hosting drift` against the emulator: the example stack is deployed by
 * running its synthesized provisioners, then changed out of band through the API,
 * and drift must report exactly what changed, with the right exit codes, and repair it.
 * Objects are reported at the address of their object resource (`terraform_data.shop`),
 * although the settings resource (`terraform_data.shop_settings`) runs ensure; stacks
 * synthesized by 0.1 (ensure on the object resource) are read the same way.
 */
const PASSWORD = 'Initial-Passw0rd!';

let emu: TestEmulator;
let outdir: string;
let env: NodeJS.ProcessEnv;
let api: ResellerClient;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 100 });
  outdir = tempDir('reseller-drift-');
  const journal = tempDir('journal-');
  const { stackDir, json } = synthExample({}, outdir);
  const runs = await new MiniTerraform(stackDir, handlerEnv(emu.url, journal), { mailbox_password: PASSWORD }).apply(json);
  if (runs.length !== 9 || runs.some((r) => r.command !== 'ensure')) throw new Error(`unexpected deployment: ${runs.map((r) => r.address)}`);
  env = apiEnv(emu.url, journal);
  api = outOfBand(emu.url);
}, 90_000); // 9 handler processes, on a busy 2-core machine
afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs(emu?.dir);
});

const drift = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => capture(runDriftCli, ['--stacks', outdir, ...args], { ...env, ...extraEnv });
const driftJson = async (args: string[] = [], extraEnv: NodeJS.ProcessEnv = {}) => {
  const run = await drift(['--json', ...args], extraEnv);
  return { ...run, doc: JSON.parse(run.stdout) as DriftDocument };
};
const object = (doc: DriftDocument, address: string) => doc.objects.find((o) => o.address === address)!;
const requests = async () => (await emu.control('GET', 'requests')) as LoggedRequest[];
const packageId = (name: string) => emu.account().packages.find((p) => p.name === name)!.id;

test('a freshly deployed stack is in sync: exit 0, also with --detailed-exitcode', async () => {
  const table = await drift(['--detailed-exitcode']);
  expect(table.stderr).toBe('');
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/Stack reseller-example \(.*cdk\.tf\.json\): 9 object\(s\)/);
  expect(table.stdout).toMatch(/in sync\s+package\s+example-shop\.com\s+terraform_data\.shop\n/);
  expect(table.stdout).toMatch(/Summary: 9 declared object\(s\): 9 in sync; 0 unmanaged\. No drift\./);

  const { code, doc } = await driftJson(['--detailed-exitcode']);
  expect(code).toBe(0);
  expect(doc.version).toBe(2);
  expect(doc.summary).toEqual({
    declared: 9, inSync: 9, missing: 0, changed: 0, stillPresent: 0, absent: 0, unknown: 0, error: 0, unmanaged: 0, drift: false, unmanagedCounted: false,
  });
  expect(doc.objects.map((o) => `${o.kind} ${o.key}`)).toEqual([
    'cloud-server web1.example-shop.com',
    'package app.example-shop.com',
    'package example-blog.com',
    'package example-shop.com',
    'mailbox editor@example-blog.com',
    'mailbox info@example-shop.com',
    'mailbox orders@example-shop.com',
    'forwarder sales@example-shop.com',
    'forwarder tips@example-blog.com',
  ]);
  // The settings resources (which run ensure) are not reported as objects of their own.
  expect(doc.objects.map((o) => o.address).filter((a) => a.endsWith('_settings'))).toEqual([]);
  expect(object(doc, 'terraform_data.shop_app')).toEqual({
    stack: 'reseller-example', kind: 'package', key: 'app.example-shop.com', placement: 'web1.example-shop.com',
    path: 'reseller-example/shop_app', address: 'terraform_data.shop_app', declared: 'present', status: 'in-sync',
    diffs: [], message: null, replaceAddress: null, liveId: String(packageId('app.example-shop.com')),
  });
});

test('reads each list once and the mail of each domain once, and writes nothing', async () => {
  await emu.control('DELETE', 'requests');
  const { doc } = await driftJson();
  const log = await requests();
  const domains = emu.account().packages.flatMap((p) => p.names);
  expect(log.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
  expect(log.filter((r) => !r.path.includes('/email/')).map((r) => r.path).sort()).toEqual(
    ['/cloud_server', '/package', '/reseller/*/packageTypes', '/reseller/*/susers'],
  );
  const mailPaths = log.filter((r) => r.path.includes('/email/')).map((r) => r.path.split('/email/')[1]).sort();
  expect(mailPaths).toEqual([...domains].sort());
  expect(doc.requests).toBe(log.length);
});

test('out-of-band deletions and changes are reported field by field; --detailed-exitcode exits 2', async () => {
  const shop = packageId('example-shop.com');
  const blog = packageId('example-blog.com');
  await api.packages.setLabel(blog, 'Renamed in the panel');
  await api.packages.setType(blog, 811);
  await api.packages.setEnabled(shop, false);
  await api.packages.changeNames(shop, { remove: ['example-shop.org'] });
  const shopMail = await api.mail.get(shop, 'example-shop.com');
  const info = shopMail.mailboxes.find((m) => m.local === 'info')!;
  const orders = shopMail.mailboxes.find((m) => m.local === 'orders')!;
  await api.mail.delete(shop, 'example-shop.com', [info.id]);
  await api.mail.updateMailbox(shop, 'example-shop.com', { id: orders.id, send: false });
  await api.mail.createForwarder(shop, 'example-shop.com', { local: 'sales', remote: 'someone-else@example.org' });
  await api.mail.delete(blog, 'example-blog.com', (await api.mail.get(blog, 'example-blog.com')).forwarders.map((f) => f.id));
  // Unmanaged: a mailbox and a package nobody declares.
  await api.mail.createMailbox(shop, 'example-shop.com', { local: 'extra', send: true, receive: false, password: 'Extra-Passw0rd!' });
  await api.packages.create({ type: 812, domainName: 'stray.example.net', extraDomainNames: [] });

  const { code, doc, stderr } = await driftJson(['--detailed-exitcode']);
  expect(stderr).toBe('');
  expect(code).toBe(2);
  expect(doc.summary).toMatchObject({ declared: 9, inSync: 3, changed: 4, missing: 2, unmanaged: 2, drift: true });
  expect(object(doc, 'terraform_data.blog')).toMatchObject({
    status: 'changed',
    diffs: [
      { field: 'packageType', declared: 'Linux Starter', live: 'Linux Unlimited' },
      { field: 'label', declared: 'Example Blog', live: 'Renamed in the panel' },
    ],
    replaceAddress: 'terraform_data.blog_settings',
  });
  expect(object(doc, 'terraform_data.shop')).toMatchObject({
    status: 'changed',
    diffs: [
      { field: 'extraDomainNames', declared: ['example-shop.net', 'example-shop.org'], live: ['example-shop.net'] },
      { field: 'enabled', declared: true, live: false },
    ],
  });
  expect(object(doc, 'terraform_data.shop_info')).toMatchObject({
    status: 'missing', diffs: [], replaceAddress: 'terraform_data.shop_info', liveId: null,
  });
  expect(object(doc, 'terraform_data.shop_orders')).toMatchObject({
    status: 'changed', diffs: [{ field: 'send', declared: true, live: false }], replaceAddress: 'terraform_data.shop_orders_settings',
  });
  expect(object(doc, 'terraform_data.shop_sales')).toMatchObject({
    status: 'changed', diffs: [{ field: 'remote', declared: 'sales-team@example.org', live: ['sales-team@example.org', 'someone-else@example.org'] }],
  });
  expect(object(doc, 'terraform_data.blog_tips')).toMatchObject({ status: 'missing', replaceAddress: 'terraform_data.blog_tips' });
  expect(doc.unmanaged).toEqual([
    { kind: 'package', key: 'stray.example.net', placement: '', id: expect.any(String), detail: 'Linux Starter' },
    { kind: 'mailbox', key: 'extra@example-shop.com', placement: 'example-shop.com', id: expect.stringMatching(/^m/), detail: 'send true, receive false' },
  ]);

  // The table says the same in words, declared -> live, with the -replace addresses.
  const table = await drift(['--detailed-exitcode']);
  expect(table.code).toBe(2);
  expect(table.stdout).toContain('label: "Example Blog" (declared) -> "Renamed in the panel" (live)');
  expect(table.stdout).toContain('packageType: "Linux Starter" (declared) -> "Linux Unlimited" (live)');
  expect(table.stdout).toMatch(/MISSING\s+mailbox\s+info@example-shop\.com\s+terraform_data\.shop_info/);
  expect(table.stdout).toMatch(/Unmanaged: 2 object\(s\)[^\n]*never deletes them/);
  expect(table.stdout).toMatch(/package\s+stray\.example\.net\s+id \d+: Linux Starter/);
  expect(table.stdout).toContain('terraform apply -replace=terraform_data.blog_settings -replace=terraform_data.shop_settings');
  expect(table.stdout).toContain('-replace=terraform_data.shop_info ');

  // Without --detailed-exitcode, drift is still success (as with terraform plan).
  expect((await drift([])).code).toBe(0);
  // Unmanaged objects are listed, and not drift unless --fail-on-unmanaged says so.
  expect((await driftJson([])).doc.unmanaged).toHaveLength(2);
});

test('--json is stable: the same account gives byte-identical documents', async () => {
  const a = await drift(['--json']);
  const b = await drift(['--json']);
  expect(a.stdout).toBe(b.stdout);
  const doc = JSON.parse(a.stdout);
  expect(Object.keys(doc)).toEqual(['version', 'account', 'stacks', 'summary', 'objects', 'unmanaged', 'requests', 'fix']);
  for (const o of doc.objects) {
    expect(Object.keys(o)).toEqual(['stack', 'kind', 'key', 'placement', 'path', 'address', 'declared', 'status', 'diffs', 'message', 'replaceAddress', 'liveId']);
  }
});

test('--fix repairs what it can; a missing mailbox without a password is skipped and said so', async () => {
  const run = await drift(['--fix', '--detailed-exitcode']);
  // Before: the drift table; then the report after the fix. The progress, one line per object, goes to stderr.
  expect(run.stdout).toMatch(/CHANGED\s+package\s+example-blog\.com[\s\S]*Fixing the drifted objects/);
  expect(run.stderr).toMatch(/skipped mailbox info@example-shop\.com \(terraform_data\.shop_info\): a missing mailbox cannot be created without its password: set RESELLER_MAILBOX_PASSWORD/);
  expect(run.stderr).toMatch(/^reconciling package example-blog\.com \(terraform_data\.blog\)$/m);
  expect(run.stdout).not.toMatch(/^reconciling /m);
  expect(run.stdout).toMatch(/fixed\s+terraform_data\.blog\s+package example-blog\.com/);
  expect(run.stdout).toMatch(/After --fix:[\s\S]*MISSING\s+mailbox\s+info@example-shop\.com/);
  expect(run.code).toBe(2); // info@ still missing, and unmanaged objects remain
  const shop = emu.account().packages.find((p) => p.name === 'example-shop.com')!;
  expect(shop.enabled).toBe(true);
  expect(shop.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
  expect(mailOf(emu.account(), 'example-shop.com').forwarders.map((f) => f.remote)).toEqual(['sales-team@example.org']);
  expect(mailOf(emu.account(), 'example-blog.com').forwarders.map((f) => f.remote)).toEqual(['editor@example-blog.com']);
});

test('--fix with the password recreates the mailbox; the second report is clean; unmanaged objects are never deleted', async () => {
  const { code, doc, stderr } = await driftJson(['--fix', '--detailed-exitcode'], { RESELLER_MAILBOX_PASSWORD: PASSWORD });
  expect(stderr).toMatch(/reconciling mailbox info@example-shop\.com/);
  expect(stderr).toMatch(/2 unmanaged object\(s\) left as they are/);
  expect(stderr).not.toContain(PASSWORD);
  expect(code).toBe(0);
  expect(doc.fix!.before).toMatchObject({ missing: 1, drift: true });
  expect(doc.fix!.actions).toEqual([
    expect.objectContaining({ address: 'terraform_data.shop_info', action: 'ensure', outcome: 'fixed', message: 'created mailbox info@example-shop.com' }),
  ]);
  expect(doc.summary).toMatchObject({ inSync: 9, unmanaged: 2, drift: false });
  expect(emu.account().packages.map((p) => p.name)).toContain('stray.example.net');
  expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => m.local).sort()).toEqual(['extra', 'info', 'orders']);
  // Unmanaged objects are not drift: a scheduled job on a real account (customers' own
  // packages, a retained server) stays green while everything declared is in sync...
  const green = await drift(['--detailed-exitcode']);
  expect(green.code).toBe(0);
  expect(green.stdout).toMatch(/Unmanaged: 2 object\(s\) in the account that no stack declares, listed, not counted as drift/);
  expect(green.stdout).toMatch(/Summary: 9 declared object\(s\): 9 in sync; 2 unmanaged\. No drift\./);
  // ...unless asked to count them; the JSON tells the two apart either way.
  const counted = await driftJson(['--detailed-exitcode', '--fail-on-unmanaged']);
  expect(counted.code).toBe(2);
  expect(counted.doc.summary).toMatchObject({ drift: false, unmanaged: 2, unmanagedCounted: true });
  // The former flag still works for this release, and says what changed.
  const former = await drift(['--detailed-exitcode', '--ignore-unmanaged']);
  expect(former.code).toBe(0);
  expect(former.stderr).toContain('--ignore-unmanaged is what drift does by default now');
});

test('--fix never sets the password of an existing mailbox, even with RESELLER_MAILBOX_PASSWORD set', async () => {
  const shop = packageId('example-shop.com');
  const orders = (await api.mail.get(shop, 'example-shop.com')).mailboxes.find((m) => m.local === 'orders')!;
  await api.mail.updateMailbox(shop, 'example-shop.com', { id: orders.id, send: false, password: 'Customer-Choice-7' });
  const { code, doc } = await driftJson(['--fix', '--detailed-exitcode'], { RESELLER_MAILBOX_PASSWORD: PASSWORD });
  expect(code).toBe(0);
  expect(doc.fix!.actions).toEqual([
    expect.objectContaining({ address: 'terraform_data.shop_orders', action: 'ensure', outcome: 'fixed', message: 'adopted mailbox orders@example-shop.com; updated send false -> true' }),
  ]);
  const after = mailOf(emu.account(), 'example-shop.com').mailboxes.find((m) => m.local === 'orders')!;
  expect(after.send).toBe(true);
  expect(after.passwordSha256).toBe(sha256('Customer-Choice-7'));
});

test('absent objects: still present is drift, --fix removes them with the handler', async () => {
  const absentOut = tempDir('reseller-drift-absent-');
  synthExample({ ordersAbsent: true }, absentOut);
  const run = await capture(runDriftCli, ['--stacks', absentOut, '--json', '--detailed-exitcode'], env);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(run.code).toBe(2);
  expect(object(doc, 'terraform_data.shop_orders')).toMatchObject({
    declared: 'absent', status: 'still-present', message: 'declared absent: true, but still in the account', replaceAddress: null,
  });
  const fixed = await capture(runDriftCli, ['--stacks', absentOut, '--fix', '--detailed-exitcode'], env);
  expect(fixed.stdout).toMatch(/fixed\s+terraform_data\.shop_orders\s+mailbox orders@example-shop\.com: deleted mailbox orders@example-shop\.com/);
  expect(fixed.stdout).toMatch(/absent \(ok\)\s+mailbox\s+orders@example-shop\.com/);
  expect(fixed.code).toBe(0);
  // And the original stack now misses it: put it back for the following tests.
  const back = await capture(runDriftCli, ['--stacks', outdir, '--fix', '--detailed-exitcode'], { ...env, RESELLER_MAILBOX_PASSWORD: PASSWORD });
  expect(back.code).toBe(0);
});

test('a cloud server nobody declares (e.g. retained after destroy) is listed as unmanaged', async () => {
  await api.cloudServers.order({
    configuration: { spec: 'small', zone: 'dc_location-usa', provider: '20icloud', mvpsName: 'old.example-shop.com' },
    periodMonths: 1, type: 'cloud-20i', forUser: 'stack-user:989901',
  });
  await new Promise((r) => setTimeout(r, 300)); // provisioning
  const { doc } = await driftJson();
  expect(doc.unmanaged[0]).toEqual({
    kind: 'cloud-server', key: 'old.example-shop.com', placement: '', id: expect.any(String), detail: 'native small in dc_location-usa',
  });
  const table = await drift([]);
  expect(table.stdout).toMatch(/cloud server\s+old\.example-shop\.com\s+id \d+: native small in dc_location-usa/);
});

test('objects whose declaration holds Terraform variables are unknown, not guessed; --stack and forgiving --out', async () => {
  const dir = tempDir('reseller-drift-vars-');
  const app = new App({ outdir: dir });
  const stack = new TerraformStack(app, 'vars');
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const label = new TerraformVariable(stack, 'label', { type: 'string' });
  const site = new HostingPackage(stack, 'shop', { domainName: 'example-shop.com', packageType: 'Linux Unlimited', label: label.value });
  const local = new TerraformVariable(stack, 'local', { type: 'string' });
  new Mailbox(stack, 'dynamic', { package: site, localPart: local.value });
  new HostingPackage(stack, 'future', { domainName: 'future.example.org', packageType: 'Linux Starter', label: label.value });
  synthExample({}, dir); // a second stack in the same output directory
  app.synth();

  const run = await capture(runDriftCli, ['--stacks', dir, '--stack', 'vars', '--json'], env);
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(doc.stacks.map((s) => s.name)).toEqual(['vars']);
  expect(object(doc, 'terraform_data.shop')).toMatchObject({
    key: 'example-shop.com', status: 'unknown', message: 'unknown (depends on Terraform variables): present, fields not compared',
  });
  expect(object(doc, 'terraform_data.dynamic')).toMatchObject({ kind: 'mailbox', key: null, status: 'unknown' });
  expect(object(doc, 'terraform_data.future')).toMatchObject({ status: 'missing', message: 'its other fields depend on Terraform variables' });
  // The example stack in the same directory is managed: its objects are not unmanaged here.
  expect(doc.unmanaged.map((u) => u.key)).not.toContain('example-blog.com');

  // --out may name the output dir, its stacks dir, a stack dir or the cdk.tf.json itself.
  const stackDir = join(dir, 'stacks', 'vars');
  for (const out of [join(dir, 'stacks'), stackDir, join(stackDir, 'cdk.tf.json')]) {
    const r = await capture(runDriftCli, ['--stacks', out, '--stack', 'vars', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).stacks[0].name).toBe('vars');
  }
  const wrong = await capture(runDriftCli, ['--stacks', dir, '--stack', 'nope'], env);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toMatch(/no stack named "nope"; the stacks found are: reseller-example, vars/);
});

test("the stack's ResellerHosting apiUrl is used without RESELLER_API_URL; a declaration the account cannot satisfy is an error (exit 1)", async () => {
  const dir = tempDir('reseller-drift-hosting-');
  const app = new App({ outdir: dir });
  const stack = new TerraformStack(app, 'hosted');
  new ResellerHosting(stack, 'reseller', { apiUrl: emu.url, engine: 'terraform_data' });
  new HostingPackage(stack, 'shop', { domainName: 'example-shop.com', packageType: 'Linux Deluxe', label: 'Example Shop Ltd' });
  new HostingPackage(stack, 'blog', { domainName: 'example-blog.com', packageType: 'Linux Starter', stackUser: { email: 'nobody@example.com' } });
  app.synth();
  const { RESELLER_API_URL: _unused, ...withoutUrl } = env;
  const run = await capture(runDriftCli, ['--stacks', dir, '--json'], withoutUrl);
  expect(run.code).toBe(1);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(doc.account.apiUrl).toBe(emu.url);
  expect(object(doc, 'terraform_data.shop')).toMatchObject({
    status: 'error', message: expect.stringMatching(/^packageType "Linux Deluxe" is not a package type of this account; available: Linux Unlimited \(811\), /),
  });
  expect(object(doc, 'terraform_data.blog')).toMatchObject({
    status: 'error', message: 'stackUser { email: "nobody@example.com" } is not a control-panel user of this account',
  });
});

test('errors exit 1, usage errors 64', async () => {
  const badKey = await drift([], { RESELLER_API_KEY: 'wrong-key' });
  expect(badKey.code).toBe(1);
  expect(badKey.stderr).toMatch(/reseller-hosting drift: error: .*401/);
  expect(badKey.stderr).not.toContain('wrong-key');
  const noKey = await drift([], { RESELLER_API_KEY: '' });
  expect(noKey.code).toBe(1);
  expect(noKey.stderr).toMatch(/RESELLER_API_KEY is not set/);
  const noStacks = await capture(runDriftCli, ['--stacks', join(outdir, 'nowhere')], env);
  expect(noStacks.code).toBe(1);
  expect(noStacks.stderr).toMatch(/does not exist: synthesize the stacks first/);
  const notJson = join(tempDir('reseller-drift-bad-'), 'cdk.tf.json');
  writeFileSync(notJson, '{ nope');
  expect((await capture(runDriftCli, ['--stacks', notJson], env)).code).toBe(1);
  const usage = await drift(['--bogus']);
  expect(usage.code).toBe(64);
  expect(usage.stderr).toMatch(/Unknown option '--bogus'[\s\S]*usage: reseller-hosting drift/);
  expect((await drift(['--concurrency', '0'])).code).toBe(64);
});

test('the installed command: exit codes through bin/reseller-hosting.js', async () => {
  const clean = await runBinary(['drift', '--stacks', outdir, '--detailed-exitcode'], env);
  expect(clean.stderr).toBe('');
  expect(clean.code).toBe(0);
  await api.packages.setLabel(packageId('example-blog.com'), 'Changed again');
  const drifted = await runBinary(['drift', '--stacks', outdir, '--detailed-exitcode'], env);
  expect(drifted.code).toBe(2);
  expect(drifted.stdout).toContain('label: "Example Blog" (declared) -> "Changed again" (live)');
  const failed = await runBinary(['drift', '--stacks', outdir], { ...env, RESELLER_API_URL: 'http://127.0.0.1:9' });
  expect(failed.code).toBe(1);
});

test('a null_resource stack is read the same way: object address, settings address to replace', async () => {
  const dir = tempDir('reseller-drift-null-');
  const app = new App({ outdir: dir });
  const stack = new TerraformStack(app, 'nulls');
  new ResellerHosting(stack, 'reseller', { resourceType: 'null_resource' });
  new HostingPackage(stack, 'blog', { domainName: 'example-blog.com', packageType: 'Linux Starter', label: 'Another label', stackUser: 'stack-user:989902' });
  app.synth();
  await api.packages.setLabel(packageId('example-blog.com'), 'Live label');
  const run = await capture(runDriftCli, ['--stacks', dir, '--json'], env);
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(doc.objects).toEqual([
    expect.objectContaining({
      address: 'null_resource.blog', kind: 'package', key: 'example-blog.com', status: 'changed', replaceAddress: 'null_resource.blog_settings',
      diffs: [{ field: 'label', declared: 'Another label', live: 'Live label' }],
    }),
  ]);
});

test('a stack synthesized by 0.1 (ensure on the object resource, update on the settings) is read the same way', async () => {
  const dir = tempDir('reseller-drift-legacy-');
  const { stackDir, json } = legacyStack(dir);
  const runs = await new MiniTerraform(stackDir, handlerEnv(emu.url, tempDir('journal-')), { mailbox_password: PASSWORD }).apply(json);
  expect(runs.filter((r) => r.command === 'ensure').map((r) => r.address).sort()).toEqual(['terraform_data.info', 'terraform_data.sales', 'terraform_data.site']);
  const read = async () => {
    const r = await capture(runDriftCli, ['--stacks', dir, '--json', '--detailed-exitcode'], env);
    return { code: r.code, doc: JSON.parse(r.stdout) as DriftDocument };
  };
  const clean = await read();
  expect(clean.code).toBe(0);
  expect(clean.doc.objects.map((o) => `${o.address} ${o.kind} ${o.key} ${o.status}`)).toEqual([
    'terraform_data.site package legacy-shop.com in-sync',
    'terraform_data.info mailbox info@legacy-shop.com in-sync',
    'terraform_data.sales forwarder sales@legacy-shop.com in-sync',
  ]);
  expect(object(clean.doc, 'terraform_data.info').path).toBe('legacy/info');

  const site = packageId('legacy-shop.com');
  await api.packages.setLabel(site, 'Renamed in the panel');
  const info = (await api.mail.get(site, 'legacy-shop.com')).mailboxes.find((m) => m.local === 'info')!;
  await api.mail.delete(site, 'legacy-shop.com', [info.id]);
  const drifted = await read();
  expect(drifted.code).toBe(2);
  expect(object(drifted.doc, 'terraform_data.site')).toMatchObject({
    status: 'changed', replaceAddress: 'terraform_data.site_settings', diffs: [{ field: 'label', declared: 'Legacy Shop', live: 'Renamed in the panel' }],
  });
  expect(object(drifted.doc, 'terraform_data.info')).toMatchObject({ status: 'missing', replaceAddress: 'terraform_data.info' });
});
