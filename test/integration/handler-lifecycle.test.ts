import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform } from '../helpers/mini-terraform';
import { synthExample } from '../helpers/synth';

/**
 * The example stack's synthesized provisioners, run exactly as written (interpreter,
 * command, environment) against the emulator: create, update in place, replace,
 * absent, destroy, and re-runs that must change nothing.
 */
const PASSWORD = 'Initial-Passw0rd!';

let emu: TestEmulator;
let outdir: string;
let tf: MiniTerraform;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 300 });
  outdir = mkdtempSync(join(tmpdir(), 'reseller-lifecycle-'));
  const { stackDir } = synthExample({}, outdir);
  tf = new MiniTerraform(stackDir, handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'journal-'))), { mailbox_password: PASSWORD });
});
afterAll(() => emu?.stop());

const packageNamed = (name: string) => emu.account().packages.find((p) => p.name === name);

test('a first apply creates every declared object exactly once', async () => {
  await tf.apply(synthExample({}, outdir).json);
  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  const shop = packageNamed('example-shop.com')!;
  expect(shop.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
  expect(shop.packageTypeName).toBe('Linux Unlimited');
  expect(shop.label).toBe('Example Shop Ltd');
  expect(shop.stackUsers).toEqual(['stack-user:989901']); // resolved from { email: 'owner@example.com' }
  expect(shop.documentRoots).toEqual({ 'example-shop.net': 'public_html/net' });
  expect(mailOf(account, 'example-shop.com').mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
  expect(mailOf(account, 'example-shop.com').forwarders).toEqual([expect.objectContaining({ local: 'sales', remote: 'sales-team@example.org' })]);
  expect(mailOf(account, 'example-blog.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(account.cloudServers).toEqual([expect.objectContaining({ name: 'web1.example-shop.com', spec: 'medium', branded: true, state: 'ready' })]);
  expect(packageNamed('app.example-shop.com')!.cloudServerId).toBe(account.cloudServers[0].id);
});

test('re-running every ensure (as after a tainted apply) adopts and duplicates nothing', async () => {
  const before = emu.account();
  const fresh = new MiniTerraform(tf.stackDir, handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'journal-'))), { mailbox_password: PASSWORD });
  const runs = await fresh.apply(synthExample({}, outdir).json);
  expect(runs.filter((r) => r.command === 'ensure').length).toBe(9);
  expect(runs.filter((r) => r.command === 'ensure').map((r) => r.stdout).join('')).toMatch(/adopted package example-shop.com/);
  const after = emu.account();
  expect(after.packages.map((p) => [p.id, p.name])).toEqual(before.packages.map((p) => [p.id, p.name]));
  expect(after.cloudServers.length).toBe(1);
  expect(after.balance).toBe(before.balance); // no second server ordered
  expect(mailOf(after, 'example-shop.com')).toEqual(mailOf(before, 'example-shop.com'));
});

test('an apply with nothing changed runs no provisioner', async () => {
  expect(await tf.apply(synthExample({}, outdir).json)).toEqual([]);
});

test('changing mutable fields updates in place: only settings resources run, ids unchanged', async () => {
  const shopId = packageNamed('example-shop.com')!.id;
  const ordersHash = mailOf(emu.account(), 'example-shop.com').mailboxes.find((m) => m.local === 'orders')!.passwordSha256;
  const runs = await tf.apply(synthExample({
    shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'], ordersSend: false, salesRemote: 'orders-desk@example.org',
  }, outdir).json);
  expect(runs.map((r) => `${r.address} ${r.command}`).sort()).toEqual([
    'terraform_data.shop_orders_settings update',
    'terraform_data.shop_sales_settings update',
    'terraform_data.shop_settings update',
  ]);
  const account = emu.account();
  const shop = packageNamed('example-shop.com')!;
  expect(shop.id).toBe(shopId);
  expect(shop.names.sort()).toEqual(['example-shop.co.uk', 'example-shop.com', 'example-shop.net']);
  const orders = mailOf(account, 'example-shop.com').mailboxes.find((m) => m.local === 'orders')!;
  expect(orders.send).toBe(false);
  expect(orders.passwordSha256).toBe(ordersHash); // no blind password write on a flag change
  expect(mailOf(account, 'example-shop.com').forwarders.map((f) => f.remote)).toEqual(['orders-desk@example.org']);
  expect(runs.find((r) => r.address.endsWith('shop_settings'))!.stdout).toMatch(
    /updated package example-shop.com: extraDomainNames \["example-shop.net","example-shop.org"\] -> \["example-shop.co.uk","example-shop.net"\]/,
  );
});

test('bumping passwordVersion rotates only that password', async () => {
  const before = mailOf(emu.account(), 'example-shop.com').mailboxes;
  const state = { shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'], ordersSend: false, salesRemote: 'orders-desk@example.org' };
  tf.vars = { mailbox_password: 'Rotated-Passw0rd!' };
  const runs = await tf.apply(synthExample({ ...state, infoPasswordVersion: 2 }, outdir).json);
  expect(runs.map((r) => `${r.address} ${r.command}`)).toEqual(['terraform_data.shop_info_password set-password']);
  const after = mailOf(emu.account(), 'example-shop.com').mailboxes;
  const hash = (list: typeof before, local: string) => list.find((m) => m.local === local)!.passwordSha256;
  expect(hash(after, 'info')).not.toBe(hash(before, 'info'));
  expect(hash(after, 'orders')).toBe(hash(before, 'orders'));
  expect(runs[0].stdout + runs[0].stderr).not.toContain('Rotated-Passw0rd!');
});

test('changing a primary domain replaces the package and its mail', async () => {
  const state = { shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'], ordersSend: false, salesRemote: 'orders-desk@example.org', infoPasswordVersion: 2 };
  const oldId = packageNamed('example-blog.com')!.id;
  await tf.apply(synthExample({ ...state, blogDomain: 'example-journal.com' }, outdir).json);
  expect(packageNamed('example-blog.com')).toBeUndefined();
  const blog = packageNamed('example-journal.com')!;
  expect(blog.id).not.toBe(oldId);
  expect(mailOf(emu.account(), 'example-journal.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(mailOf(emu.account(), 'example-journal.com').forwarders.map((f) => f.local)).toEqual(['tips']);
});

test('absent: true deletes the object; destroy removes every managed package and keeps the server', async () => {
  const state = { shopExtraDomains: ['example-shop.net'], ordersSend: false, salesRemote: 'orders-desk@example.org', infoPasswordVersion: 2, blogDomain: 'example-journal.com' };
  await tf.apply(synthExample({ ...state, ordersAbsent: true }, outdir).json);
  expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => m.local)).toEqual(['info']);

  const runs = await tf.destroy();
  const account = emu.account();
  expect(account.packages).toEqual([]);
  expect(account.cloudServers.map((s) => s.name)).toEqual(['web1.example-shop.com']);
  const serverRun = runs.find((r) => r.address === 'terraform_data.web1')!;
  expect(serverRun.stderr).toMatch(/NOT cancelled.*billing continues/);
});

test('destroying objects that are already gone succeeds', async () => {
  // Re-apply then delete out of band, then destroy: every delete finds nothing and exits 0.
  await tf.apply(synthExample({}, outdir).json);
  await emu.control('POST', 'reset');
  const runs = await tf.destroy();
  expect(runs.filter((r) => r.command === 'delete').every((r) => r.code === 0)).toBe(true);
  expect(runs.map((r) => r.stdout).join('')).toMatch(/package example-shop.com is already absent/);
});
