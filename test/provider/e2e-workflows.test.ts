import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviewPlan } from '../../src/commands/review/review';
import { mailOf } from '../helpers/emulator';
import { E2E_TIMEOUT_MS, managedResourceCounts, SavedPlan, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * Terraform workflows that only Terraform drives, with the provider underneath: the
 * refresh-only drift job, accepting a change made in the control panel into the state
 * (`-refresh-only`), letting go of an object without deleting it (a `removed` block) and
 * taking it back (an `import` block), and adopting a whole account with
 * `-generate-config-out`. The tests run in order on one account and one state.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const SITE = 'workflow-site.com';
let ws: ProviderWorkspace;

/** One object of every kind, so that the refresh-only check covers each kind's attributes (numbers among them). */
const declared = (label: string): Resources => ({
  reseller_stack_user: { owner: { email: 'workflow-owner@example.com', person_name: 'Workflow Owner' } },
  reseller_cloud_server: {
    web: { host_name: 'web1.workflow-site.com', cloud_provider: 'native', spec: 'small', zone: 'dc_location-uk', for_user: '${reseller_stack_user.owner.email}' },
  },
  reseller_package: { site: { domain_name: SITE, package_type: 'Linux Starter', label } },
  reseller_mailbox: { info: { package: '${reseller_package.site.domain_name}', local_part: 'info', password_wo: '${var.mailbox_password}', password_wo_version: 1 } },
  reseller_forwarder: { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: 'team@example.org' } },
  reseller_dns_record: { mx: { package: '${reseller_package.site.domain_name}', name: '@', type: 'MX', value: 'mail2.workflow-site.com', priority: 20 } },
});
/** What `declared` puts in the state. */
const DECLARED_COUNTS = {
  reseller_stack_user: 1, reseller_cloud_server: 1, reseller_package: 1, reseller_mailbox: 1, reseller_forwarder: 1, reseller_dns_record: 1,
};

const planCode = (...extra: string[]) => ws.planCode(...extra);
const afterOf = (plan: SavedPlan, address: string) => plan.json.resource_changes.find((rc: { address: string }) => rc.address === address).change.after;
const site = () => ws.emu.account().packages.find((p) => p.name === SITE);

beforeAll(async () => {
  ws = await startProviderWorkspace({
    name: 'provider-workflows',
    provisionDelayMs: 0, // a cloud server is listed as soon as ordered
    variables: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
    env: { TF_VAR_mailbox_password: 'Workflow-Mailbox-Passw0rd!' },
  }, declared('Shop'));
  // The plan already shows the package type's id (read with the type list it checks the name against).
  const create = await savedPlan(ws.tf, ws.dir, ws.env);
  expect(afterOf(create, 'reseller_package.site')).toMatchObject({ package_type: 'Linux Starter', package_type_id: 812 });
  await ws.run(['apply', '-auto-approve', 'p']);
  expect(managedResourceCounts(ws.dir)).toEqual(DECLARED_COUNTS);
  expect(await planCode()).toBe(0);
});

afterAll(() => ws?.stop());

test('right after an apply, the refresh-only drift job finds nothing: exit 0 for every kind', async () => {
  // Terraform 1.11-1.14 exit 2 here, after printing "No changes", when a refreshed number
  // differs in its in-memory form from the state's (the provider sends numbers as strings).
  const refresh = await ws.run(['plan', '-refresh-only', '-detailed-exitcode'], [0, 2]);
  expect(refresh.stdout).toMatch(/No changes/);
  expect(refresh.code).toBe(0);
});

