/**
 * Faults: REAL terraform (-parallelism=10) applies and destroys a stack of 60 objects
 * (10 packages, 20 mailboxes, 10 forwarders, 20 DNS records; passwords from sensitive variables) while
 * the emulator injects, from a fixed seed:
 *   - 429 with Retry-After: 1 on 10% of all requests,
 *   - 503 on 20% of reads,
 *   - dropAfterCommit (the write happens, the response is lost) on 10% of creates,
 *   - 200 ms latency on every request.
 * The apply converges (a second run is allowed only when the first named the failed
 * resources), the account then holds every declared object exactly once, and the
 * destroy (same faults, same allowance) leaves no managed object behind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import {
  controlOf, failedAddresses, faultRules, objectAddresses, requireTerraformAndBuild, runAllowingOneRetry, SiteDecl, synthStack, tail, terraform,
} from './support';

const SEED = Number(process.env.RELIABILITY_FAULT_SEED ?? 424242);
const LATENCY_MS = 200;

const FAULT_RULES = faultRules(LATENCY_MS);

const SITES: SiteDecl[] = Array.from({ length: 10 }, (_, i) => ({
  id: `site${i}`,
  domain: `fault-site-${i}.example`,
  mailboxes: [
    { id: `site${i}_info`, local: 'info', password: 'a' as const },
    { id: `site${i}_office`, local: 'office', password: 'b' as const },
  ],
  forwarders: [{ id: `site${i}_sales`, local: 'sales', remote: `sales-team-${i}@example.org` }],
  records: [
    { id: `site${i}_spf`, name: '@', type: 'TXT' as const, value: 'v=spf1 mx -all' },
    { id: `site${i}_mx`, name: '@', type: 'MX' as const, value: `mail.fault-site-${i}.example`, priority: 20 },
  ],
}));

let tf: string;
let emu: TestEmulator;
let stackDir: string;
let env: NodeJS.ProcessEnv;
const log: string[] = [];
const fired: Record<string, number> = {};

beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
  stackDir = synthStack(mkdtempSync(join(tmpdir(), 'reliability-faults-')), SITES);
  env = {
    RESELLER_API_URL: emu.url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: mkdtempSync(join(tmpdir(), 'reliability-faults-journal-')),
    RESELLER_POLL_INTERVAL: '100ms',
    RESELLER_CONFIRM_TIMEOUT: '5000ms',
    // A read fails with 429 or 503 three times in ten here, so the default 5 attempts run out on
    // about one read in 400: a destroy of this stack met one in about a third of runs, and its
    // re-run in a few per cent (once in CI, 2026-11-27). The suite proves that faults never
    // duplicate or lose an object, not the retry budget: 9 attempts, as provider-faults gives.
    RESELLER_MAX_RETRIES: '8',
    TF_VAR_password_a: 'Fault-Test-Passw0rd-A',
    TF_VAR_password_b: 'Fault-Test-Passw0rd-B',
  };
  const init = await terraform(tf, stackDir, ['init', '-input=false', '-no-color'], env);
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.stdout}\n${init.stderr}`);
}, 60_000);

afterAll(async () => {
  await emu?.stop();
  // One line per run: how long it took, what failed, how often each fault fired.
  process.stdout.write(`[reliability/faults] seed ${SEED}\n  ${log.join('\n  ')}\n  faults fired: ${JSON.stringify(fired)}\n`);
});

async function recordFired(phase: string) {
  const { rules } = await controlOf(emu.url).faults();
  const names = ['429', '503', 'drop', 'latency'];
  rules.forEach((r, i) => (fired[`${phase}:${names[i]}`] = r.fired));
}

test('apply -parallelism=10 of 60 objects under faults converges; every object exists exactly once', async () => {
  await controlOf(emu.url).setFaults(FAULT_RULES, SEED);
  await controlOf(emu.url).call('DELETE', 'requests');
  const runs = await runAllowingOneRetry(tf, stackDir, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], env, log);
  await recordFired('apply');
  // A run that failed named only real resources of this stack.
  const known = new Set(objectAddresses(SITES).flatMap((a) => [a, `${a}_settings`]));
  for (const run of runs.slice(0, -1)) for (const a of failedAddresses(run)) expect(known.has(a)).toBe(true);

  // Terraform agrees nothing is left to do (plan exit code 0 = no changes).
  const plan = await terraform(tf, stackDir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], env);
  expect({ code: plan.code, out: plan.code === 0 ? '' : tail(plan.stdout + plan.stderr) }).toEqual({ code: 0, out: '' });

  // The account: every declared object, exactly once, nothing else.
  const account = emu.account();
  const packageNames = account.packages.map((p) => p.name);
  expect(packageNames.length).toBe(new Set(packageNames).size); // no duplicate package
  expect([...packageNames].sort()).toEqual(SITES.map((s) => s.domain).sort());
  for (const site of SITES) {
    const pkg = account.packages.find((p) => p.name === site.domain)!;
    const mailboxes = pkg.mail.flatMap((d) => d.mailboxes.map((m) => m.address));
    const forwarders = pkg.mail.flatMap((d) => d.forwarders.map((f) => `${f.address}->${f.remote}`));
    expect(mailboxes.length).toBe(new Set(mailboxes).size); // no duplicate mailbox
    expect(forwarders.length).toBe(new Set(forwarders).size); // no duplicate forwarder
    expect([...mailboxes].sort()).toEqual(site.mailboxes.map((m) => `${m.local}@${site.domain}`).sort());
    expect(forwarders).toEqual(site.forwarders.map((f) => `${f.local}@${site.domain}->${f.remote}`));
    expect(pkg).toMatchObject({ label: `Site ${site.id}`, packageTypeName: 'Linux Unlimited', enabled: true });
    // Each declared DNS record exactly once (a dropped response of the zone's diff write was read back, not sent again).
    const records = pkg.dns.flatMap((z) => z.records.map((r) => `${r.type} ${r.host} ${r.pri ?? ''} ${r.txt ?? r.target ?? r.ip ?? ''}`));
    expect(records.filter((r) => r === `TXT ${site.domain}  v=spf1 mx -all`)).toHaveLength(1);
    expect(records.filter((r) => r === `MX ${site.domain} 20 mail.${site.domain}`)).toHaveLength(1);
  }
  // Nothing was created twice: exactly one accepted addWeb per package (a dropped response is
  // logged with the status it would have had), and no create was ever refused as a duplicate,
  // i.e. the handler never re-sent a write that had already happened.
  const requests = await controlOf(emu.url).requests();
  expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/addWeb') && r.status === 200)).toHaveLength(SITES.length);
  expect(requests.filter((r) => r.status === 409).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  // Both passwords reached their mailboxes (sha256 only in the dump).
  const hashes = new Set(account.packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes.map((m) => `${m.local}:${m.passwordSha256}`))));
  expect(hashes.size).toBe(2);
}, 170_000);

test('destroy under the same faults leaves no managed object behind', async () => {
  await controlOf(emu.url).setFaults(FAULT_RULES, SEED + 1);
  await runAllowingOneRetry(tf, stackDir, ['destroy', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], env, log);
  await recordFired('destroy');
  const list = await terraform(tf, stackDir, ['state', 'list', '-no-color'], env);
  expect(list.stdout.trim()).toBe('');
  const account = emu.account();
  expect(account.packages).toEqual([]);
  // The faults were really exercised (over apply and destroy together).
  for (const kind of ['429', '503', 'drop', 'latency']) {
    const total = (fired[`apply:${kind}`] ?? 0) + (fired[`destroy:${kind}`] ?? 0);
    expect(`${kind} fired ${total > 0 ? 'yes' : 'never'}`).toBe(`${kind} fired yes`);
  }
}, 120_000);
