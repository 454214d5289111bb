// The test-only kind (test/kinds/locker) registers first, as a real kind is, so every check below runs it too.
import './locker/register';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { ResellerHosting } from '../../src';
import { ResellerClient } from '../../src/client';
import { compare } from '../../src/stacks/compare';
import type { DesiredObject } from '../../src/stacks/desired';
import { readProviderObjects } from '../../src/stacks/provider-stack';
import {
  AnyKindDefinition, attributesOfSpec, DEFINITIONS, definitionOf, Kind, ObjectSpec,
} from '../../src/protocol';
import { createContext, diff, ensure, list, observe, ReconcileContext, remove } from '../../src/reconcile';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, stackEnv, tempDir, terraform } from '../e2e/support';
import { synth } from '../constructs/util';
import { FIXTURES, KindFixture, PASSWORD } from './fixtures';
import { testKindBundles } from './locker/bundles';
import { LOCKER_FIXTURE } from './locker/fixture';
import { TEST_KIND } from './locker/register';

/**
 * The kind contract (DESIGN §6), part 2: the same checks for every definition, each
 * against the emulator over HTTP, through the core, the constructs, drift, the native
 * provider and the terraform_data carriers under real Terraform (one stack for every
 * kind, per engine). Each check is named
 * after the piece of a kind it proves, so a missing piece fails by name. The kinds are
 * those of the library plus the test-only kind of test/kinds/locker, registered the
 * way a real kind is; the provider runs from a bundle of the same sources with it
 * registered (test/kinds/locker/bundles.ts), and so do the terraform_data carriers'
 * provisioners (its handler).
 */

/** Every kind's fixture: the library's, and the test-only kind's. */
const ALL_FIXTURES: Readonly<Record<string, KindFixture<any>>> = { ...FIXTURES, [TEST_KIND]: LOCKER_FIXTURE }; // eslint-disable-line @typescript-eslint/no-explicit-any

let emu: TestEmulator;
let api: ResellerClient;
const kinds = DEFINITIONS.map((d) => d.kind);
const each = test.each(kinds.map((k) => [k]));

const checked = (kind: Kind): ObjectSpec => {
  const result = definitionOf(kind).check(ALL_FIXTURES[kind].spec as never);
  if (result.problems.length) throw new Error(`${kind}: fixture is invalid: ${result.problems.map((p) => p.message).join('; ')}`);
  return result.spec;
};
const changed = (kind: Kind): ObjectSpec => checked(kind) && definitionOf(kind).check({ ...ALL_FIXTURES[kind].spec, ...ALL_FIXTURES[kind].change } as never).spec;
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
    if (!ALL_FIXTURES[kind].change) {
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
    const outOfBand = ALL_FIXTURES[kind].outOfBand;
    if (!outOfBand) {
      expect(definitionOf(kind).fields.filter((f) => f.role === 'setting' && !f.fixedAfterCreate && !f.carrierOnly && f.readable)).toEqual([]);
      return;
    }
    await outOfBand(api, first.objects[0].report.liveId!);
    const second = await compare(createContext({ client: api, oneReadPerList: true }), [desiredOf(spec)]);
    expect(second.objects[0].report.status).toBe(ALL_FIXTURES[kind].outOfBandShows ?? 'changed');
    await ensure(context(), spec);
  });

  each('%s: a kind the API replaces in one write is replaced by one POST, never absent', async (kind) => {
    const replacement = ALL_FIXTURES[kind].replacement;
    if (!definitionOf(kind).lifecycle?.replacesInOneWrite) {
      expect(replacement).toBeUndefined();
      return;
    }
    const before = checked(kind);
    const after = definitionOf(kind).check({ ...ALL_FIXTURES[kind].spec, ...replacement } as never).spec;
    await emu.control('DELETE', 'requests');
    await ensure(context(), after, { replacing: definitionOf(kind).identity(before as never) });
    const writes = ((await emu.control('GET', 'requests')) as Array<{ method: string }>).filter((r) => r.method === 'POST');
    expect(writes).toHaveLength(1);
    expect(await observe(context(), definitionOf(kind).identity(before as never))).toBeUndefined();
    expect(await observe(context(), definitionOf(kind).identity(after as never))).toBeDefined();
    await ensure(context(), before, { replacing: definitionOf(kind).identity(after as never) }); // back to the fixture
  });

  test('remove: children first; what the API cannot delete is retained, what a delete forgets stays (both still listed); settings go back to their defaults', async () => {
    for (const kind of [...kinds].reverse()) {
      const identity = definitionOf(kind).identity(checked(kind) as never);
      await remove(context(), identity);
      const after = await observe(context(), identity);
      const life = definitionOf(kind).lifecycle;
      // What the API cannot delete is retained; what a delete only forgets stays as it is.
      if (life?.cannotDelete || life?.deleteForgets) expect(after).toBeDefined();
      else if (life?.restoresDefaults) {
        // Settings that last as long as their parent: still there, and no longer as declared.
        expect(after).toBeDefined();
        expect(await diff(context(), checked(kind), after!)).not.toEqual([]);
      } else expect(after).toBeUndefined();
    }
  });
});

