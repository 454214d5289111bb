/**
 * Handler failure modes under REAL terraform: the API answers 400, 402, 409 or 500 on
 * specific paths in the middle of an apply (or a destroy). The handler exits 1 and
 * Terraform shows, for the failed resource, a message that names the object (its
 * construct path; for a delete, which only has the object's identity, its natural
 * key), the operation, the HTTP status and the API's own message. The next apply after
 * the cause is removed (faults cleared) converges: the account is exactly as declared.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultRule } from '../../src/emulator';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { controlOf, failedAddresses, requireTerraformAndBuild, SiteDecl, STACK_NAME, synthStack, tail, terraform, TfRun } from './support';

let tf: string;
let emu: TestEmulator;
let outdir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;
const sites: SiteDecl[] = [];

const site = (key: string, over: Partial<SiteDecl> = {}): SiteDecl => ({
  id: `site_${key}`,
  domain: `fail-${key}.example`,
  mailboxes: [{ id: `${key}_info`, local: 'info', password: 'a' }],
  forwarders: [{ id: `${key}_sales`, local: 'sales', remote: `desk-${key}@example.org` }],
  ...over,
});

async function apply(): Promise<TfRun> {
  stackDir = synthStack(outdir, sites);
  return terraform(tf, stackDir, ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], env);
}

/** Terraform's error block for one resource, whitespace collapsed (Terraform wraps long lines). */
function diagnosticFor(run: TfRun, address: string): string {
  const blocks = `${run.stdout}\n${run.stderr}`.split(/\n(?=Error: )/);
  const block = blocks.find((b) => b.includes(`with ${address},`));
  if (!block) throw new Error(`no error shown for ${address}:\n${tail(run.stdout + run.stderr)}`);
  return block.replace(/\s+/g, ' ');
}

/** The account holds exactly the declared (present) sites, their mail, nothing else. */
function expectAccountAsDeclared(): void {
  const account = emu.account();
  const present = sites.filter((s) => !s.absent);
  const declared = present.map((s) => ({
    name: s.domain,
    label: s.label ?? `Site ${s.id}`,
    mailboxes: s.mailboxes.map((m) => `${m.local}@${s.domain}`).sort(),
    forwarders: s.forwarders.map((f) => `${f.local}@${s.domain}->${f.remote}`).sort(),
  }));
  const live = account.packages.map((p) => ({
    name: p.name,
    label: p.label,
    mailboxes: p.mail.flatMap((d) => d.mailboxes.map((m) => m.address)).sort(),
    forwarders: p.mail.flatMap((d) => d.forwarders.map((f) => `${f.address}->${f.remote}`)).sort(),
  }));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  expect(live.sort(byName)).toEqual(declared.sort(byName));
}

/**
 * One failure mode: change the stack, inject `rules`, apply (must fail and explain
 * itself), clear the faults, apply again (must converge). Returns the failed run.
 */
async function failThenConverge(change: () => void, rules: FaultRule[]): Promise<TfRun> {
  change();
  await controlOf(emu.url).setFaults(rules);
  const failed = await apply();
  await controlOf(emu.url).clearFaults();
  const again = await apply();
  expect({ failedRunExit: failed.code, failedResources: failedAddresses(failed).length > 0 }).toEqual({ failedRunExit: 1, failedResources: true });
  expect({ convergedExit: again.code, out: again.code === 0 ? '' : tail(again.stdout + again.stderr) }).toEqual({ convergedExit: 0, out: '' });
  expectAccountAsDeclared();
  const plan = await terraform(tf, stackDir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], env);
  expect(plan.code).toBe(0); // nothing left to do
  return failed;
}

beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
  outdir = mkdtempSync(join(tmpdir(), 'reliability-failures-'));
  env = {
    RESELLER_API_URL: emu.url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: mkdtempSync(join(tmpdir(), 'reliability-failures-journal-')),
    RESELLER_POLL_INTERVAL: '100ms',
    RESELLER_CONFIRM_TIMEOUT: '1000ms',
    TF_VAR_password_a: 'Failure-Mode-Passw0rd',
    TF_VAR_password_b: 'Failure-Mode-Passw0rd-B',
  };
  sites.push(site('a'));
  stackDir = synthStack(outdir, sites);
  const init = await terraform(tf, stackDir, ['init', '-input=false', '-no-color'], env);
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.stdout}\n${init.stderr}`);
  const first = await apply();
  if (first.code !== 0) throw new Error(`first apply failed:\n${tail(first.stdout + first.stderr)}`);
  expectAccountAsDeclared();
}, 60_000);
afterAll(() => emu?.stop());

const path = (id: string) => `${STACK_NAME}/${id}`;

test('400 on creating a package: exit 1 naming the package, createPackage and the API message; then converges', async () => {
  const failed = await failThenConverge(() => sites.push(site('b')), [{ method: 'POST', path: '/addWeb$', status: 400 }]);
  const d = diagnosticFor(failed, 'terraform_data.site_b_settings');
  expect(d).toContain('exit status 1');
  expect(d).toContain(`ensure ${path('site_b')} (package)`);
  expect(d).toContain('createPackage POST /reseller/*/addWeb failed: 400 Bad Request: injected fault: status 400');
}, 90_000);

test('402 on creating mail: each mail object names itself, its operation and the API message; then converges', async () => {
  const failed = await failThenConverge(() => sites.push(site('c')), [{ method: 'POST', path: '/email/fail-c\\.example$', status: 402 }]);
  expect(failedAddresses(failed)).toEqual(['terraform_data.c_info_settings', 'terraform_data.c_sales_settings']); // the package itself was created
  expect(diagnosticFor(failed, 'terraform_data.c_info_settings')).toContain(
    `ensure ${path('c_info')} (mailbox): createMailbox POST /package/fail-c.example/email/fail-c.example failed: 402 Payment Required: injected fault: status 402`,
  );
  expect(diagnosticFor(failed, 'terraform_data.c_sales_settings')).toContain(
    `ensure ${path('c_sales')} (forwarder): createForwarder POST /package/fail-c.example/email/fail-c.example failed: 402 Payment Required: injected fault: status 402`,
  );
}, 90_000);

test('409 on creating mail: the error names the object, the operation AND the API message; then converges', async () => {
  const failed = await failThenConverge(() => sites.push(site('d')), [{ method: 'POST', path: '/email/fail-d\\.example$', status: 409 }]);
  for (const [address, id, what] of [['terraform_data.d_info_settings', 'd_info', 'create mailbox info@fail-d.example'], ['terraform_data.d_sales_settings', 'd_sales', 'create forwarder sales@fail-d.example']]) {
    const d = diagnosticFor(failed, address);
    expect(d).toContain('exit status 1');
    expect(d).toContain(`${path(id)}: ${what}`);
    // What the API said must reach the user: without it a 409 cannot be told from a bug.
    expect(d).toMatch(/409/);
    expect(d).toContain('injected fault: status 409');
  }
}, 90_000);

test('500 on creating mail (outcome unknown): the error names the object, the operation AND the API message; then converges', async () => {
  const failed = await failThenConverge(() => sites.push(site('e')), [{ method: 'POST', path: '/email/fail-e\\.example$', status: 500 }]);
  const d = diagnosticFor(failed, 'terraform_data.e_info_settings');
  expect(d).toContain(`${path('e_info')}: create mailbox info@fail-e.example`);
  expect(d).toMatch(/500/);
  expect(d).toContain('injected fault: status 500');
}, 90_000);

test('500 on a read: exit 1 naming the package, getPackage and the API message; then converges', async () => {
  const failed = await failThenConverge(() => sites.push(site('f')), [{ method: 'GET', path: '^/package/fail-f\\.example$', status: 500 }]);
  expect(diagnosticFor(failed, 'terraform_data.site_f_settings')).toContain(
    `ensure ${path('site_f')} (package): getPackage GET /package/fail-f.example failed: 500 Internal Server Error: injected fault: status 500`,
  );
}, 90_000);

test('400 on an in-place update: the settings resource names the package, setPackageLabel and the API message; then converges', async () => {
  const failed = await failThenConverge(() => (sites[0].label = 'Renamed A'), [{ method: 'POST', path: '/updatePackage$', status: 400 }]);
  expect(diagnosticFor(failed, 'terraform_data.site_a_settings')).toContain(
    `ensure ${path('site_a')} (package): setPackageLabel POST /reseller/*/updatePackage failed: 400 Bad Request: injected fault: status 400`,
  );
}, 90_000);

test('500 on a delete (absent: true): the error names the object, the operation AND the API message; then converges', async () => {
  const failed = await failThenConverge(() => (sites.find((s) => s.id === 'site_b')!.absent = true), [{ method: 'POST', path: '/deleteWeb$', status: 500 }]);
  const d = diagnosticFor(failed, 'terraform_data.site_b[0]'); // absent: count = 0
  expect(d).toContain('delete package fail-b.example');
  expect(d).toMatch(/500/);
  expect(d).toContain('injected fault: status 500');
}, 90_000);
