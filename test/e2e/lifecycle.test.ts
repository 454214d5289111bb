import { join } from 'node:path';
import type { ExampleOptions } from '../../examples/stack';
import { createHash } from 'node:crypto';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import {
  E2E_TIMEOUT_MS, E2EEmulator, planExitCode, requireTerraform, savedPlan, stackEnv, startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * The example stack through the REAL Terraform engine, one applied stack for the whole
 * file (the scenarios are sequential, as a user's edits are): apply, no-op plan,
 * in-place updates of mutable fields, replacement on a new primary domain, `absent`,
 * and destroy. test/integration/handler-lifecycle.test.ts runs the same scenarios
 * through a stand-in for Terraform; here Terraform itself decides what to replace.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const PASSWORD = 'E2e-Lifecycle-Passw0rd!';
/** The edits of this file accumulate: each step keeps the previous ones. */
const MUTABLE: ExampleOptions = {
  shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'],
  ordersSend: false,
  salesRemote: 'orders-desk@example.org',
};
const RENAMED: ExampleOptions = { ...MUTABLE, blogDomain: 'example-journal.com' };
const ORDERS_ABSENT: ExampleOptions = { ...RENAMED, ordersAbsent: true };

let tf: string;
let emu: E2EEmulator;
let outdir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tf = requireTerraform(); // no Terraform: every test of this file fails with the install hint
  const dir = tempDir('lifecycle');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 300 });
  outdir = join(dir, 'cdktf.out');
  env = stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, password: PASSWORD, journalDir: join(dir, 'journal') });
});
afterAll(() => emu?.stop());

const packageNamed = (name: string) => emu.account().packages.find((p) => p.name === name);
const mailbox = (domain: string, local: string) => mailOf(emu.account(), domain).mailboxes.find((m) => m.local === local);
/** Synthesizes the example into the SAME outdir every time, as `cdktf synth` does: the state stays next to it. */
const synth = (options: ExampleOptions) => {
  stackDir = synthExample(options, outdir).stackDir;
};
const apply = (args: string[] = ['-auto-approve']) => terraform(tf, ['apply', '-input=false', '-no-color', ...args], stackDir, env);
const replaced = ['delete', 'create']; // destroy-then-create: never create_before_destroy (it disables destroy provisioners)

test('terraform apply creates the example; a second plan reports no changes', async () => {
  synth({});
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  const result = await apply();
  // Nine constructs, two resources each; one handler process per object (its settings
  // resource's `ensure`), none for the object resources.
  expect(result.stdout).toMatch(/Apply complete! Resources: 18 added, 0 changed, 0 destroyed/);
  const provisioned = [...result.stdout.matchAll(/^(\S+): Provisioning with 'local-exec'\.\.\.$/gm)].map((m) => m[1]);
  expect(provisioned.sort()).toEqual(
    ['blog', 'blog_editor', 'blog_tips', 'shop', 'shop_app', 'shop_info', 'shop_orders', 'shop_sales', 'web1'].map((id) => `terraform_data.${id}_settings`).sort(),
  );
  // (Terraform hides the command line of a provisioner whose environment holds a
  // sensitive value, the mailboxes': each settings resource has one create-time provisioner.)
  const commands = [...result.stdout.matchAll(/^\S+ \(local-exec\): Executing: \[.*"handler" "([a-z-]+)"\]$/gm)].map((m) => m[1]);
  expect(commands).toEqual(Array(6).fill('ensure'));

  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  const shop = packageNamed('example-shop.com')!;
  expect(shop.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
  expect(shop.packageTypeName).toBe('Linux Unlimited');
  expect(shop.stackUsers).toEqual(['stack-user:989901']);
  expect(mailOf(account, 'example-shop.com').mailboxes.map((m) => [m.local, m.send]).sort()).toEqual([['info', true], ['orders', true]]);
  expect(mailOf(account, 'example-shop.com').forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'sales-team@example.org']]);
  expect(mailOf(account, 'example-blog.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(mailOf(account, 'example-blog.com').forwarders.map((f) => f.local)).toEqual(['tips']);
  expect(account.cloudServers).toEqual([expect.objectContaining({ name: 'web1.example-shop.com', state: 'ready', branded: true })]);
  expect(packageNamed('app.example-shop.com')!.cloudServerId).toBe(account.cloudServers[0].id);

  const plan = await planExitCode(tf, stackDir, env);
  expect({ code: plan.code, output: plan.output }).toEqual({ code: 0, output: expect.stringMatching(/No changes/) });
});

test('changing mutable fields replaces only *_settings resources; objects keep their ids and a customer\'s own password', async () => {
  // The customer changes the orders mailbox's password in the control panel: a change
  // of its `send` setting must not put the stack's password back.
  const customers = 'Customers-Own-Passw0rd!';
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY });
  await client.updateMailbox('example-shop.com', 'example-shop.com', { id: mailbox('example-shop.com', 'orders')!.id, password: customers });
  expect(mailbox('example-shop.com', 'orders')!.passwordSha256).toBe(createHash('sha256').update(customers).digest('hex'));
  const before = emu.account();
  const idsBefore = before.packages.map((p) => [p.name, p.id]).sort();
  const shopMail = mailOf(before, 'example-shop.com');

  synth(MUTABLE);
  const plan = await savedPlan(tf, stackDir, env);
  expect(plan.changes).toEqual({
    'terraform_data.shop_settings': replaced,
    'terraform_data.shop_orders_settings': replaced,
    'terraform_data.shop_sales_settings': replaced,
  });
  expect(plan.planText).toMatch(/Plan: 3 to add, 0 to change, 3 to destroy/);

  await emu.clearRequests();
  await apply(['p']); // the reviewed, saved plan
  const after = emu.account();
  expect(after.packages.map((p) => [p.name, p.id]).sort()).toEqual(idsBefore);
  expect(packageNamed('example-shop.com')!.names.sort()).toEqual(['example-shop.co.uk', 'example-shop.com', 'example-shop.net']);
  const orders = mailbox('example-shop.com', 'orders')!;
  expect(orders.send).toBe(false);
  expect(orders.id).toBe(shopMail.mailboxes.find((m) => m.local === 'orders')!.id); // same mailbox, updated
  expect(orders.passwordSha256).toBe(shopMail.mailboxes.find((m) => m.local === 'orders')!.passwordSha256);
  expect(mailbox('example-shop.com', 'info')!.id).toBe(shopMail.mailboxes.find((m) => m.local === 'info')!.id);
  expect(mailOf(after, 'example-shop.com').forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'orders-desk@example.org']]);
  // Nothing was deleted or created at the package level.
  const calls = (await emu.requests()).map((r) => `${r.method} ${r.path}`);
  expect(calls.filter((c) => /deleteWeb|addWeb|addCloudServer/.test(c))).toEqual([]);

  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
});

