/**
 * A provider apply killed in the middle. REAL terraform applies 12 packages, each with a
 * mailbox (write-only password) and a forwarder, and is killed with SIGKILL (its whole
 * process group, provider included, as a cancelled CI runner is) once the emulator has
 * acknowledged a seeded number of creates. Then `terraform apply` runs again, as a user
 * would, with nothing else: no drift --fix, no state surgery.
 *
 * At every kill point: the re-apply succeeds; every declared object exists exactly once
 * (the provider's Create adopts what the killed run had created but not recorded in
 * state); nothing was ever created twice (one accepted create per object); and a plan
 * is then clean.
 *
 * The kill points come from a fixed seed (RELIABILITY_KILL_SEED replays another run).
 * Where Terraform is at the kill differs from run to run; the assertions hold for every
 * interleaving, so the test does not depend on timing.
 */
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { controlOf, requireTerraformAndBuild, tail, terraform } from './support';
import { APPLY, expectCleanPlan, expectExactlyDeclared, missingObjects, providerEnv, providerStack, ProviderSite } from './provider-support';
import { applyAndKill, killPoints } from './kill-points';

const LATENCY_MS = Number(process.env.RELIABILITY_KILL_LATENCY_MS ?? 150);
const SEED = Number(process.env.RELIABILITY_KILL_SEED ?? 1717);
const PASSWORD = 'Provider-Kill-Passw0rd';
const SITES: ProviderSite[] = Array.from({ length: 12 }, (_, i) => ({
  name: `site${i}`,
  domain: `provider-kill-${i}.example`,
  mailboxes: [{ name: `site${i}_info`, local: 'info' }],
  forwarders: [{ name: `site${i}_sales`, local: 'sales', remote: `sales-${i}@example.org` }],
}));
/** Creates the full apply makes: one per package, mailbox and forwarder. */
const TOTAL_CREATES = SITES.length * 3;

let tf: string;
let emu: TestEmulator;
const log: string[] = [];

beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
}, 60_000);

afterAll(async () => {
  await emu?.stop();
  process.stdout.write(`[reliability/provider-killed-apply] seed ${SEED}\n  ${log.join('\n  ')}\n`);
});

const POINTS = killPoints(SEED, TOTAL_CREATES);

test.each(POINTS.map((p, i) => [i + 1, p.afterCreates] as const))(
  'kill point %i (after %i acknowledged creates): one more apply leaves every object exactly once, and the plan clean',
  async (point, afterCreates) => {
    await emu.control('POST', 'reset', {});
    await controlOf(emu.url).call('DELETE', 'requests');
    const env = providerEnv(PASSWORD);
    const dir = await providerStack(tf, `provider-kill-${point}`, SITES, emu.url, env);

    // Slow requests, so that the kill lands with creates in flight.
    await controlOf(emu.url).setFaults([{ path: '.', latencyMs: LATENCY_MS }]);
    const kill = await applyAndKill(tf, APPLY, dir, env, emu.url, afterCreates);
    // Clearing the latency fault also performs the writes it still held from the killed run,
    // as a real server finishes them long before the next CI run (without it a slow
    // machine could re-apply first and meet a late create's 409).
    await controlOf(emu.url).clearFaults();
    const missingAtKill = missingObjects(emu.account(), SITES);
    log.push(`point ${point}: killed after ${kill.killedAt} acknowledged creates${kill.exitedBeforeKill ? ' (apply had already finished)' : ''}; ` +
      `${missingAtKill.length} of ${TOTAL_CREATES} objects missing`);

    const reapply = await terraform(tf, dir, APPLY, env);
    expect({ code: reapply.code, out: reapply.code === 0 ? '' : tail(reapply.stdout + reapply.stderr) }).toEqual({ code: 0, out: '' });
    log.push(`  re-apply exit 0 in ${reapply.ms} ms`);
    expectExactlyDeclared(emu.account(), SITES);

    // Nothing was ever created twice: one accepted addWeb per package over both applies,
    // and no create refused as a duplicate (a create the kill cut off was committed or
    // not; either way the re-apply looked first and found or made it).
    const requests = await controlOf(emu.url).requests();
    expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/addWeb') && r.status === 200)).toHaveLength(SITES.length);
    expect(requests.filter((r) => r.status === 409).map((r) => `${r.method} ${r.path}`)).toEqual([]);

    await expectCleanPlan(tf, dir, env);
  },
  180_000,
);
