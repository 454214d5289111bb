import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleOptions } from '../../examples/stack';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { runBinary } from '../drift/helpers';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import { Changes, CONSTRUCT_IDS, CONSTRUCTS, ConstructId, ENGINE_CASES, EngineCase, fromIds, PlannedValue } from './engine-cases';
import {
  E2E_TIMEOUT_MS, E2EEmulator, leaksOf, planExitCode, requireTerraform, SavedPlan, savedPlan, sha256, stackEnv, startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * The example stack through the REAL Terraform against the emulator, once per engine
 * (issue 14: the provider and the carriers run the same end-to-end cases). For each
 * engine one applied stack, edited step by step as a user would: create, a change made
 * in the account, in-place updates of mutable fields, a new primary domain, deleting a
 * mailbox, a password rotation, destroy. After every step the account a user sees is
 * the same for every engine; what differs (the resources, what the plan shows, how an
 * object is deleted) comes from engine-cases.ts, which cites DESIGN §2 for each
 * difference. test/integration/handler-lifecycle.test.ts runs the carriers' handler
 * through a stand-in for Terraform; here Terraform itself decides what to replace.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const PASSWORD = 'E2e-Lifecycle-Passw0rd!';
const ROTATED = 'E2e-Lifecycle-Rotated-Passw0rd!';
/** The edits accumulate: each step keeps the previous ones. */
const MUTABLE: ExampleOptions = {
  shopExtraDomains: ['example-shop.net', 'example-shop.co.uk'],
  ordersSend: false,
  salesRemote: 'orders-desk@example.org',
};
const RENAMED: ExampleOptions = { ...MUTABLE, blogDomain: 'example-journal.com' };

/** "Plan: a to add, c to change, d to destroy" as Terraform counts `changes` (a replacement is one add and one destroy). */
function planSummary(changes: Changes): RegExp {
  const all = Object.values(changes).flat();
  if (!all.length) return /No changes/;
  const count = (action: string) => all.filter((a) => a === action).length;
  return new RegExp(`Plan: ${count('create')} to add, ${count('update')} to change, ${count('delete')} to destroy`);
}

/** Lists of strings sorted, so that a set-like list compares by its members. */
function withSortedLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? [...value].sort() : value.map(withSortedLists);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSortedLists(v)]));
  return value;
}

function plannedValues(plan: SavedPlan, expected: PlannedValue): unknown {
  if (expected.which === 'prior') {
    return plan.json.prior_state.values.root_module.resources.find((r: any) => r.address === expected.address)?.values;
  }
  return plan.json.resource_changes.find((rc: any) => rc.address === expected.address)?.change[expected.which];
}

/** Every JSON value the engine's case names, and every line `terraform show` must print. */
function expectPlanShows(plan: SavedPlan, shows: RegExp[], values: PlannedValue[]): void {
  for (const line of shows) expect(plan.showText).toMatch(line);
  for (const v of values) {
    const where = `${v.address} ${v.which}`; // named in the failure message
    expect({ [where]: withSortedLists(plannedValues(plan, v)) }).toMatchObject({ [where]: withSortedLists(v.values) });
  }
}