test('-refresh-only shows a label changed in the control panel, apply -refresh-only takes it into the state, and the account is not written', async () => {
  await ws.api.packages.setLabel(site()!.id, 'Renamed by support');

  // The drift job: a refresh-only plan reports the change made outside Terraform, and exits 2.
  expect(await planCode('-refresh-only')).toBe(2);
  const refreshPlan = await ws.run(['plan', '-refresh-only', '-out=refresh.plan']);
  expect(refreshPlan.stdout).toMatch(/Objects have changed outside of Terraform/);
  expect(refreshPlan.stdout).toMatch(/~ label\s+= "Shop" -> "Renamed by support"/);
  const shown = JSON.parse((await terraform(ws.tf, ['show', '-json', 'refresh.plan'], ws.dir, ws.env)).stdout);
  expect(shown.resource_drift.map((d: { address: string }) => d.address)).toEqual(['reseller_package.site']); // and nothing else
  expect(shown.resource_changes ?? []).toEqual([]);

  await ws.emu.control('DELETE', 'requests');
  await ws.run(['apply', '-refresh-only', '-auto-approve']);
  const requests = (await ws.emu.control('GET', 'requests')) as Array<{ method: string }>;
  expect(requests.filter((r) => r.method !== 'GET')).toEqual([]); // accepting drift writes nothing to the account
  expect(site()!.label).toBe('Renamed by support');
  expect(await planCode('-refresh-only')).toBe(0);

  // The configuration still says "Shop": a normal plan now shows the update that would undo the change...
  const plan = await savedPlan(ws.tf, ws.dir, ws.env);
  expect(plan.changes).toEqual({ 'reseller_package.site': ['update'] });
  expect(plan.showText).toMatch(/~ label\s+= "Renamed by support" -> "Shop"/);
  // ...and once the configuration takes the new label, there is nothing to do.
  ws.writeConfig(declared('Renamed by support'));
  expect(await planCode()).toBe(0);
});

