import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleOptions } from '../../examples/stack';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import {
  E2E_TIMEOUT_MS, E2EEmulator, leaksOf, planExitCode, requireTerraform, savedPlan, sha256, stackEnv, startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * The example stack through the constructs with engine 'provider' (the default) and
 * REAL Terraform against the emulator, one applied stack for the file, edited step by
 * step as a user would. The provider is found by `terraform init` in the stack
 * directory where synth placed it (no CLI configuration, no install step). The same
 * cases as lifecycle.test.ts (the carriers), with the differences DESIGN §2 states:
 * a change made in the account shows in `terraform plan`, and removing a construct
 * deletes its object.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const PASSWORD = 'E2e-Provider-Passw0rd!';
const ROTATED = 'E2e-Provider-Rotated-Passw0rd!';
const PROVIDER: ExampleOptions = { engine: 'provider' };
const MUTABLE: ExampleOptions = {
  ...PROVIDER,
  shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'],
  ordersSend: false,
  salesRemote: 'orders-desk@example.org',
};
const RENAMED: ExampleOptions = { ...MUTABLE, blogDomain: 'example-journal.com' };
const ORDERS_REMOVED: ExampleOptions = { ...RENAMED, ordersRemoved: true };

let tf: string;
let emu: E2EEmulator;
let api: ResellerClient;
let outdir: string;
let stackDir: string;
let dir: string;

beforeAll(async () => {
  tf = requireTerraform();
  dir = tempDir('provider-lifecycle');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 300 });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY, retryBaseDelayMs: 10 });
  outdir = join(dir, 'cdktf.out');
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

const env = (password = PASSWORD) => stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, password, journalDir: join(dir, 'journal') });
const synth = (options: ExampleOptions) => {
  stackDir = synthExample(options, outdir).stackDir;
};
const apply = (password = PASSWORD) => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env(password));
const packageNamed = (name: string) => emu.account().packages.find((p) => p.name === name);
const change = (plan: { json: any }, address: string) => plan.json.resource_changes.find((rc: any) => rc.address === address)?.change;

test('terraform init finds the provider synth placed; apply creates the example; a second plan is empty', async () => {
  synth(PROVIDER);
  const init = await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env());
  expect(init.stdout).toMatch(/Installed reseller-hosting\.local\/cdktf\/reseller v\d+\.\d+\.\d+/);
  const result = await apply();
  // One reseller_* resource per construct, no provisioners.
  expect(result.stdout).toMatch(/Apply complete! Resources: 9 added, 0 changed, 0 destroyed/);
  expect(result.stdout).not.toContain('local-exec');

  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  const shop = packageNamed('example-shop.com')!;
  expect(shop.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
  expect(shop.packageTypeName).toBe('Linux Unlimited');
  expect(shop.stackUsers).toEqual(['stack-user:989901']);
  const shopMail = mailOf(account, 'example-shop.com');
  expect(shopMail.mailboxes.map((m) => [m.local, m.send]).sort()).toEqual([['info', true], ['orders', true]]);
  expect(shopMail.mailboxes.every((m) => m.passwordSha256 === sha256(PASSWORD))).toBe(true);
  expect(shopMail.forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'sales-team@example.org']]);
  expect(mailOf(account, 'example-blog.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(account.cloudServers.map((s) => [s.name, s.state])).toEqual([['web1.example-shop.com', 'ready']]);

  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
});