test('changing a primary domain replaces that package (delete, then create) and its mail', async () => {
  const oldBlog = packageNamed('example-blog.com')!;
  const shopId = packageNamed('example-shop.com')!.id;

  synth(RENAMED);
  const plan = await savedPlan(tf, stackDir, env);
  expect(plan.changes['terraform_data.blog']).toEqual(replaced);
  expect(plan.changes['terraform_data.blog_editor']).toEqual(replaced);
  expect(plan.changes['terraform_data.blog_tips']).toEqual(replaced);
  // Only the blog's resources change: the shop, its mail, the server and the app stay.
  expect(Object.keys(plan.changes).filter((a) => !a.startsWith('terraform_data.blog'))).toEqual([]);

  await emu.clearRequests();
  await apply(['p']);
  expect(packageNamed('example-blog.com')).toBeUndefined();
  const blog = packageNamed('example-journal.com')!;
  expect(blog).toBeDefined();
  expect(blog.id).not.toBe(oldBlog.id);
  expect(packageNamed('example-shop.com')!.id).toBe(shopId);
  expect(mailOf(emu.account(), 'example-journal.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(mailOf(emu.account(), 'example-journal.com').forwarders.map((f) => [f.local, f.remote])).toEqual([['tips', 'editor@example-blog.com']]);
  expect(mailOf(emu.account(), 'example-blog.com').mailboxes).toEqual([]);
  // The old package went before the new one came.
  const calls = (await emu.requests()).map((r) => `${r.method} ${r.path}`);
  const deleted = calls.findIndex((c) => c.endsWith('/deleteWeb'));
  const created = calls.findIndex((c) => c.endsWith('/addWeb'));
  expect(deleted).toBeGreaterThanOrEqual(0);
  expect(created).toBeGreaterThan(deleted);

  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
});

test('absent: true on a mailbox deletes it, and only it', async () => {
  const infoId = mailbox('example-shop.com', 'info')!.id;

  synth(ORDERS_ABSENT);
  const plan = await savedPlan(tf, stackDir, env);
  // `absent` synthesizes `count = 0`; Terraform moves the instance to [0] implicitly and destroys it.
  expect(plan.changes).toEqual({
    'terraform_data.shop_orders[0]': ['delete'],
    'terraform_data.shop_orders_settings[0]': ['delete'],
  });
  expect(plan.planText).toMatch(/Plan: 0 to add, 0 to change, 2 to destroy/);

  const result = await apply(['p']);
  expect(result.stdout).toMatch(/deleted mailbox orders@example-shop.com/);
  expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => [m.local, m.id])).toEqual([['info', infoId]]);
  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
});

test('terraform destroy removes every managed package and mail object, and retains the cloud server loudly', async () => {
  const serverId = emu.account().cloudServers[0].id;
  const result = await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], stackDir, env);
  const output = result.stdout + result.stderr;
  expect(output).toMatch(/Destroy complete! Resources: 16 destroyed/);
  expect(output).toMatch(/cloud server web1\.example-shop\.com \(id \d+\) was NOT cancelled.*billing continues/);

  const account = emu.account();
  expect(account.packages).toEqual([]); // mail lives in packages: none left either
  for (const domain of ['example-shop.com', 'example-journal.com', 'example-blog.com', 'app.example-shop.com']) {
    expect(mailOf(account, domain)).toEqual({ domain, mailboxes: [], forwarders: [] });
  }
  expect(account.cloudServers.map((s) => [s.id, s.name])).toEqual([[serverId, 'web1.example-shop.com']]);
  const list = await terraform(tf, ['state', 'list'], stackDir, env);
  expect(list.stdout.trim()).toBe('');
});
