import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ResellerClient } from '../../src/client';
import { compare } from '../../src/drift/compare';
import type { DesiredObject } from '../../src/drift/desired';
import { readProviderObjects } from '../../src/drift/provider-stack';
import {
  AnyKindDefinition, attributesOfSpec, DEFINITIONS, definitionOf, Kind, ObjectSpec,
} from '../../src/protocol';
import { createContext, diff, ensure, list, observe, ReconcileContext, remove } from '../../src/reconcile';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';
import { synth } from '../constructs/util';
import { App, TerraformStack } from 'cdktf';
import { ResellerHosting } from '../../src';
import { requireBuiltHandler } from '../helpers/emulator';
import { FIXTURES, PASSWORD } from './fixtures';

/**
 * The kind contract (DESIGN §6), part 2: the same checks for every definition, each
 * against the emulator over HTTP, through the core, the constructs, drift and the
 * native provider under real Terraform (one stack for every kind). Each check is named
 * after the piece of a kind it proves, so a missing piece fails by name.
 */

let emu: TestEmulator;
let api: ResellerClient;
const kinds = DEFINITIONS.map((d) => d.kind);
const each = test.each(kinds.map((k) => [k]));

const checked = (kind: Kind): ObjectSpec => {
  const result = definitionOf(kind).check(FIXTURES[kind].spec as never);
  if (result.problems.length) throw new Error(`${kind}: fixture is invalid: ${result.problems.map((p) => p.message).join('; ')}`);
  return result.spec;
};
const changed = (kind: Kind): ObjectSpec => checked(kind) && definitionOf(kind).check({ ...FIXTURES[kind].spec, ...FIXTURES[kind].change } as never).spec;
const context = (): ReconcileContext => createContext({
  client: api, secret: PASSWORD, history: {}, timing: { pollIntervalMs: 50, confirmTimeoutMs: 5_000, progressIntervalMs: 60_000 },
});
const desiredOf = (spec: ObjectSpec): DesiredObject => ({
  stack: 'contract', address: `${definitionOf(spec.kind).resourceType}.contract`, resourceType: definitionOf(spec.kind).resourceType, logicalId: 'contract',
  path: spec.path, absent: false, identity: definitionOf(spec.kind).identity(spec as never), kind: spec.kind, spec, unknownSpec: false,
});