describe.each(ENGINE_CASES.map((c) => [c.engine, c] as const))("the example stack's lifecycle with engine '%s'", (engine, c: EngineCase) => {
  let tf: string;
  let emu: E2EEmulator;
  let api: ResellerClient;
  let dir: string;
  let outdir: string;
  let stackDir: string;
  const objectOf = (id: ConstructId) => c.object(CONSTRUCTS[id], id);
  const settingsOf = (id: ConstructId) => c.settings(CONSTRUCTS[id], id);

  beforeAll(async () => {
    tf = requireTerraform(); // no Terraform: every test of this file fails with the install hint
    dir = tempDir(`lifecycle-${engine}`);
    emu = await startE2EEmulator({ dir, provisionDelayMs: 300 });
    api = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY, retryBaseDelayMs: 10 });
    outdir = join(dir, 'cdktf.out');
  });
  afterAll(async () => {
    api?.close();
    await emu?.stop();
  });

  const env = (password = PASSWORD) => stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, password, journalDir: join(dir, 'journal') });
  /** Synthesizes into the SAME outdir every time, as `cdktf synth` does: the state stays next to it. */
  const synth = (options: ExampleOptions) => {
    stackDir = synthExample({ ...options, engine }, outdir).stackDir;
  };
  const applySaved = (password = PASSWORD) => terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env(password));
  const planCode = async (password = PASSWORD) => (await planExitCode(tf, stackDir, env(password))).code;
  const drift = (args: string[] = []) => runBinary(['drift', '--stacks', outdir, '--json', '--detailed-exitcode', ...args], { ...process.env, ...env() });
  /** `reseller-hosting drift`: each declared object's status, by its resource address. */
  const driftStatuses = async (expectedCode: number) => {
    const run = await drift();
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: expectedCode, stderr: '' });
    const doc = JSON.parse(run.stdout);
    return Object.fromEntries(doc.objects.map((o: { address: string; status: string; diffs?: Array<{ field: string }> }) => [
      o.address, o.diffs?.length ? `${o.status}: ${o.diffs.map((d) => d.field).join(', ')}` : o.status,
    ]));
  };
  /** Every construct of the example in sync, but those named. */
  const allInSync = (statuses: Partial<Record<ConstructId, string>> = {}) =>
    Object.fromEntries(CONSTRUCT_IDS.map((id) => [objectOf(id), statuses[id] ?? 'in-sync']));
  const packageNamed = (name: string) => emu.account().packages.find((p) => p.name === name);
  const mailbox = (domain: string, local: string) => mailOf(emu.account(), domain).mailboxes.find((m) => m.local === local);
  /** A plan of exactly `changes`, saved and then applied. */
  const planAndApply = async (changes: Changes, password = PASSWORD) => {
    const plan = await savedPlan(tf, stackDir, env(password));
    expect(plan.changes).toEqual(changes);
    expect(plan.planText).toMatch(planSummary(changes));
    return { plan, applied: await applySaved(password) };
  };

  test('terraform init finds what the stack needs; apply creates the example; a second plan reports no changes', async () => {
    synth({});
    const init = await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env());
    expect([...init.stdout.matchAll(/- Installed (\S+) v\d+\.\d+\.\d+/g)].map((m) => m[1])).toEqual(c.installs);
    const result = await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env());
    expect(result.stdout).toMatch(new RegExp(`Apply complete! Resources: ${9 * c.resourcesPerConstruct} added, 0 changed, 0 destroyed`));
    const provisioned = [...result.stdout.matchAll(/^(\S+): Provisioning with 'local-exec'\.\.\.$/gm)].map((m) => m[1]);
    expect(provisioned.sort()).toEqual([...c.provisionedAtCreate].sort());
    expect(result.stdout.includes('local-exec')).toBe(c.provisionedAtCreate.length > 0);
    const commands = [...result.stdout.matchAll(/^\S+ \(local-exec\): Executing: \[.*"handler" "([a-z-]+)"\]$/gm)].map((m) => m[1]);
    expect(commands).toEqual(c.shownCommandsAtCreate);

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
    expect(mailOf(account, 'example-blog.com').forwarders.map((f) => f.local)).toEqual(['tips']);
    expect(account.cloudServers).toEqual([expect.objectContaining({ name: 'web1.example-shop.com', state: 'ready', branded: true })]);
    expect(packageNamed('app.example-shop.com')!.cloudServerId).toBe(account.cloudServers[0].id);

    const plan = await planExitCode(tf, stackDir, env());
    expect({ code: plan.code, output: plan.output }).toEqual({ code: 0, output: expect.stringMatching(/No changes/) });
    // The drift job's other form: a refresh-only plan right after the deploy finds nothing either.
    const refresh = await terraform(tf, ['plan', '-refresh-only', '-detailed-exitcode', '-input=false', '-no-color'], stackDir, env(), [0, 2]);
    expect({ code: refresh.code, output: refresh.stdout }).toEqual({ code: 0, output: expect.stringMatching(/No changes/) });
    expect(await driftStatuses(0)).toEqual(allInSync());
  });

  test(`changes made in the account: drift finds them, the plan ${c.planShowsAccountChanges ? 'shows them' : 'cannot'}, ${c.repairsAccountChanges} repairs them`, async () => {
    const shopId = packageNamed('example-shop.com')!.id;
    const blogId = packageNamed('example-blog.com')!.id;
    // As a customer would in the control panel: retarget a forwarder, delete a mailbox,
    // add a domain, disable a package.
    const mail = await api.mail.get(shopId, 'example-shop.com');
    const sales = mail.forwarders.find((f) => f.local === 'sales')!;
    const orders = mail.mailboxes.find((m) => m.local === 'orders')!;
    await api.mail.delete(shopId, 'example-shop.com', [sales.id, orders.id]);
    await api.mail.createForwarder(shopId, 'example-shop.com', { local: 'sales', remote: 'evil@example.net' });
    await api.packages.changeNames(shopId, { add: ['example-shop.info'] });
    await api.packages.setEnabled(blogId, false);

    expect(await driftStatuses(2)).toEqual(allInSync({
      shop: 'changed: extraDomainNames', blog: 'changed: enabled', shop_orders: 'missing', shop_sales: 'changed: remote',
    }));
    expect(await planCode()).toBe(c.planShowsAccountChanges ? 2 : 0);
    const plan = await savedPlan(tf, stackDir, env());
    expect(plan.changes).toEqual(c.accountChangesPlan.changes);
    expectPlanShows(plan, c.accountChangesPlan.shows, c.accountChangesPlan.values);

    if (c.repairsAccountChanges === 'terraform apply') {
      await applySaved();
    } else {
      const fixed = await drift(['--fix']);
      expect(fixed.code).toBe(0);
      // Its progress, on stderr: each drifted object reconciled, and only those.
      expect([...fixed.stderr.matchAll(/^reconciling \S+ \S+ \((\S+)\)$/gm)].map((m) => m[1]).sort()).toEqual(
        (['shop', 'blog', 'shop_orders', 'shop_sales'] as const).map(objectOf).sort(),
      );
    }
    expect(packageNamed('example-shop.com')!.names.sort()).toEqual(['example-shop.com', 'example-shop.net', 'example-shop.org']);
    expect(packageNamed('example-blog.com')!.enabled).toBe(true);
    const repaired = mailOf(emu.account(), 'example-shop.com');
    expect(repaired.forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'sales-team@example.org']]);
    expect(repaired.mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
    expect(mailbox('example-shop.com', 'orders')!.passwordSha256).toBe(sha256(PASSWORD)); // re-created with the stack's password
    expect(await planCode()).toBe(0);
    expect(await driftStatuses(0)).toEqual(allInSync());
  });

  test("mutable fields change in place: objects keep their ids and a customer's own password", async () => {
    // The customer changes the orders mailbox's password in the control panel: a change
    // of its `send` setting must not put the stack's password back.
    const customers = 'Customers-Own-Passw0rd!';
    await api.mail.updateMailbox('example-shop.com', 'example-shop.com', { id: mailbox('example-shop.com', 'orders')!.id, password: customers });
    expect(mailbox('example-shop.com', 'orders')!.passwordSha256).toBe(sha256(customers));
    const before = emu.account();
    const idsBefore = before.packages.map((p) => [p.name, p.id]).sort();
    const shopMail = mailOf(before, 'example-shop.com');

    synth(MUTABLE);
    await emu.clearRequests();
    await planAndApply(fromIds(['shop', 'shop_orders', 'shop_sales'], settingsOf, c.settingsUpdate));
    const after = emu.account();
    expect(after.packages.map((p) => [p.name, p.id]).sort()).toEqual(idsBefore);
    expect(packageNamed('example-shop.com')!.names.sort()).toEqual(['example-shop.co.uk', 'example-shop.com', 'example-shop.net']);
    const orders = mailbox('example-shop.com', 'orders')!;
    expect(orders.send).toBe(false);
    expect(orders.id).toBe(shopMail.mailboxes.find((m) => m.local === 'orders')!.id); // same mailbox, updated
    expect(orders.passwordSha256).toBe(sha256(customers));
    expect(mailbox('example-shop.com', 'info')!.id).toBe(shopMail.mailboxes.find((m) => m.local === 'info')!.id);
    expect(mailOf(after, 'example-shop.com').forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'orders-desk@example.org']]);
    // Nothing was deleted or created at the package level.
    const calls = (await emu.requests()).map((r) => `${r.method} ${r.path}`);
    expect(calls.filter((cl) => /deleteWeb|addWeb|addCloudServer/.test(cl))).toEqual([]);

    expect(await planCode()).toBe(0);
  });

  test('a new primary domain replaces that package (delete, then create) and its mail', async () => {
    const oldBlog = packageNamed('example-blog.com')!;
    const shopId = packageNamed('example-shop.com')!.id;

    synth(RENAMED);
    await emu.clearRequests();
    const { plan } = await planAndApply(c.blogRenamed.changes);
    expectPlanShows(plan, c.blogRenamed.shows, []);
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
    const deleted = calls.findIndex((cl) => cl.endsWith('/deleteWeb'));
    const created = calls.findIndex((cl) => cl.endsWith('/addWeb'));
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(created).toBeGreaterThan(deleted);

    expect(await planCode()).toBe(0);
  });

  test(`deleting a mailbox (${c.deleteOrders.map((s) => Object.keys(s.options).join('+')).join(', then ')}) deletes it, and only it`, async () => {
    const infoId = mailbox('example-shop.com', 'info')!.id;
    for (const step of c.deleteOrders) {
      synth({ ...RENAMED, ...step.options });
      const { applied } = await planAndApply(step.changes);
      if (step.applySays) expect(applied.stdout).toMatch(step.applySays);
      expect(mailOf(emu.account(), 'example-shop.com').mailboxes.map((m) => [m.local, m.id])).toEqual([['info', infoId]]);
      expect(await planCode()).toBe(0);
    }
  });

  test('the password rotates by version only; no password in the state, the plan JSON or the output', async () => {
    synth({ ...RENAMED, ordersRemoved: true, infoPasswordVersion: 2 });
    const { plan, applied } = await planAndApply(c.rotation.changes, ROTATED);
    expectPlanShows(plan, [], c.rotation.values);
    expect(mailbox('example-shop.com', 'info')!.passwordSha256).toBe(sha256(ROTATED));
    expect(mailOf(emu.account(), 'example-journal.com').mailboxes[0].passwordSha256).toBe(sha256(PASSWORD)); // not rotated
    // Another password at the same version: nothing to do (the password is never compared).
    expect(await planCode('Yet-Another-Passw0rd!')).toBe(0);

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

  test('terraform destroy removes every managed package and mail object, and retains the cloud server loudly', async () => {
    const serverId = emu.account().cloudServers[0].id;
    const result = await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], stackDir, env());
    const output = result.stdout + result.stderr;
    // Eight constructs are left (the orders mailbox is gone).
    expect(output).toMatch(new RegExp(`Destroy complete! Resources: ${8 * c.resourcesPerConstruct} destroyed`));
    // Every engine says it the same way (the provider as a warning diagnostic).
    expect(output).toMatch(/cloud server web1\.example-shop\.com \(id \d+\) was NOT cancelled.*billing continues/);

    const account = emu.account();
    expect(account.packages).toEqual([]); // mail lives in packages: none left either
    for (const domain of ['example-shop.com', 'example-journal.com', 'example-blog.com', 'app.example-shop.com']) {
      expect(mailOf(account, domain)).toEqual({ domain, mailboxes: [], forwarders: [] });
    }
    expect(account.cloudServers.map((s) => [s.id, s.name])).toEqual([[serverId, 'web1.example-shop.com']]);
    const list = await terraform(tf, ['state', 'list'], stackDir, env());
    expect(list.stdout.trim()).toBe('');
  });
});
