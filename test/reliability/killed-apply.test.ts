/**
 * A carriers apply killed mid-provisioner (issue 17). REAL terraform applies 12
 * packages with a forwarder each and is killed with SIGKILL (its whole process group,
 * as a cancelled CI runner is) once the emulator has acknowledged a seeded number of
 * writes. Then comes what the README's CI recipe runs: `terraform apply` again,
 * `reseller-hosting drift --fix --detailed-exitcode` after it (whether it passed or
 * failed), and one more apply.
 *
 * What a user can rely on, asserted at every kill point:
 * - the re-apply either succeeds or names the resources it could not finish and says
 *   to run `drift --fix`;
 * - whatever the re-apply left missing, `drift` reports it (exit 2, the object named);
 * - after `drift --fix` every declared object exists exactly once, with the declared
 *   settings; the last apply succeeds, and then `drift` and `terraform plan` are clean;
 * - nothing was ever created twice (no duplicate, no 409 from a repeated create).
 *
 * The kill points come from a fixed seed (RELIABILITY_KILL_SEED replays another run).
 * Where Terraform happens to be at the kill differs from run to run; the assertions
 * hold for every interleaving, so the test does not depend on timing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { applyAndKill, killPoints } from './kill-points';
import { controlOf, requireTerraformAndBuild, SiteDecl, synthStack, tail, terraform, TfRun } from './support';

const APPLY = ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'];
const LATENCY_MS = Number(process.env.RELIABILITY_KILL_LATENCY_MS ?? 400);
const SEED = Number(process.env.RELIABILITY_KILL_SEED ?? 1717);
const SITES: SiteDecl[] = Array.from({ length: 12 }, (_, i) => ({
  id: `site${i}`,
  domain: `kill-site-${i}.example`,
  mailboxes: [],
  forwarders: [{ id: `site${i}_sales`, local: 'sales', remote: `sales-${i}@example.org` }],
}));
/** Writes the full apply makes: one create per package and per forwarder. */
const TOTAL_CREATES = SITES.length * 2;

let tf: string;
let emu: TestEmulator;
const log: string[] = [];

beforeAll(async () => {
  tf = requireTerraformAndBuild();
  emu = await startTestEmulator();
}, 60_000);

afterAll(async () => {
  await emu?.stop();
  process.stdout.write(`[reliability/killed-apply] seed ${SEED}\n  ${log.join('\n  ')}\n`);
});

/** `reseller-hosting drift` as a user runs it (the compiled CLI). */
function drift(args: string[], outdir: string, env: NodeJS.ProcessEnv): Promise<TfRun> {
  const argv = [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'drift', '--stacks', outdir, ...args];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: outdir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, args: ['drift', ...args], ms: Date.now() - started }));
  });
}

/** Declared objects the account lacks, as `kind name` strings. */
function missingObjects(): string[] {
  const account = emu.account();
  const missing: string[] = [];
  for (const site of SITES) {
    const pkg = account.packages.find((p) => p.name === site.domain);
    if (!pkg) missing.push(`package ${site.domain}`);
    for (const f of site.forwarders) {
      const address = `${f.local}@${site.domain}`;
      const found = pkg?.mail.some((d) => d.forwarders.some((x) => x.address === address && x.remote === f.remote));
      if (!found) missing.push(`forwarder ${address}`);
    }
  }
  return missing;
}

function expectExactlyDeclared(): void {
  const account = emu.account();
  const names = account.packages.map((p) => p.name);
  expect(names.length).toBe(new Set(names).size);
  expect([...names].sort()).toEqual(SITES.map((s) => s.domain).sort());
  for (const site of SITES) {
    const pkg = account.packages.find((p) => p.name === site.domain)!;
    const forwarders = pkg.mail.flatMap((d) => d.forwarders.map((f) => `${f.address}->${f.remote}`));
    expect(forwarders).toEqual(site.forwarders.map((f) => `${f.local}@${site.domain}->${f.remote}`));
    expect(pkg).toMatchObject({ label: `Site ${site.id}`, packageTypeName: 'Linux Unlimited', enabled: true });
  }
}

const POINTS = killPoints(SEED, TOTAL_CREATES);

