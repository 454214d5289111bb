import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { runDriftCli } from '../../src/commands/drift';
import { generateStack } from '../../src/commands/import/generate';
import { KINDS } from '../../src/protocol';
import type { Kind } from '../../src/protocol';
import { runImportCli } from '../../src/commands/import';
import type { DriftDocument } from '../../src/commands/drift/report';
import { findTerraform, REPO_ROOT, runTerraform } from '../../scripts/lib/terraform';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { apiEnv, capture, compileGenerated, LoggedRequest, outOfBand, removeTempDirs, synthGenerated, tempDir } from './helpers';

/**
 * `reseller-hosting import` round trip: an account built through the API is imported;
 * the generated TypeScript compiles (tsc, strict, noUnusedLocals), synthesizes, and
 * `terraform apply` of it against the same account adopts everything and sends no
 * write (POST) at all.
 */
let emu: TestEmulator;
let api: ResellerClient;
let env: NodeJS.ProcessEnv;
let project: string;
let terraform: string;

async function seed(): Promise<void> {
  await api.cloudServers.order({
    configuration: { spec: 'medium', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example-shop.com', resellerCloudBranded: true },
    periodMonths: 3, type: 'cloud-20i', forUser: 'stack-user:989902',
  });
  await api.cloudServers.order({
    configuration: { spec: 'small', zone: 'eu-west-2', provider: 'aws', mvpsName: 'batch.example-shop.com', bandwidth: '2', disk: '20' },
    periodMonths: 1, type: 'cloud-aws', forUser: 'stack-user:989901',
  });
  let servers = await api.cloudServers.list();
  for (let i = 0; servers.length < 2 && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 50));
    servers = await api.cloudServers.list();
  }
  const web1 = servers.find((s) => s.name === 'web1.example-shop.com')!;
  await api.packages.createOnCloudServer(web1.id, { domainName: 'app.example-shop.com', extraDomainNames: [] });

  const shop = await api.packages.create({
    type: 811, domainName: 'example-shop.com', extraDomainNames: ['example-shop.net', 'example-shop.org'], label: "Example Shop's \"Ltd\"",
    stackUser: 'stack-user:989901', documentRoots: { 'example-shop.net': 'public_html/net' },
  });
  const starter = await api.packages.create({ type: 812, domainName: '1st-choice.co.uk', extraDomainNames: [] });
  await api.packages.setEnabled(starter, false);
  const shared = await api.packages.create({ type: 813, domainName: 'bücher.example.com', extraDomainNames: [], label: 'Bücher' });
  await api.users.setPackageGrant('stack-user:989901', shared, true);
  await api.users.setPackageGrant('stack-user:989902', shared, true);
  // Two domains whose construct ids would collide (a-b.example.com vs a.b.example.com).
  await api.packages.create({ type: 812, domainName: 'a-b.example.com', extraDomainNames: [], stackUser: 'stack-user:989902' });
  await api.packages.create({ type: 812, domainName: 'a.b.example.com', extraDomainNames: [] });

  await api.mail.createMailbox(shop, 'example-shop.com', { local: 'info', send: true, receive: true, password: 'Info-Passw0rd!' });
  await api.mail.createMailbox(shop, 'example-shop.com', { local: 'orders', send: false, receive: true, password: 'Orders-Passw0rd!' });
  await api.mail.createMailbox(shop, 'example-shop.net', { local: 'first.last', send: true, receive: false, password: 'First-Passw0rd!' });
  await api.mail.createForwarder(shop, 'example-shop.com', { local: 'sales', remote: 'team@example.org' });
  await api.mail.createForwarder(shop, 'example-shop.org', { local: 'sales', remote: 'org-team@example.org' });
  // One local part forwarded to two addresses: a Forwarder cannot declare that.
  await api.mail.createForwarder(shop, 'example-shop.com', { local: 'both', remote: 'a@example.org' });
  await api.mail.createForwarder(shop, 'example-shop.com', { local: 'both', remote: 'b@example.org' });
  await api.mail.createMailbox(starter, '1st-choice.co.uk', { local: 'hello', send: true, receive: true, password: 'Hello-Passw0rd!' });
  await emu.control('POST', 'brand', { name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });
}

