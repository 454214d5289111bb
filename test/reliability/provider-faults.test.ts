/**
 * Faults, native provider: REAL terraform (-parallelism=10) applies and destroys 75
 * objects (15 packages, each with a mailbox whose password is write-only, a forwarder
 * and two DNS records) while the emulator injects the faults of faults.test.ts from a fixed seed
 * (429 + Retry-After on 10% of requests, 503 on 20% of reads, 10% of creates committed
 * with their response lost, 200 ms latency). The apply converges within two runs (the
 * second only when the first named the failed resources); then every declared object
 * exists exactly once and a plan is clean; the destroy (same allowance) leaves nothing.
 */
import { controlOf, failedAddresses, FAULT_NAMES, faultRules, requireTerraformAndBuild, runAllowingOneRetry, terraform } from './support';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { APPLY, expectCleanPlan, expectExactlyDeclared, providerAddresses, providerEnv, providerStack, ProviderSite } from './provider-support';

/** How the provider names each object in a diagnostic: `package d`, `mailbox a@d`, `forwarder a@d`. */
const objectNames = (sites: ProviderSite[]) => sites.flatMap((s) => [
  `package ${s.domain}`, ...s.mailboxes.map((m) => `mailbox ${m.local}@${s.domain}`), ...s.forwarders.map((f) => `forwarder ${f.local}@${s.domain}`),
  ...(s.records ?? []).map((r) => `DNS record ${s.domain}/${r.owner === '@' ? s.domain : `${r.owner}.${s.domain}`}/${r.type}/${r.priority === undefined ? '' : `${r.priority} `}${r.value}`),
]);

const SEED = Number(process.env.RELIABILITY_FAULT_SEED ?? 424242);
const PASSWORD = 'Provider-Fault-Passw0rd';
const SITES: ProviderSite[] = Array.from({ length: 15 }, (_, i) => ({
  name: `site${i}`,
  domain: `provider-fault-${i}.example`,
  mailboxes: [{ name: `site${i}_info`, local: 'info' }],
  forwarders: [{ name: `site${i}_sales`, local: 'sales', remote: `sales-team-${i}@example.org` }],
  records: [
    { name: `site${i}_spf`, owner: '@', type: 'TXT', value: 'v=spf1 mx -all' },
    { name: `site${i}_mx`, owner: '@', type: 'MX', value: `mail.provider-fault-${i}.example`, priority: 20 },
  ],
}));

let tf: string;
let emu: TestEmulator;
let dir: string;
// A read fails with 429 or 503 three times in ten here, so the default 5 attempts run out on
// about one read in 400: with the DNS records' reads, one apply of this stack was likely to meet
// one. The suite proves that faults never duplicate or lose an object, not the retry budget,
// so it gives each request 9 attempts (the provider block's max_retries, from its environment).
const env = providerEnv(PASSWORD, { RESELLER_MAX_RETRIES: '8' });
const log: string[] = [];
const fired: Record<string, number> = {};

beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
  dir = await providerStack(tf, 'provider-faults', SITES, emu.url, env);
}, 60_000);

afterAll(async () => {
  await emu?.stop();
  process.stdout.write(`[reliability/provider-faults] seed ${SEED}\n  ${log.join('\n  ')}\n  faults fired: ${JSON.stringify(fired)}\n`);
});

async function recordFired(phase: string) {
  const { rules } = await controlOf(emu.url).faults();
  rules.forEach((r, i) => (fired[`${phase}:${FAULT_NAMES[i]}`] = r.fired));
}

test('apply -parallelism=10 of 75 objects under faults converges within two applies; every object exists exactly once', async () => {
  await controlOf(emu.url).setFaults(faultRules(200), SEED);
  await controlOf(emu.url).call('DELETE', 'requests');
  const runs = await runAllowingOneRetry(tf, dir, APPLY, env, log);
  await recordFired('apply');
  const known = new Set([...providerAddresses(SITES), ...objectNames(SITES)]);
  for (const run of runs.slice(0, -1)) for (const a of failedAddresses(run)) expect(known.has(a)).toBe(true);

  expectExactlyDeclared(emu.account(), SITES);
  // Nothing was created twice: one accepted addWeb per package (a dropped response is
  // logged with the status it would have had).
  const requests = await controlOf(emu.url).requests();
  expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/addWeb') && r.status === 200)).toHaveLength(SITES.length);
  // The password reached every mailbox (sha256 only in the dump).
  const hashes = new Set(emu.account().packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes.map((m) => m.passwordSha256))));
  expect(hashes.size).toBe(1);

  // Terraform agrees nothing is left to do, even with the faults still on.
  await expectCleanPlan(tf, dir, env);
}, 240_000);

test('destroy under the same faults leaves nothing', async () => {
  await controlOf(emu.url).setFaults(faultRules(200), SEED + 1);
  const runs = await runAllowingOneRetry(tf, dir, ['destroy', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], env, log);
  const known = new Set([...providerAddresses(SITES), ...objectNames(SITES)]);
  for (const run of runs.slice(0, -1)) for (const a of failedAddresses(run)) expect(known.has(a)).toBe(true);
  await recordFired('destroy');
  const list = await terraform(tf, dir, ['state', 'list', '-no-color'], env);
  expect(list.stdout.trim()).toBe('');
  expect(emu.account().packages).toEqual([]);
  for (const kind of FAULT_NAMES) {
    const total = (fired[`apply:${kind}`] ?? 0) + (fired[`destroy:${kind}`] ?? 0);
    expect(`${kind} fired ${total > 0 ? 'yes' : 'never'}`).toBe(`${kind} fired yes`);
  }
}, 180_000);

