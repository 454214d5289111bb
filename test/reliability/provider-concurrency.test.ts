/**
 * Concurrency, native provider: two stacks (two directories, two state files) declare
 * the same packages, mailboxes and forwarders, and REAL terraform applies both at the
 * same time. Every request waits 150 ms in the emulator, so the two providers' look-ups
 * and creates of one object are in flight together. Whichever create the API accepts
 * first, the other stack adopts that object (a duplicate create is refused with 409 and
 * answered by reading back): each object exists once, both states hold the same object
 * (same ids), and both plans are then clean.
 */
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { controlOf, requireTerraformAndBuild, tail, terraform } from './support';
import { APPLY, expectCleanPlan, expectExactlyDeclared, providerEnv, providerStack, ProviderSite } from './provider-support';

const SITES: ProviderSite[] = Array.from({ length: 4 }, (_, i) => ({
  name: `site${i}`,
  domain: `shared-${i}.example`,
  mailboxes: [{ name: `site${i}_info`, local: 'info' }],
  forwarders: [{ name: `site${i}_sales`, local: 'sales', remote: `sales-${i}@example.org` }],
}));

let tf: string;
let emu: TestEmulator;
beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
}, 60_000);
afterAll(() => emu?.stop());


/** Ids of each object in a stack's state, by address. */
async function stateIds(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const show = await terraform(tf, dir, ['show', '-json', '-no-color'], env);
  const resources = JSON.parse(show.stdout).values.root_module.resources as Array<{ address: string; values: Record<string, unknown> }>;
  return Object.fromEntries(resources.map((r) => [r.address, r.values.package_id ?? r.values.mailbox_id ?? r.values.forwarder_ids]));
}

test('two stacks applying the same objects at once: each object exists once, and both stacks hold it', async () => {
  const env = providerEnv('Shared-Passw0rd-Both');
  const [a, b] = [await providerStack(tf, 'provider-concurrent-a', SITES, emu.url, env), await providerStack(tf, 'provider-concurrent-b', SITES, emu.url, env)];
  await controlOf(emu.url).setFaults([{ path: '.', latencyMs: 150 }]);
  await controlOf(emu.url).call('DELETE', 'requests');
  const [ra, rb] = await Promise.all([terraform(tf, a, APPLY, env), terraform(tf, b, APPLY, env)]);
  await controlOf(emu.url).clearFaults();
  expect({ code: ra.code, out: ra.code === 0 ? '' : tail(ra.stdout + ra.stderr) }).toEqual({ code: 0, out: '' });
  expect({ code: rb.code, out: rb.code === 0 ? '' : tail(rb.stdout + rb.stderr) }).toEqual({ code: 0, out: '' });

  expectExactlyDeclared(emu.account(), SITES);
  const requests = await controlOf(emu.url).requests();
  // Each stack created (or adopted) every one of its resources.
  for (const run of [ra, rb]) expect(run.stdout).toMatch(new RegExp(`Apply complete! Resources: ${SITES.length * 3} added, 0 changed, 0 destroyed`));
  // One create per package was accepted; any other was refused (409), never performed twice.
  expect(requests.filter((r) => r.path.endsWith('/addWeb') && r.status === 200)).toHaveLength(SITES.length);
  expect(requests.filter((r) => r.method === 'POST').every((r) => r.status === 200 || r.status === 409)).toBe(true);

  const refused = requests.filter((r) => r.status === 409).length;
  process.stdout.write(`[reliability/provider-concurrency] ${requests.length} requests, ${refused} duplicate creates refused and adopted\n`);
  // Both states hold the very same objects.
  const [idsA, idsB] = [await stateIds(a, env), await stateIds(b, env)];
  expect(Object.keys(idsA)).toHaveLength(SITES.length * 3);
  expect(idsB).toEqual(idsA);
  await expectCleanPlan(tf, a, env);
  await expectCleanPlan(tf, b, env);
}, 120_000);