/** A scratch TypeScript project that resolves the package and cdktf the way a user's project does. */
function scratchProject(): string {
  const dir = tempDir('reseller-import-');
  mkdirSync(join(dir, 'node_modules', '@cdktf'), { recursive: true });
  symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'cdktf-reseller-hosting'), 'dir');
  for (const dep of ['cdktf', 'constructs']) symlinkSync(join(REPO_ROOT, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
  symlinkSync(join(REPO_ROOT, 'node_modules', '@cdktf', 'provider-null'), join(dir, 'node_modules', '@cdktf', 'provider-null'), 'dir');
  return dir;
}

/** `synthGenerated` in this file's scratch project. */
const synthProviderStack = (name: string, className: string, stackName: string) => synthGenerated(project, name, className, stackName);

type TfEnv = Record<string, string | undefined>;

/** Each resource the saved plan `p` updates, with the attributes that change: `address: a, b`. */
async function updatedAttributes(stackDir: string, tfEnv: TfEnv): Promise<string[]> {
  const shown = JSON.parse((await runTerraform(['show', '-json', 'p'], { cwd: stackDir, env: tfEnv, binary: terraform })).stdout);
  return (shown.resource_changes as Array<{ address: string; change: { actions: string[]; before: Record<string, unknown>; after: Record<string, unknown> } }>)
    .filter((r) => r.change.actions.includes('update'))
    .map((r) => `${r.address}: ${Object.keys(r.change.after).filter((a) => JSON.stringify(r.change.after[a]) !== JSON.stringify(r.change.before[a])).join(', ')}`)
    .sort();
}

/** Applies the saved plan `p`: no write reaches the API, the account is as `before`, and the next plan has no changes. */
async function applyWritesNothing(stackDir: string, tfEnv: TfEnv, before: unknown): Promise<void> {
  const apply = await runTerraform(['apply', '-input=false', '-no-color', 'p'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(apply.stderr).toBe('');
  expect((await requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  expect(emu.account()).toEqual(before);
  const again = await runTerraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
}

const requests = async () => (await emu.control('GET', 'requests')) as LoggedRequest[];

beforeAll(async () => {
  requireBuiltHandler();
  terraform = findTerraform(); // a missing terraform fails here, loudly: never skipped
  emu = await startTestEmulator({ provisionDelayMs: 50 });
  api = outOfBand(emu.url);
  env = apiEnv(emu.url, tempDir('journal-'));
  await seed();
  project = scratchProject();
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs(emu?.dir);
});

test('import writes a stack that compiles, synthesizes, and deploys without a single write', async () => {
  const file = join(project, 'imported.ts');
  const run = await capture(runImportCli, ['--out', file, '--class-name', 'MyAccountStack', '--engine', 'terraform_data'], env, project);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/wrote .*imported\.ts: class MyAccountStack with 2 cloud server\(s\), 6 package\(s\), 4 mailbox\(es\), 2 forwarder\(s\); 1 left out/);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain('export class MyAccountStack extends TerraformStack {');
  expect(source).toContain("import { CloudProvider, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, ResellerHosting } from 'cdktf-reseller-hosting';");
  expect(source).toContain("    new ResellerHosting(this, 'reseller', { engine: 'terraform_data' });");
  expect(source.split('\n').filter((l) => !l.trim().startsWith('//')).join('\n')).not.toMatch(/password/i); // adopted with their password

  // tsc: strict, noUnusedLocals (packages without mail are not bound to an unused variable).
  const out = join(project, 'out');
  expect(compileGenerated(file, out)).toEqual([]);

  // synth, in a process of its own, as `cdktf synth` would run the app.
  const outdir = join(project, 'cdktf.out');
  writeFileSync(join(project, 'main.js'), [
    "const { App } = require('cdktf');",
    "const { MyAccountStack } = require('./out/imported');",
    `const app = new App({ outdir: ${JSON.stringify(outdir)} });`,
    "new MyAccountStack(app, 'imported');",
    'app.synth();',
  ].join('\n'));
  const synth = spawnSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' });
  expect(synth.stderr).toBe('');
  expect(synth.status).toBe(0);
  const stackDir = join(outdir, 'stacks', 'imported');
  const json = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'));
  expect(Object.keys(json.resource.terraform_data)).toHaveLength(2 * (2 + 6 + 4 + 2));

  // Drift of the imported stack against the account: everything in sync; only the
  // two-target forwarder, which no construct can declare, is unmanaged.
  const drift = await capture(runDriftCli, ['--stacks', outdir, '--json'], env);
  const doc = JSON.parse(drift.stdout) as DriftDocument;
  expect(doc.summary).toMatchObject({ declared: 14, inSync: 14, unmanaged: 2 });
  expect(doc.unmanaged.map((u) => `${u.kind} ${u.key} ${u.detail}`)).toEqual([
    'forwarder both@example-shop.com -> a@example.org',
    'forwarder both@example-shop.com -> b@example.org',
  ]);

  // terraform apply of the imported stack: every ensure adopts; no POST reaches the API.
  // Only the handler's variables: runTerraform adds the project's Terraform settings.
  const { RESELLER_API_URL, RESELLER_API_KEY, RESELLER_HANDLER_STATE_DIR, RESELLER_POLL_INTERVAL } = handlerEnv(emu.url, tempDir('journal-'));
  const tfEnv = { RESELLER_API_URL, RESELLER_API_KEY, RESELLER_HANDLER_STATE_DIR, RESELLER_POLL_INTERVAL };
  const init = await runTerraform(['init', '-input=false'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(init.code).toBe(0);
  const before = emu.account();
  await emu.control('DELETE', 'requests');
  const apply = await runTerraform(['apply', '-auto-approve', '-input=false'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(apply.stderr).toBe('');
  expect(apply.code).toBe(0);
  expect(apply.stdout).toMatch(/Apply complete! Resources: 28 added, 0 changed, 0 destroyed/);
  expect(apply.stdout).toMatch(/adopted package example-shop\.com/);
  expect(apply.stdout).toMatch(/adopted cloud server web1\.example-shop\.com/);
  const log = await requests();
  expect(log.length).toBeGreaterThan(0);
  expect(log.filter((r) => r.method !== 'GET')).toEqual([]);
  const after = emu.account();
  expect(after.packages).toEqual(before.packages);
  expect(after.cloudServers).toEqual(before.cloudServers);
  expect(after.balance).toBe(before.balance);
}, 90_000);

test('with the provider engine: import --engine provider, synth, import --blocks; the plan imports the whole account and the apply writes nothing', async () => {
  const file = join(project, 'provider-imported.ts');
  const run = await capture(runImportCli, ['--out', file, '--class-name', 'ProviderAccountStack', '--engine', 'provider'], env, project);
  expect(run.code).toBe(0);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain("    new ResellerHosting(this, 'reseller', { engine: 'provider' });");
  expect(source).toContain('// With the provider engine: after cdktf synth, `reseller-hosting import --blocks` writes the import blocks that adopt them.');
  const { outdir, stackDir } = synthProviderStack('provider-imported', 'ProviderAccountStack', 'adopted');

  const blocks = await capture(runImportCli, ['--blocks', '--stacks', outdir], env, project);
  expect(blocks.stderr).toBe('');
  expect(blocks.stdout).toMatch(/: 14 import block\(s\) for stack adopted\n$/);

  const tfEnv = { RESELLER_API_KEY: env.RESELLER_API_KEY, RESELLER_API_URL: env.RESELLER_API_URL }; // the provider's connection, as import's
  const init = await runTerraform(['init', '-input=false', '-no-color'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(init.stderr).toBe('');
  const before = emu.account();
  await emu.control('DELETE', 'requests');
  const plan = await runTerraform(['plan', '-input=false', '-no-color', '-out=p'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(plan.stderr).toBe('');
  // The two cloud servers' "changes" only record what the API cannot return of a server
  // it keeps: branded. What mattered only when ordering (periodMonths, forUser) plans no
  // change. The provider's update of them writes nothing.
  expect(plan.stdout).toContain('Plan: 14 to import, 0 to add, 2 to change, 0 to destroy.');
  expect(plan.stdout).not.toMatch(/must be replaced|will be destroyed|will be created/);
  expect(await updatedAttributes(stackDir, tfEnv)).toEqual([
    expect.stringMatching(/^reseller_cloud_server\.\w+: branded$/),
    expect.stringMatching(/^reseller_cloud_server\.\w+: branded$/),
  ]);
  await applyWritesNothing(stackDir, tfEnv, before);
}, 90_000);

test('every kind, with the provider engine: import --kinds (all of them), synth, import --blocks; the plan imports the whole account, the apply writes nothing', async () => {
  // The kinds import leaves out by default, one of each, for this test alone (the others count the seeded account).
  await api.responders.create('example-shop.com', 'example-shop.com', 'away', {
    subject: 'Closed for the holidays', content: 'Back in January.', type: 'text/plain', enabled: true, startTime: null, endTime: null, forwardTo: null,
  });
  await api.databases.create('example-shop.com', 'shop_orders', 'Orders-Db-Passw0rd!');
  try {
    await importsEveryKind();
  } finally {
    for (const r of await api.responders.list('example-shop.com', 'example-shop.com')) await api.responders.delete('example-shop.com', 'example-shop.com', r.id);
    for (const d of await api.databases.list('example-shop.com')) await api.databases.delete('example-shop.com', d.id);
  }
}, 120_000);

async function importsEveryKind(): Promise<void> {
  const file = join(project, 'all-kinds.ts');
  const run = await capture(runImportCli, ['--out', file, '--class-name', 'AllKindsStack', '--engine', 'provider', '--kinds', KINDS.join(',')], env, project);
  expect(run.code).toBe(0);
  const counted = /with (.*); 1 left out/.exec(run.stdout)?.[1] ?? '';
  // Web settings: one per package (their count's plural ending comes from the definition's `plural`).
  expect(counted).toMatch(/^2 cloud server\(s\), 2 stack user\(s\), 6 package\(s\), 4 mailbox\(es\), 2 forwarder\(s\), \d+ DNS record\(s\), 6 web settings, 4 nameserver set\(s\), 1 autoresponder\(s\), 4 domain transfer lock\(s\), 1 MySQL database\(s\)$/);
  const declared = counted.split(', ').reduce((sum, part) => sum + Number(part.split(' ')[0]), 0);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain(
    "import { Autoresponder, CloudProvider, DnsRecord, DomainNameservers, DomainTransferLock, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, MysqlDatabase, ResellerHosting, StackUser, WebSettings } from 'cdktf-reseller-hosting';",
  );
  expect(source).toMatch(/stackUser: user_owner_example_com,/);
  // The fixture registrations: their nameservers and locks as the registry holds them.
  expect(source).toContain("new DomainNameservers(this, 'ns_example_registered_net', { domain: 'example-registered.net', nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'] });");
  expect(source).toContain("new DomainTransferLock(this, 'lock_example_blog_com', { domain: 'example-blog.com', locked: false });");
  expect(source).toMatch(/new MysqlDatabase\(this, '\w+', \{ package: pkg_example_shop_com, name: 'shop_orders' \}\);/);
  expect(source).toMatch(/new Autoresponder\(this, 'reply_away_example_shop_com', \{[^;]*localPart: 'away',[^;]*subject: 'Closed for the holidays',/);
  const { outdir, stackDir } = synthProviderStack('all-kinds', 'AllKindsStack', 'all');
  const blocks = await capture(runImportCli, ['--blocks', '--stacks', outdir], env, project);
  expect(blocks.stdout).toMatch(new RegExp(`: ${declared} import block\\(s\\) for stack all\\n$`));

  const tfEnv = { RESELLER_API_KEY: env.RESELLER_API_KEY, RESELLER_API_URL: env.RESELLER_API_URL };
  expect((await runTerraform(['init', '-input=false', '-no-color'], { cwd: stackDir, env: tfEnv, binary: terraform })).stderr).toBe('');
  const before = emu.account();
  await emu.control('DELETE', 'requests');
  const plan = await runTerraform(['plan', '-input=false', '-no-color', '-out=p'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(plan.stderr).toBe('');
  // As with the default kinds, the two servers' `branded` (which the API cannot return)
  // "changes"; so does the user of the two packages linked to a declared StackUser: the
  // construct names it by e-mail, the imported state by its stack-user:N (the same user,
  // so the apply writes nothing).
  expect(plan.stdout).toContain(`Plan: ${declared} to import, 0 to add, 4 to change, 0 to destroy.`);
  expect(await updatedAttributes(stackDir, tfEnv)).toEqual([
    'reseller_cloud_server.server_batch_example_shop_com: branded',
    'reseller_cloud_server.server_web1_example_shop_com: branded',
    'reseller_package.pkg_a_b_example_com: stack_user',
    'reseller_package.pkg_example_shop_com: stack_user',
  ]);
  await applyWritesNothing(stackDir, tfEnv, before);
}

test('the generated declarations: names, placements, users, mail, and the documented choices', async () => {
  const run = await capture(runImportCli, [], env, project);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/^imported 2 cloud server\(s\), 6 package\(s\)/);
  const source = run.stdout;
  expect(source).toContain('export class ImportedResellerStack extends TerraformStack {');
  // Cloud servers: provider/spec/zone from the list, no forUser (it matters only when ordering), protected, branded when the API shows it.
  expect(source).toMatch(/const server_web1_example_shop_com = new ManagedCloudServer\(this, 'server_web1_example_shop_com', \{\n\s+hostName: 'web1\.example-shop\.com',\n\s+provider: CloudProvider\.NATIVE,\n\s+spec: 'medium',\n\s+zone: 'dc_location-uk',\n\s+periodMonths: 1, \/\/ not readable from the API\n\s+branded: true,\n\s+protect: true,\n\s+\}\);/);
  expect(source).not.toContain('forUser:');
  expect(source).toMatch(/new ManagedCloudServer\(this, 'server_batch_example_shop_com', \{[^}]*provider: CloudProvider\.AWS,[^}]*zone: 'eu-west-2',/);
  expect(source).toMatch(/\/\/ forUser and periodMonths are not readable from the API and matter only when ordering/);
  // Packages.
  expect(source).toMatch(/new HostingPackage\(this, 'pkg_app_example_shop_com', \{[^}]*packageType: 'Managed Cloud',[^}]*cloudServer: server_web1_example_shop_com,/);
  expect(source).toContain("extraDomainNames: ['example-shop.net', 'example-shop.org'],");
  expect(source).toContain("label: 'Example Shop\\'s \"Ltd\"',");
  expect(source).toMatch(/'pkg_1st_choice_co_uk', \{\n\s+domainName: '1st-choice\.co\.uk',\n\s+packageType: 'Linux Starter',\n\s+enabled: false,/);
  expect(source).toMatch(/Linked to 2 control-panel users \(stack-user:989901, stack-user:989902\): stackUser is not declared/);
  expect(source).toMatch(/new HostingPackage\(this, 'pkg_xn_bcher_kva_example_com', \{\n\s+domainName: 'xn--bcher-kva\.example\.com',/);
  expect(source).toContain("new HostingPackage(this, 'pkg_a_b_example_com', {");
  expect(source).toContain("new HostingPackage(this, 'pkg_a_b_example_com_2', {");
  expect(source).toMatch(/'pkg_a_b_example_com', \{\n\s+domainName: 'a-b\.example\.com',\n\s+packageType: 'Linux Starter',\n\s+stackUser: 'stack-user:989902',/);
  // Mail: no password; domain only when not the primary; the two-target forwarder left out with a comment.
  expect(source).toContain("new Mailbox(this, 'mailbox_orders_example_shop_com', { package: pkg_example_shop_com, localPart: 'orders', send: false, receive: true });");
  expect(source).toContain("new Mailbox(this, 'mailbox_first_last_example_shop_net', { package: pkg_example_shop_com, localPart: 'first.last', domain: 'example-shop.net', send: true, receive: false });");
  expect(source).toContain("new Forwarder(this, 'fwd_sales_example_shop_org', { package: pkg_example_shop_com, localPart: 'sales', domain: 'example-shop.org', remote: 'org-team@example.org' });");
  expect(source).toMatch(/\/\/ Forwarder both@example-shop\.com \(id [^)]+\) left out: it has 2 targets \(a@example\.org, b@example\.org\), and a Forwarder owns its local part with exactly one target/);
  expect(source.split('\n').filter((l) => !l.trim().startsWith('//')).join('\n')).not.toMatch(/password/i);
  // Packages with nothing on them are not bound to a variable.
  expect(source).toMatch(/\n\s+new HostingPackage\(this, 'pkg_a_b_example_com_2'/);
});

test('--kinds chooses the kinds declared, with the kinds they live on; the former --users and --dns still work, with a warning that spells them', async () => {
  // Mailboxes come with their packages, and packages with their cloud servers; no forwarder.
  const mail = await capture(runImportCli, ['--kinds', 'mailbox'], env, project);
  expect(mail.code).toBe(0);
  expect(mail.stderr).toBe('imported 2 cloud server(s), 6 package(s), 4 mailbox(es)\n');
  expect(mail.stdout).toContain("import { CloudProvider, HostingPackage, Mailbox, ManagedCloudServer } from 'cdktf-reseller-hosting';");
  expect(mail.stdout).not.toContain('Forwarder');
  expect(mail.stdout).toMatch(/^\/\/ 2 cloud server\(s\), 6 package\(s\), 4 mailbox\(es\)\.$/m);
  // A kind without parents comes alone.
  const users = await capture(runImportCli, ['--kinds', 'stack-user'], env, project);
  expect(users.stderr).toBe('imported 2 stack user(s)\n');
  expect(users.stdout).toContain("import { StackUser } from 'cdktf-reseller-hosting';");

  const spelled = 'cloud-server,stack-user,package,mailbox,forwarder,dns-record';
  const former = await capture(runImportCli, ['--users', '--dns'], env, project);
  expect(former.code).toBe(0);
  expect(former.stderr).toMatch(new RegExp(`^reseller-hosting import: --users and --dns are deprecated and will be removed in the next release: use --kinds ${spelled}\n`));
  const now = await capture(runImportCli, ['--kinds', spelled], env, project);
  expect(now.stderr).not.toMatch(/deprecated/);
  expect(former.stdout).toBe(now.stdout);
  expect(now.stdout).toMatch(/\/\/ 2 cloud server\(s\), 2 stack user\(s\), 6 package\(s\), 4 mailbox\(es\), 2 forwarder\(s\), \d+ DNS record\(s\); 1 left out/);
  const one = await capture(runImportCli, ['--users'], env, project);
  expect(one.stderr).toMatch(/^reseller-hosting import: --users is deprecated and will be removed in the next release: use --kinds cloud-server,stack-user,package,mailbox,forwarder\n/);
  // With --kinds, the former flag adds its kind to those named.
  const both = await capture(runImportCli, ['--kinds', 'package', '--dns'], env, project);
  expect(both.stderr).toMatch(/use --kinds cloud-server,package,dns-record\n/);
});

test('the help lists the kinds from their definitions; a kind that is none is a usage error', async () => {
  const help = await capture(runImportCli, ['--help'], env, project);
  expect(help.code).toBe(0);
  expect(help.stdout.replace(/\s+/g, ' ')).toContain(`--kinds KIND,... the kinds to declare, each with the kinds its objects live on: ${KINDS.join(', ')} (default: cloud-server,package,mailbox,forwarder)`);
  const unknown = await capture(runImportCli, ['--kinds', 'package,mailboxes'], env, project);
  expect(unknown.code).toBe(64);
  expect(unknown.stderr).toContain(`--kinds "mailboxes": not a kind (choose from ${KINDS.join(', ')})`);
  expect((await capture(runImportCli, ['--kinds', ','], env, project)).code).toBe(64);
  expect((await capture(runImportCli, ['--blocks', '--kinds', 'package'], env, project)).stderr).toMatch(/--kinds does not go with --blocks/);
  expect((await capture(runImportCli, ['--moved', '--users'], env, project)).stderr).toMatch(/--users does not go with --moved/);
});

test('ids are valid Terraform names and unique, also against the _settings/_password siblings', () => {
  // Listed objects as the core's list gives them (Observed).
  const listed = (kind: Kind, key: string, placement: string, liveId: string, fields: Record<string, unknown>, computed: Record<string, unknown> = {}) =>
    ({ kind, identity: { kind, key, placement, parent: '' }, fields, computed, unverifiable: [], liveId });
  const pkg = (name: string, id: number) => listed('package', name, '', String(id),
    { domainName: name, extraDomainNames: [], packageType: 'Linux Starter', enabled: true }, { packageId: id, packageTypeId: 812, stackUsers: [], names: [name], name });
  const mailbox = (local: string, domain: string, i: number) => listed('mailbox', `${local}@${domain}`, domain, `m${i}`,
    { packageDomain: domain, domain, localPart: local, send: true, receive: true }, { mailboxId: `m${i}` });
  const { source } = generateStack({
    kinds: ['cloud-server', 'package', 'mailbox', 'forwarder'],
    objects: new Map([
      ['package', [pkg('x.settings.com', 1), pkg('x.com', 2), pkg('x-settings.com', 3)]],
      ['mailbox', ['a_b', 'a.b', 'a-b'].map((l, i) => mailbox(l, 'x.com', i))],
    ]),
    reads: 0,
  });
  const ids = [...source.matchAll(/new (?:HostingPackage|Mailbox)\(this, '([^']+)'/g)].map((m) => m[1]);
  expect(ids).toEqual(['pkg_x_settings_com', 'pkg_x_com', 'mailbox_a_b_x_com', 'mailbox_a_b_x_com_2', 'mailbox_a_b_x_com_3', 'pkg_x_settings_com_2']);
  const all = new Set(ids.flatMap((id) => [id, `${id}_settings`, `${id}_password`]));
  expect(all.size).toBe(ids.length * 3);
  for (const id of ids) expect(id).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
});

test("the generated code imports from the project's CDK: cdktn in a CDK Terrain project, unless --cdk says otherwise", async () => {
  const terrain = tempDir('reseller-import-cdktn-');
  writeFileSync(join(terrain, 'package.json'), JSON.stringify({ name: 'shop-infra', dependencies: { cdktn: '^0.22.0', constructs: '^10.4.0' } }));
  const run = await capture(runImportCli, [], env, terrain);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("import { TerraformStack } from 'cdktn';");
  expect(run.stdout).toContain('// Use it in your cdktn app:');
  expect(run.stdout).not.toContain("from 'cdktf'");
  const forced = await capture(runImportCli, ['--cdk', 'cdktf'], env, terrain);
  expect(forced.stdout).toContain("import { TerraformStack } from 'cdktf';");
  const byEnv = await capture(runImportCli, [], { ...env, RESELLER_HOSTING_CDK: 'cdktf' }, terrain);
  expect(byEnv.stdout).toContain("import { TerraformStack } from 'cdktf';");
  // A project that lists neither (or both): cdktf, as before.
  expect((await capture(runImportCli, [], env, project)).stdout).toContain("import { TerraformStack } from 'cdktf';");
});

test('usage errors exit 64, connection errors 1', async () => {
  expect((await capture(runImportCli, ['--cdk', 'cdk8s'], env, project)).stderr).toMatch(/--cdk "cdk8s" must be cdktf or cdktn/);
  expect((await capture(runImportCli, ['--cdk', 'cdk8s'], env, project)).code).toBe(64);
  expect((await capture(runImportCli, ['--blocks', '--cdk', 'cdktn'], env, project)).code).toBe(64);
  expect((await capture(runImportCli, ['--class-name', 'not-a-class'], env, project)).code).toBe(64);
  expect((await capture(runImportCli, ['--out', 'stack.js'], env, project)).code).toBe(64);
  expect((await capture(runImportCli, ['extra'], env, project)).code).toBe(64);
  const noKey = await capture(runImportCli, [], { ...env, RESELLER_API_KEY: '' }, project);
  expect(noKey.code).toBe(1);
  expect(noKey.stderr).toMatch(/RESELLER_API_KEY is not set/);
});