test.each(POINTS.map((p, i) => [i + 1, p.afterCreates, p.host] as const))(
  'kill point %i (after %i acknowledged creates, handler host %s): re-apply + drift --fix leave every object exactly once',
  async (point, afterCreates, host) => {
    await emu.control('POST', 'reset', {});
    await controlOf(emu.url).call('DELETE', 'requests');
    const outdir = mkdtempSync(join(tmpdir(), `reliability-kill-${point}-`));
    const stackDir = synthStack(outdir, SITES);
    const env: NodeJS.ProcessEnv = {
      RESELLER_API_URL: emu.url,
      RESELLER_API_KEY: API_KEY,
      RESELLER_HANDLER_STATE_DIR: mkdtempSync(join(tmpdir(), `reliability-kill-journal-${point}-`)),
      RESELLER_HANDLER_HOST: host,
      RESELLER_POLL_INTERVAL: '100ms',
      RESELLER_CONFIRM_TIMEOUT: '5000ms',
      // The shared reliability stack declares these variables (no mailbox uses them here).
      TF_VAR_password_a: 'Kill-Test-Passw0rd-A',
      TF_VAR_password_b: 'Kill-Test-Passw0rd-B',
    };
    const init = await terraform(tf, stackDir, ['init', '-input=false', '-no-color'], env);
    expect({ code: init.code, out: init.code === 0 ? '' : tail(init.stdout + init.stderr) }).toEqual({ code: 0, out: '' });

    // Slow requests make the apply outlast Terraform's 20 s state snapshot interval, so
    // the state can claim resources whose create-time provisioner never finished.
    await controlOf(emu.url).setFaults([{ path: '.', latencyMs: LATENCY_MS }]);
    const kill = await applyAndKill(tf, APPLY, stackDir, env, emu.url, afterCreates);
    // Clearing the latency fault also performs the writes it still held from the killed run,
    // as a real server finishes them long before the next CI run (without it a slow
    // machine could re-apply first and meet a late create's 409).
    await controlOf(emu.url).clearFaults();
    log.push(`point ${point}: killed after ${kill.killedAt} acknowledged creates${kill.exitedBeforeKill ? ' (apply had already finished)' : ''}, host ${host}`);

    // The CI recipe: apply again. It may succeed with objects still missing (their
    // resources are in the state), or fail because a child's parent is missing; either
    // way it names only resources of this stack and says what to run.
    const reapply = await terraform(tf, stackDir, APPLY, env);
    if (reapply.code !== 0) {
      expect(reapply.stdout + reapply.stderr).toMatch(/with terraform_data\.site\d+/);
      expect(reapply.stderr.replace(/\s+/g, ' ')).toContain("run 'reseller-hosting drift --fix'");
    }
    const missingAfterApply = missingObjects();
    log.push(`  re-apply exit ${reapply.code}; declared objects missing afterwards: ${missingAfterApply.join(', ') || 'none'}`);

    // drift sees every object the apply left missing, and says so with exit 2.
    const check = await drift(['--detailed-exitcode'], outdir, env);
    if (missingAfterApply.length > 0) {
      expect(check.code).toBe(2);
      for (const object of missingAfterApply) expect(check.stdout).toContain(object.split(' ')[1]);
      expect(check.stdout).toMatch(/missing/i);
    } else {
      expect({ code: check.code, out: check.code === 0 ? '' : tail(check.stdout + check.stderr) }).toEqual({ code: 0, out: '' });
    }

    // drift --fix repairs the account; the recipe's last apply settles Terraform's own
    // record (a resource the failed re-apply tainted is replaced, adopting the object).
    const fix = await drift(['--fix', '--detailed-exitcode'], outdir, env);
    expect({ code: fix.code, out: fix.code === 0 ? '' : tail(fix.stdout + fix.stderr) }).toEqual({ code: 0, out: '' });
    expectExactlyDeclared();
    const settle = await terraform(tf, stackDir, APPLY, env);
    expect({ code: settle.code, out: settle.code === 0 ? '' : tail(settle.stdout + settle.stderr) }).toEqual({ code: 0, out: '' });
    expectExactlyDeclared();
    const after = await drift(['--detailed-exitcode'], outdir, env);
    expect({ code: after.code, out: after.code === 0 ? '' : tail(after.stdout + after.stderr) }).toEqual({ code: 0, out: '' });

    // Nothing was ever created twice: one accepted addWeb per package, no refused duplicate.
    const requests = await controlOf(emu.url).requests();
    expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/addWeb') && r.status === 200)).toHaveLength(SITES.length);
    expect(requests.filter((r) => r.status === 409).map((r) => `${r.method} ${r.path}`)).toEqual([]);

    // And Terraform agrees nothing is left to do.
    const plan = await terraform(tf, stackDir, ['plan', '-detailed-exitcode', '-input=false', '-no-color'], env);
    expect({ code: plan.code, out: plan.code === 0 ? '' : tail(plan.stdout + plan.stderr) }).toEqual({ code: 0, out: '' });
  },
  240_000,
);