describe('constructs: the attributes a construct synthesizes decode back to its spec', () => {
  each('%s', (kind) => {
    const def = definitionOf(kind);
    const { json } = synth((stack) => ALL_FIXTURES[kind].declare(stack), true, 'provider');
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
  const env = { RESELLER_API_KEY: API_KEY, TF_VAR_password: PASSWORD, RESELLER_POLL_INTERVAL: '50ms' };
  /** `terraform <command> -input=false -no-color <positional...>`. */
  const run = (command: string[], codes = [0], positional: string[] = []) => terraform(tf, [...command, '-input=false', '-no-color', ...positional], dir, env, codes);
  const name = (def: AnyKindDefinition) => def.kind.replace(/-/g, '_');

  beforeAll(async () => {
    tf = requireTerraform();
    const installer = builtProviderInstaller();
    dir = tempDir('kinds-provider');
    // The provider's code with the test-only kind registered (the shipped bundle cannot know it).
    installer.installProvider(join(dir, 'terraform.d', 'plugins'), undefined, { bundle: testKindBundles().providerBundle, cache: join(dir, 'no-cache') });
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
      const outOfBand = ALL_FIXTURES[def.kind].outOfBand;
      if (!outOfBand) continue;
      const live = await observe(ctx, def.identity(checked(def.kind) as never));
      await outOfBand(api, live!.liveId);
      const shows = ALL_FIXTURES[def.kind].outOfBandShows === 'missing' ? 'will be created' : 'will be updated in-place';
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
    const imported = await run(['import'], [0], [address, ALL_FIXTURES[kind].importId]);
    expect(imported.stdout).toContain('Import successful!');
    const plan = await run(['plan'], [0]);
    expect(plan.stdout).not.toMatch(/will be created|must be replaced|will be destroyed/);
  }, E2E_TIMEOUT_MS);
});

describe('terraform_data: the constructs carried by provisioners under real Terraform, one stack for every kind', () => {
  let tf: string;
  let dir: string;
  let stackDir: string;
  let env: NodeJS.ProcessEnv;
  let addresses: string[];
  const run = (command: string[], codes = [0]) => terraform(tf, [...command, '-input=false', '-no-color'], stackDir, env, codes);
  /** A kind's carriers (an object and a settings resource): the fixtures refer to their parents by name, so Terraform cannot order the kinds. */
  const targetsOf = (kind: Kind) => addresses.filter((a) => a.startsWith(`terraform_data.${kind.replace(/-/g, '_')}_`)).map((a) => `-target=${a}`);

  beforeAll(async () => {
    tf = requireTerraform();
    dir = tempDir('kinds-carriers');
    const app = new App({ outdir: join(dir, 'out') });
    const stack = new TerraformStack(app, 'contract');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
    // Each kind in its own scope: the fixtures name their references alike.
    for (const kind of kinds) ALL_FIXTURES[kind].declare(new Construct(stack, kind.replace(/-/g, '_')) as TerraformStack);
    app.synth();
    stackDir = join(dir, 'out', 'stacks', 'contract');
    const synthesized = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'));
    // The provisioners run the handler with the test-only kind registered (the shipped one cannot know it).
    for (const body of Object.values<any>(synthesized.resource.terraform_data)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const p of body.provisioner ?? []) p['local-exec'].interpreter = ['node', testKindBundles().handlerScript, 'handler'];
    }
    writeFileSync(join(stackDir, 'cdk.tf.json'), JSON.stringify(synthesized, null, 2));
    addresses = Object.keys(synthesized.resource.terraform_data).map((name) => `terraform_data.${name}`);
    const variables = Object.keys(synthesized.variable ?? {});
    env = stackEnv({
      url: emu.url, apiKey: API_KEY, journalDir: join(dir, 'journal'),
      extra: Object.fromEntries(variables.filter((v) => v.includes('password')).map((v) => [`TF_VAR_${v}`, PASSWORD])),
    });
    await run(['init']);
  }, E2E_TIMEOUT_MS);

  test('apply, parents first, ensures every kind as declared; the second plan is clean', async () => {
    for (const kind of kinds) {
      expect([kind, targetsOf(kind).length]).toEqual([kind, 2]);
      expect((await run(['apply', '-auto-approve', ...targetsOf(kind)])).stdout).toMatch(/Apply complete!/);
    }
    for (const def of DEFINITIONS) {
      const observed = await observe(context(), def.identity(checked(def.kind) as never));
      expect([def.kind, observed !== undefined]).toEqual([def.kind, true]);
      expect([def.kind, await diff(context(), checked(def.kind), observed!)]).toEqual([def.kind, []]);
    }
    expect((await run(['plan', '-detailed-exitcode'])).stdout).toContain('No changes.');
  }, E2E_TIMEOUT_MS);

  test('destroy, children first: what the API cannot delete is retained, what a delete forgets stays as it is, the rest is gone', async () => {
    for (const kind of [...kinds].reverse()) await run(['destroy', '-auto-approve', ...targetsOf(kind)]);
    expect((await terraform(tf, ['state', 'list'], stackDir, env)).stdout.trim()).toBe('');
    for (const def of DEFINITIONS) {
      const after = await observe(context(), def.identity(checked(def.kind) as never));
      const stays = Boolean(def.lifecycle?.cannotDelete || def.lifecycle?.deleteForgets);
      expect([def.kind, after !== undefined]).toEqual([def.kind, stays]);
    }
  }, E2E_TIMEOUT_MS);
});
