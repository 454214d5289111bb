import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import { MiniTerraform, summary } from '../helpers/mini-terraform';
import { customerSetsPassword, passwordHash, requestLog, sha256, tempDir } from './support';

/**
 * The example stack's synthesized provisioners, run exactly as written (interpreter,
 * command, environment) against the emulator: create, update in place, rotate,
 * replace, absent, destroy, and re-runs that must change nothing.
 */
const PASSWORD = 'Initial-Passw0rd!';
const ROTATED = 'Rotated-Passw0rd!';
const CUSTOMER = 'Customer-Chose-This-1';
const OBJECTS = ['web1', 'shop', 'blog', 'shop_app', 'shop_info', 'shop_orders', 'blog_editor', 'shop_sales', 'blog_tips'];

let emu: TestEmulator;
let outdir: string;
let tf: MiniTerraform;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 300 });
  outdir = tempDir('reseller-lifecycle-');
  const { stackDir } = synthExample({}, outdir);
  tf = new MiniTerraform(stackDir, handlerEnv(emu.url, tempDir('journal-')), { mailbox_password: PASSWORD });
});
afterAll(() => emu?.stop());

const packageNamed = (name: string) => emu.account().packages.find((p) => p.name === name);
const objectIds = () => Object.fromEntries(OBJECTS.map((o) => [o, tf.idOf(`terraform_data.${o}`)]));
const shopHash = (local: string) => passwordHash(emu, 'example-shop.com', local);

test('a first apply runs one ensure process per object, parents first, and creates every object exactly once', async () => {
  const runs = await tf.apply(synthExample({}, outdir).json);

  // One handler process per object: ensure, from its settings resource, with the object's id.
  expect(summary(runs).sort()).toEqual(OBJECTS.map((o) => `terraform_data.${o}_settings ensure`).sort());
  for (const run of runs) {
    expect(run.code).toBe(0);
    expect(run.objectId).toBe(tf.idOf(run.address.replace(/_settings$/, '')));
  }
  const at = (o: string) => runs.findIndex((r) => r.address === `terraform_data.${o}_settings`);
  expect(at('web1')).toBeLessThan(at('shop_app'));
  for (const child of ['shop_info', 'shop_orders', 'shop_sales']) expect(at('shop')).toBeLessThan(at(child));
  for (const child of ['blog_editor', 'blog_tips']) expect(at('blog')).toBeLessThan(at(child));
  expect(runs.find((r) => r.address === 'terraform_data.web1_settings')!.stdout).toMatch(/ordered cloud server web1\.example-shop\.com/);

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
  for (const local of ['info', 'orders']) expect(shopHash(local)).toBe(sha256(PASSWORD));
  expect(account.cloudServers).toEqual([expect.objectContaining({ name: 'web1.example-shop.com', spec: 'medium', branded: true, state: 'ready' })]);
  expect(packageNamed('app.example-shop.com')!.cloudServerId).toBe(account.cloudServers[0].id);
  // Each object was created by one write: no second create, no separate settings or password write.
  const writes = (await requestLog(emu)).filter((r) => r.method === 'POST' && r.status === 200);
  expect(writes.filter((r) => r.path.endsWith('/addCloudServer'))).toHaveLength(1);
  expect(writes.filter((r) => /addWeb$/.test(r.path))).toHaveLength(3);
  expect(writes.filter((r) => r.path.includes('/email/'))).toHaveLength(5);
});

test('re-running every ensure (state lost, as after a failed first apply) adopts and duplicates nothing', async () => {
  const before = emu.account();
  const fresh = new MiniTerraform(tf.stackDir, handlerEnv(emu.url, tempDir('journal-')), { mailbox_password: PASSWORD });
  const runs = await fresh.apply(synthExample({}, outdir).json);
  expect(summary(runs).sort()).toEqual(OBJECTS.map((o) => `terraform_data.${o}_settings ensure`).sort());
  const out = runs.map((r) => r.stdout).join('');
  expect(out).toMatch(/adopted package example-shop.com/);
  expect(out).toMatch(/adopted cloud server web1\.example-shop\.com/);
  expect(out).not.toMatch(/ordered|created/);
  const after = emu.account();
  expect(after.packages.map((p) => [p.id, p.name])).toEqual(before.packages.map((p) => [p.id, p.name]));
  expect(after.cloudServers.length).toBe(1);
  expect(after.balance).toBe(before.balance); // no second server ordered
  expect(mailOf(after, 'example-shop.com')).toEqual(mailOf(before, 'example-shop.com'));
});

test('an apply with nothing changed runs no provisioner', async () => {
  expect(await tf.apply(synthExample({}, outdir).json)).toEqual([]);
});