beforeAll(async () => {
  emu = await startTestEmulator({ provisionDelayMs: 50 });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

describe('core: ensure -> observe -> empty diff -> listed -> change in place -> drift -> remove (parents first)', () => {
  each('%s: ensure creates it, observe reads it back, diff is empty, list contains it', async (kind) => {
    const ctx = context();
    const spec = checked(kind);
    const live = await ensure(ctx, spec);
    expect(live.identity.key).toBe(definitionOf(kind).identity(spec as never).key);
    const observed = await observe(context(), live.identity);
    expect(observed).toBeDefined();
    expect(await diff(context(), spec, observed!)).toEqual([]);
    const listed = await list(context(), kind);
    expect(listed.map((o) => o.identity.key)).toContain(live.identity.key);
    expect(listed.find((o) => o.identity.key === live.identity.key)!.liveId).toBe(observed!.liveId);
  });

  each('%s: an in-place change is made and then in sync', async (kind) => {
    if (!FIXTURES[kind].change) {
      // Only a kind whose settings the API cannot change may go without one.
      expect(definitionOf(kind).fields.filter((f) => f.role === 'setting' && !f.fixedAfterCreate && !f.carrierOnly && f.readable)).toEqual([]);
      return;
    }
    const spec = changed(kind);
    await ensure(context(), spec);
    const observed = await observe(context(), definitionOf(kind).identity(spec as never));
    expect(await diff(context(), spec, observed!)).toEqual([]);
    await ensure(context(), checked(kind)); // back to the fixture
  });

  each('%s: drift is in sync, then changed after an out-of-band write', async (kind) => {
    const spec = checked(kind);
    const first = await compare(createContext({ client: api, oneReadPerList: true }), [desiredOf(spec)]);
    expect(first.objects[0].report).toMatchObject({ status: 'in-sync', diffs: [] });
    const outOfBand = FIXTURES[kind].outOfBand;
    if (!outOfBand) {
      expect(definitionOf(kind).fields.filter((f) => f.role === 'setting' && !f.fixedAfterCreate && !f.carrierOnly && f.readable)).toEqual([]);
      return;
    }
    await outOfBand(api, first.objects[0].report.liveId!);
    const second = await compare(createContext({ client: api, oneReadPerList: true }), [desiredOf(spec)]);
    expect(second.objects[0].report.status).toBe(FIXTURES[kind].outOfBandShows ?? 'changed');
    await ensure(context(), spec);
  });

  each('%s: a kind the API replaces in one write is replaced by one POST, never absent', async (kind) => {
    const replacement = FIXTURES[kind].replacement;
    if (!definitionOf(kind).lifecycle?.replacesInOneWrite) {
      expect(replacement).toBeUndefined();
      return;
    }
    const before = checked(kind);
    const after = definitionOf(kind).check({ ...FIXTURES[kind].spec, ...replacement } as never).spec;
    await emu.control('DELETE', 'requests');
    await ensure(context(), after, { replacing: definitionOf(kind).identity(before as never) });
    const writes = ((await emu.control('GET', 'requests')) as Array<{ method: string }>).filter((r) => r.method === 'POST');
    expect(writes).toHaveLength(1);
    expect(await observe(context(), definitionOf(kind).identity(before as never))).toBeUndefined();
    expect(await observe(context(), definitionOf(kind).identity(after as never))).toBeDefined();
    await ensure(context(), before, { replacing: definitionOf(kind).identity(after as never) }); // back to the fixture
  });

  test('remove: children first; what the API cannot delete is retained (and still listed)', async () => {
    for (const kind of [...kinds].reverse()) {
      const identity = definitionOf(kind).identity(checked(kind) as never);
      await remove(context(), identity);
      const after = await observe(context(), identity);
      if (definitionOf(kind).lifecycle?.cannotDelete) expect(after).toBeDefined();
      else expect(after).toBeUndefined();
    }
  });
});

describe('constructs: the attributes a construct synthesizes decode back to its spec', () => {
  each('%s', (kind) => {
    const def = definitionOf(kind);
    const { json } = synth((stack) => FIXTURES[kind].declare(stack), true, 'provider');
    const objects = readProviderObjects('contract', json.resource, json.data).filter((o) => o.kind === kind);
    expect(objects).toHaveLength(1);
    expect(objects[0].specError).toBeUndefined();
    const attributes = (spec: ObjectSpec) => attributesOfSpec(def, { ...spec, path: '' } as never);
    expect(attributes(objects[0].spec!)).toEqual(attributes(checked(kind)));
  });
});

describe('provider: plan, apply, read, import under real Terraform, one stack for every kind', () => {
  let tf: string;
  let dir: string;
  const env = { RESELLER_API_KEY: API_KEY, TF_VAR_password: PASSWORD, RESELLER_POLL_INTERVAL_MS: '50' };
  /** `terraform <command> -input=false -no-color <positional...>`. */
  const run = (command: string[], codes = [0], positional: string[] = []) => terraform(tf, [...command, '-input=false', '-no-color', ...positional], dir, env, codes);
  const name = (def: AnyKindDefinition) => def.kind.replace(/-/g, '_');

  beforeAll(async () => {
    tf = requireTerraform();
    const installer = builtProviderInstaller();
    dir = tempDir('kinds-provider');
    installer.installProvider(join(dir, 'terraform.d', 'plugins'));
    const resource: Record<string, Record<string, unknown>> = {};
    for (const def of DEFINITIONS) {
      const body: Record<string, unknown> = { ...attributesOfSpec(def, checked(def.kind)) };
      const secret = def.fields.find((f) => f.role === 'write-only');
      if (secret) body[secret.attribute] = '${var.password}';
      // Parents first: the parent's resource of this stack, when the kind has one.
      if (def.parent) body.depends_on = [`${definitionOf(def.parent.kind as Kind).resourceType}.${name(definitionOf(def.parent.kind as Kind))}`];
      resource[def.resourceType] = { [name(def)]: body };
    }
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
      terraform: { required_providers: { reseller: { source: installer.PROVIDER_SOURCE } } },
      variable: { password: { type: 'string', sensitive: true, ephemeral: true } },
      provider: { reseller: { api_url: emu.url } },
      resource,
    }, null, 2));
    await run(['init']);
  }, E2E_TIMEOUT_MS);

  test('apply creates (or adopts) every kind; the second plan is clean', async () => {
    const apply = await run(['apply', '-auto-approve']);
    expect(apply.stdout).toMatch(/Apply complete!/);
    for (const def of DEFINITIONS) {
      expect(await observe(context(), def.identity(checked(def.kind) as never))).toBeDefined();
    }
    const plan = await run(['plan', '-detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
  }, E2E_TIMEOUT_MS);

  test('read: a change outside Terraform shows in the plan of the kinds that can change', async () => {
    const ctx = context();
    const drifted: string[] = [];
    for (const def of DEFINITIONS) {
      const outOfBand = FIXTURES[def.kind].outOfBand;
      if (!outOfBand) continue;
      const live = await observe(ctx, def.identity(checked(def.kind) as never));
      await outOfBand(api, live!.liveId);
      const shows = FIXTURES[def.kind].outOfBandShows === 'missing' ? 'will be created' : 'will be updated in-place';
      drifted.push(`${def.resourceType}.${name(def)} ${shows}`);
    }
    const plan = await run(['plan', '-detailed-exitcode'], [2]);
    for (const line of drifted) expect(plan.stdout).toContain(line);
    await run(['apply', '-auto-approve']);
    expect((await run(['plan', '-detailed-exitcode'])).stdout).toContain('No changes.');
  }, E2E_TIMEOUT_MS);

  each('import: %s by its import id finds the object, and the next plan neither creates nor replaces it', async (kind) => {
    const def = definitionOf(kind);
    const address = `${def.resourceType}.${name(def)}`;
    await terraform(tf, ['state', 'rm', '-no-color', address], dir, env);
    const imported = await run(['import'], [0], [address, FIXTURES[kind].importId]);
    expect(imported.stdout).toContain('Import successful!');
    const plan = await run(['plan'], [0]);
    expect(plan.stdout).not.toMatch(/will be created|must be replaced|will be destroyed/);
  }, E2E_TIMEOUT_MS);
});

describe('carriers: terraform_data under real Terraform, one stack per kind (parents first), each construct as its fixture declares it', () => {
  let tf: string;
  let root: string;
  const env = () => ({ RESELLER_API_URL: emu.url, RESELLER_API_KEY: API_KEY, TF_VAR_password: PASSWORD, RESELLER_POLL_INTERVAL_MS: '50', RESELLER_HANDLER_STATE_DIR: join(root, 'journal') });
  const stackDir = (kind: Kind) => join(root, kind, 'stacks', kind);
  const run = (kind: Kind, command: string[], codes = [0]) => terraform(tf, [...command, '-input=false', '-no-color'], stackDir(kind), env(), codes);

  beforeAll(async () => {
    tf = requireTerraform();
    requireBuiltHandler();
    root = tempDir('kinds-carriers');
    // The provider's run above left every object in place: remove them (children first) so that the carriers create them.
    for (const kind of [...kinds].reverse()) await remove(context(), definitionOf(kind).identity(checked(kind) as never));
  }, E2E_TIMEOUT_MS);

  test('apply creates every kind (parents first); the core reads each back with no difference; the next plan is empty', async () => {
    for (const kind of kinds) {
      const app = new App({ outdir: join(root, kind) });
      const stack = new TerraformStack(app, kind);
      new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
      FIXTURES[kind].declare(stack);
      app.synth();
      await run(kind, ['init']);
      const apply = await run(kind, ['apply', '-auto-approve']);
      expect(apply.stdout).toMatch(/Apply complete!/);
      const live = await observe(context(), definitionOf(kind).identity(checked(kind) as never));
      expect({ kind, found: live !== undefined }).toEqual({ kind, found: true });
      expect({ kind, diffs: await diff(context(), checked(kind), live!) }).toEqual({ kind, diffs: [] });
      expect((await run(kind, ['plan', '-detailed-exitcode'])).stdout).toContain('No changes.');
    }
  }, E2E_TIMEOUT_MS * 2);

  test('destroy (children first) deletes each object; what the API cannot delete is retained', async () => {
    for (const kind of [...kinds].reverse()) {
      await run(kind, ['destroy', '-auto-approve']);
      const after = await observe(context(), definitionOf(kind).identity(checked(kind) as never));
      expect({ kind, retained: after !== undefined }).toEqual({ kind, retained: Boolean(definitionOf(kind).lifecycle?.cannotDelete) });
    }
  }, E2E_TIMEOUT_MS * 2);
});