test('a removed block with destroy = false lets go of the forwarder and leaves it in the account; an import block takes it back', async () => {
  const resources = declared('Renamed by support');
  const { sales } = resources.reseller_forwarder;
  delete resources.reseller_forwarder;
  ws.writeConfig(resources, { removed: [{ from: 'reseller_forwarder.sales', lifecycle: { destroy: false } }] });

  const letGo = await savedPlan(ws.tf, ws.dir, ws.env);
  expect(letGo.json.resource_changes.find((rc: { address: string }) => rc.address === 'reseller_forwarder.sales').change.actions).toEqual(['forget']);
  expect(letGo.planText).toMatch(/reseller_forwarder\.sales will no longer be managed by Terraform/);
  // The pull-request review says so, in its own category (nothing written, nothing deleted).
  expect(reviewPlan(letGo.json).items).toEqual([expect.objectContaining({ category: 'forgotten', kind: 'forwarder', key: `sales@${SITE}` })]);
  await ws.run(['apply', '-auto-approve']);
  expect(managedResourceCounts(ws.dir)).toEqual({ ...DECLARED_COUNTS, reseller_forwarder: undefined });
  expect(mailOf(ws.emu.account(), SITE).forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', 'team@example.org']]);
  expect(await planCode()).toBe(0);

  // Taken back under management by its natural key: an import and no change.
  ws.writeConfig({ ...resources, reseller_forwarder: { sales } }, { import: [{ to: 'reseller_forwarder.sales', id: `sales@${SITE}` }] });
  const adopt = await savedPlan(ws.tf, ws.dir, ws.env);
  expect(adopt.json.resource_changes.find((rc: { address: string }) => rc.address === 'reseller_forwarder.sales').change).toMatchObject({
    actions: ['no-op'], importing: { id: `sales@${SITE}` },
  });
  await ws.run(['apply', '-auto-approve']);
  expect(managedResourceCounts(ws.dir)).toEqual(DECLARED_COUNTS);
  ws.writeConfig({ ...resources, reseller_forwarder: { sales } });
  expect(await planCode()).toBe(0);
  expect(mailOf(ws.emu.account(), SITE).forwarders).toHaveLength(1);
});

test('a package type change plans the new type\'s id, and the apply reads back exactly that', async () => {
  const resources = declared('Renamed by support');
  resources.reseller_package.site.package_type = 'Linux Unlimited';
  ws.writeConfig(resources);
  const plan = await savedPlan(ws.tf, ws.dir, ws.env);
  expect(plan.changes).toEqual({ 'reseller_package.site': ['update'] });
  expect(plan.showText).toMatch(/~ package_type_id\s+= 812 -> 811/);
  await ws.run(['apply', '-auto-approve', 'p']); // Terraform fails an apply whose result differs from the plan
  expect(site()!.packageTypeName).toBe('Linux Unlimited');
  expect(await planCode()).toBe(0);
});

test('a plan that replaces the package warns that its mail, DNS records and MySQL databases go with it, naming the resource and the attribute', async () => {
  const resources = declared('Renamed by support');
  resources.reseller_package.site.package_type = 'Linux Unlimited';
  resources.reseller_package.site.domain_name = 'workflow-moved.com';
  ws.writeConfig(resources);
  const plan = await ws.run(['plan', '-detailed-exitcode'], [2]);
  const warning = (plan.stdout + plan.stderr).replace(/[│╷╵]/g, ' ').replace(/\s+/g, ' ');
  expect(warning).toMatch(/Warning: Replacing this package deletes its mail, DNS records and MySQL databases with reseller_package\.site, on main\.tf\.json line \d+, in resource\.reseller_package\.site: \d+: "domain_name"/);
  expect(warning).toMatch(/deletes its mail, DNS records and MySQL databases with it, for good\. Objects declared in it that this plan does not replace go too/);
  ws.writeConfig(declared('Renamed by support')); // nothing was applied
});

test('with replace_triggered_by on the package_id (as the constructs write it), replacing the package plans its mail, DNS records and MySQL databases replaced too', async () => {
  const resources = declared('Renamed by support');
  resources.reseller_package.site.package_type = 'Linux Unlimited'; // as the type test left it
  for (const type of ['reseller_mailbox', 'reseller_forwarder', 'reseller_dns_record']) {
    for (const body of Object.values(resources[type])) body.lifecycle = { replace_triggered_by: ['reseller_package.site.package_id'] };
  }
  ws.writeConfig(resources);
  expect(await planCode()).toBe(0); // nothing to replace while the package stays
  const plan = await savedPlan(ws.tf, ws.dir, { ...ws.env, TF_CLI_ARGS_plan: '-replace=reseller_package.site' });
  expect(plan.changes).toEqual({
    'reseller_package.site': ['delete', 'create'],
    'reseller_mailbox.info': ['delete', 'create'],
    'reseller_forwarder.sales': ['delete', 'create'],
    'reseller_dns_record.mx': ['delete', 'create'],
  });
  const summary = (address: string) => reviewPlan(plan.json).items.find((i) => i.address === address)?.summary;
  expect(summary('reseller_package.site')).toBe(`package ${SITE} is REPLACED: deleted with its mail, DNS records and MySQL databases, then created again (replacement was requested)`);
  expect(summary('reseller_mailbox.info')).toBe(`mailbox info@${SITE} is REPLACED: deleted with the mail stored in it, then created again (its package is replaced)`);
  ws.writeConfig(declared('Renamed by support')); // nothing was applied
});

test('adopting the whole account: import blocks with -generate-config-out write a configuration that plans no change, for every kind', async () => {
  const declaredNow = declared('Renamed by support');
  const addresses = Object.entries(declaredNow).flatMap(([type, byName]) => Object.keys(byName).map((name) => `${type}.${name}`));
  // A team adopting an account starts from an empty state: let go of everything, keeping it in the account.
  ws.writeConfig({}, { removed: addresses.map((from) => ({ from, lifecycle: { destroy: false } })) });
  await ws.run(['apply', '-auto-approve']);
  expect(managedResourceCounts(ws.dir)).toEqual({});

  const ids: Record<string, string> = {
    'reseller_stack_user.owner': 'workflow-owner@example.com',
    'reseller_cloud_server.web': 'web1.workflow-site.com',
    'reseller_package.site': SITE,
    'reseller_mailbox.info': `info@${SITE}`,
    'reseller_forwarder.sales': `sales@${SITE}`,
    'reseller_dns_record.mx': `${SITE}/@/MX/20 mail2.workflow-site.com`,
  };
  expect(Object.keys(ids).sort()).toEqual([...addresses].sort());
  ws.writeConfig({}, { import: Object.entries(ids).map(([to, id]) => ({ to, id })) });
  const generate = await ws.run(['plan', '-generate-config-out=generated.tf']);
  expect(generate.stdout).toMatch(/Plan: 6 to import, 0 to add, 0 to change, 0 to destroy/);
  // What the API cannot read back is left null (no password written, no creation-time choice assumed).
  const generated = readFileSync(join(ws.dir, 'generated.tf'), 'utf8');
  expect(generated).toMatch(/password_wo_version\s+= null/);
  expect(generated).toMatch(/branded\s+= null/);

  const adopted = await ws.run(['apply', '-auto-approve']);
  expect(adopted.stdout).toMatch(/Apply complete! Resources: 6 imported, 0 added, 0 changed, 0 destroyed/);
  expect(managedResourceCounts(ws.dir)).toEqual(DECLARED_COUNTS);
  expect(await planCode()).toBe(0);
  expect(await planCode('-refresh-only')).toBe(0);
});