const changed = { shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'], ordersSend: false, salesRemote: 'orders-desk@example.org' };

test("changing mutable fields updates in place: only settings resources are replaced, and a customer's password is kept", async () => {
  const ids = objectIds();
  const shopId = packageNamed('example-shop.com')!.id;
  await customerSetsPassword(emu, 'example-shop.com', 'orders', CUSTOMER);

  const runs = await tf.apply(synthExample(changed, outdir).json);
  expect(summary(runs).sort()).toEqual([
    'terraform_data.shop_orders_settings ensure',
    'terraform_data.shop_orders_settings retire-settings',
    'terraform_data.shop_sales_settings ensure',
    'terraform_data.shop_settings ensure',
  ]);
  // The outgoing settings are noted before the new ones are ensured.
  const orders = runs.filter((r) => r.address === 'terraform_data.shop_orders_settings');
  expect(orders.map((r) => `${r.when} ${r.command}`)).toEqual(['destroy retire-settings', 'create ensure']);
  expect(objectIds()).toEqual(ids); // no object resource replaced: nothing deleted

  const account = emu.account();
  const shop = packageNamed('example-shop.com')!;
  expect(shop.id).toBe(shopId);
  expect(shop.names.sort()).toEqual(['example-shop.co.uk', 'example-shop.com', 'example-shop.net']);
  expect(mailOf(account, 'example-shop.com').mailboxes.find((m) => m.local === 'orders')!.send).toBe(false);
  expect(shopHash('orders')).toBe(sha256(CUSTOMER)); // a settings change does not rewrite the password
  expect(mailOf(account, 'example-shop.com').forwarders.map((f) => f.remote)).toEqual(['orders-desk@example.org']);
  expect(runs.find((r) => r.address.endsWith('shop_settings'))!.stdout).toMatch(
    /package example-shop.com .*updated extraDomainNames \["example-shop.net","example-shop.org"\] -> \["example-shop.co.uk","example-shop.net"\]/,
  );
  expect(orders[1].stdout).toMatch(/mailbox orders@example-shop.com: updated send true -> false\n/);
  expect(orders[1].stdout).not.toMatch(/password/);
});

test('bumping passwordVersion rotates only that password', async () => {
  const ids = objectIds();
  tf.vars = { mailbox_password: ROTATED };
  const runs = await tf.apply(synthExample({ ...changed, infoPasswordVersion: 2 }, outdir).json);
  expect(summary(runs)).toEqual(['terraform_data.shop_info_settings retire-settings', 'terraform_data.shop_info_settings ensure']);
  expect(objectIds()).toEqual(ids);
  expect(runs[1].stdout).toMatch(/mailbox info@example-shop.com: set its password \(version 2\)/);
  expect(shopHash('info')).toBe(sha256(ROTATED));
  expect(shopHash('orders')).toBe(sha256(CUSTOMER)); // the variable changed too, but orders' version did not
  expect(passwordHash(emu, 'example-blog.com', 'editor')).toBe(sha256(PASSWORD));
  for (const run of runs) expect(run.stdout + run.stderr).not.toContain(ROTATED);
});

test('changing a primary domain replaces the package and its mail: delete, then create, children last', async () => {
  const state = { ...changed, infoPasswordVersion: 2 };
  const oldId = packageNamed('example-blog.com')!.id;
  const runs = await tf.apply(synthExample({ ...state, blogDomain: 'example-journal.com' }, outdir).json);
  const order = summary(runs);
  expect(order.filter((r) => r.endsWith(' delete')).sort()).toEqual([
    'terraform_data.blog delete', 'terraform_data.blog_editor delete', 'terraform_data.blog_tips delete',
  ]);
  expect(order.filter((r) => r.endsWith(' ensure')).sort()).toEqual([
    'terraform_data.blog_editor_settings ensure', 'terraform_data.blog_settings ensure', 'terraform_data.blog_tips_settings ensure',
  ]);
  expect(order.indexOf('terraform_data.blog_editor delete')).toBeLessThan(order.indexOf('terraform_data.blog delete'));
  expect(order.indexOf('terraform_data.blog delete')).toBeLessThan(order.indexOf('terraform_data.blog_settings ensure'));
  expect(order.indexOf('terraform_data.blog_settings ensure')).toBeLessThan(order.indexOf('terraform_data.blog_editor_settings ensure'));
  expect(runs.every((r) => !r.address.startsWith('terraform_data.shop'))).toBe(true);

  expect(packageNamed('example-blog.com')).toBeUndefined();
  const blog = packageNamed('example-journal.com')!;
  expect(blog.id).not.toBe(oldId);
  expect(mailOf(emu.account(), 'example-journal.com').mailboxes.map((m) => m.local)).toEqual(['editor']);
  expect(passwordHash(emu, 'example-journal.com', 'editor')).toBe(sha256(ROTATED)); // a new mailbox gets the current password
  expect(mailOf(emu.account(), 'example-journal.com').forwarders.map((f) => f.local)).toEqual(['tips']);
});

test('absent: true deletes the object; destroy removes every managed package and keeps the server', async () => {
  const state = { shopExtraDomains: ['example-shop.net'], ordersSend: false, salesRemote: 'orders-desk@example.org', infoPasswordVersion: 2, blogDomain: 'example-journal.com' };
  const config = synthExample({ ...state, ordersAbsent: true }, outdir).json;
  const absent = await tf.apply(config);
  expect(absent.filter((r) => r.address.startsWith('terraform_data.shop_orders')).map((r) => `${r.address} ${r.command}`).sort()).toEqual([
    'terraform_data.shop_orders delete',
    'terraform_data.shop_orders_settings retire-settings',
  ]);
  expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => m.local)).toEqual(['info']);

  const runs = await tf.destroy(config);
  expect(tf.state.size).toBe(0);
  const account = emu.account();
  expect(account.packages).toEqual([]);
  expect(account.cloudServers.map((s) => s.name)).toEqual(['web1.example-shop.com']);
  const serverRun = runs.find((r) => r.address === 'terraform_data.web1')!;
  expect(serverRun.command).toBe('delete');
  expect(serverRun.stderr).toMatch(/NOT cancelled.*billing continues/);
  expect(runs.every((r) => r.when === 'destroy' && r.code === 0)).toBe(true);
});

test('destroying objects that are already gone succeeds', async () => {
  // Re-apply then delete out of band, then destroy: every delete finds nothing and exits 0.
  const config = synthExample({}, outdir).json;
  await tf.apply(config);
  await emu.control('POST', 'reset');
  const runs = await tf.destroy(config);
  expect(runs.filter((r) => r.command === 'delete')).toHaveLength(OBJECTS.length);
  expect(runs.every((r) => r.code === 0)).toBe(true);
  expect(runs.map((r) => r.stdout).join('')).toMatch(/package example-shop.com is already absent/);
});