test('changes made in the account show in terraform plan (exit 2, the attributes in the diff); apply repairs them', async () => {
  const shopId = packageNamed('example-shop.com')!.id;
  const blogId = packageNamed('example-blog.com')!.id;
  // As a customer would in the control panel: retarget a forwarder, delete a mailbox,
  // add a domain, disable a package.
  const mail = await api.getMail(shopId, 'example-shop.com');
  const sales = mail.forwarders.find((f) => f.local === 'sales')!;
  const orders = mail.mailboxes.find((m) => m.local === 'orders')!;
  await api.deleteMail(shopId, 'example-shop.com', [sales.id, orders.id]);
  await api.createForwarder(shopId, 'example-shop.com', { local: 'sales', remote: 'evil@example.net' });
  await api.changePackageNames(shopId, { add: ['example-shop.info'] });
  await api.setPackageEnabled(blogId, false);

  expect((await planExitCode(tf, stackDir, env())).code).toBe(2);
  const plan = await savedPlan(tf, stackDir, env());
  expect(plan.changes).toEqual({
    'reseller_package.shop': ['update'],
    'reseller_package.blog': ['update'],
    'reseller_mailbox.shop_orders': ['create'],
    'reseller_forwarder.shop_sales': ['update'],
  });
  expect(change(plan, 'reseller_forwarder.shop_sales')).toMatchObject({ before: { remote: 'evil@example.net' }, after: { remote: 'sales-team@example.org' } });
  expect([...change(plan, 'reseller_package.shop').before.extra_domain_names].sort()).toEqual(['example-shop.info', 'example-shop.net', 'example-shop.org']);
  expect(plan.showText).toMatch(/~ remote\s+= "evil@example.net" -> "sales-team@example.org"/);
  expect(plan.showText).toMatch(/~ enabled\s+= false -> true/);
  // The refreshed state (what plan JSON calls prior_state) is the account as it is now.
  const prior = plan.json.prior_state.values.root_module.resources.find((r: any) => r.address === 'reseller_package.blog');
  expect(prior.values.enabled).toBe(false);

  await apply();
  expect(packageNamed('example-shop.com')!.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
  expect(packageNamed('example-blog.com')!.enabled).toBe(true);
  const repaired = mailOf(emu.account(), 'example-shop.com');
  expect(repaired.forwarders.map((f) => f.remote)).toEqual(['sales-team@example.org']);
  expect(repaired.mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
});

test('mutable fields update in place', async () => {
  synth(MUTABLE);
  const plan = await savedPlan(tf, stackDir, env());
  expect(plan.changes).toEqual({
    'reseller_package.shop': ['update'],
    'reseller_mailbox.shop_orders': ['update'],
    'reseller_forwarder.shop_sales': ['update'],
  });
  await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env());
  expect(packageNamed('example-shop.com')!.names.sort()).toEqual(['example-shop.co.uk', 'example-shop.com', 'example-shop.net']);
  const mail = mailOf(emu.account(), 'example-shop.com');
  expect(mail.mailboxes.find((m) => m.local === 'orders')!.send).toBe(false);
  expect(mail.forwarders.map((f) => f.remote)).toEqual(['orders-desk@example.org']);
  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
});

test('a new primary domain replaces the package and the mail on it', async () => {
  synth(RENAMED);
  const plan = await savedPlan(tf, stackDir, env());
  const replaced = ['delete', 'create'];
  expect(plan.changes).toEqual({
    'reseller_package.blog': replaced,
    'reseller_mailbox.blog_editor': replaced,
    'reseller_forwarder.blog_tips': replaced,
  });
  expect(plan.showText).toMatch(/~ domain_name\s+= "example-blog.com" -> "example-journal.com" # forces replacement/);
  await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env());
  expect(packageNamed('example-blog.com')).toBeUndefined();
  expect(packageNamed('example-journal.com')).toBeDefined();
  expect(mailOf(emu.account(), 'example-journal.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(mailOf(emu.account(), 'example-journal.com').forwarders.map((f) => f.local)).toEqual(['tips']);
  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
});

test('removing a construct from the code plans a delete, and the apply deletes the object remotely', async () => {
  synth(ORDERS_REMOVED);
  const plan = await savedPlan(tf, stackDir, env());
  expect(plan.changes).toEqual({ 'reseller_mailbox.shop_orders': ['delete'] });
  await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env());
  expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => m.local)).toEqual(['info']);
  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
});

test('the password rotates by version only; no password in the state, the plan JSON or the output', async () => {
  synth({ ...ORDERS_REMOVED, infoPasswordVersion: 2 });
  const plan = await savedPlan(tf, stackDir, env(ROTATED));
  expect(plan.changes).toEqual({ 'reseller_mailbox.shop_info': ['update'] });
  expect(change(plan, 'reseller_mailbox.shop_info')).toMatchObject({ before: { password_wo_version: 1 }, after: { password_wo_version: 2 } });
  const applied = await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env(ROTATED));
  const mailboxes = mailOf(emu.account(), 'example-shop.com').mailboxes;
  expect(mailboxes.find((m) => m.local === 'info')!.passwordSha256).toBe(sha256(ROTATED));
  expect(mailOf(emu.account(), 'example-journal.com').mailboxes[0].passwordSha256).toBe(sha256(PASSWORD)); // not rotated
  // Another password at the same version: nothing to do (write-only values are never compared).
  expect((await planExitCode(tf, stackDir, env('Yet-Another-Passw0rd!'))).code).toBe(0);

  const texts = {
    'terraform.tfstate': readFileSync(join(stackDir, 'terraform.tfstate'), 'utf8'),
    'cdk.tf.json': readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'),
    'plan JSON': plan.jsonText,
    'plan output': plan.planText + plan.showText,
    'apply output': applied.stdout + applied.stderr,
  };
  expect(leaksOf(PASSWORD, texts)).toEqual([]);
  expect(leaksOf(ROTATED, texts)).toEqual([]);
  expect(leaksOf(DEFAULT_API_KEY, texts)).toEqual([]);
});
