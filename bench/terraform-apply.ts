import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './lib/scratch';
import { findTerraform, REPO_ROOT, runTerraform } from '../scripts/lib/terraform';
import { BenchEmulator } from './lib/emulator';
import { BENCH_PASSWORD, PASSWORD_VARIABLE, resourceCount, synthAccount } from './lib/stacks';
import { Comparison, interleave } from './lib/stats';

/**
 * Figure 5: a real `terraform apply` (default parallelism) creating `objects` reseller
 * objects (half packages, half mailboxes) against the emulator, against an apply of as
 * many bare `terraform_data` resources whose provisioner runs `node -e 0`. Each run
 * starts from an empty state (and a reset emulator); `init` runs once, offline.
 */
export interface ApplyResult {
  objects: number;
  resources: { subject: number; baseline: number };
  comparison: Comparison;
  /**
   * The same stack with every provisioner replaced by `node -e 0` (same resources, same
   * dependencies): the floor of the two-resources-per-object design, so
   * `subject / structural` is what the handler itself adds.
   */
  structural: Comparison;
  /**
   * The step the CI recipe runs after every carriers apply (issue 17):
   * `reseller-hosting drift --detailed-exitcode` over the applied stack, median ms.
   * An apply killed mid-provisioner can leave the state claiming objects the account
   * lacks; this check is what finds them, so it is part of the cost of a deploy.
   */
  driftCheckMs: number;
}

export const APPLY_GOAL_RATIO = 1.5;

export async function benchTerraformApply(emu: BenchEmulator, options: { objects: number; runs: number }): Promise<ApplyResult> {
  const binary = findTerraform();
  const packages = Math.max(1, Math.floor(options.objects / 2));
  const { stackDir, json } = synthAccount({ packages, mailboxesPerPackage: 1, forwarders: 0 });
  const subjectResources = resourceCount(json);

  const bareDir = scratchDir('bare-');
  const bare: Record<string, unknown> = {};
  for (let i = 0; i < 2 * packages; i++) {
    bare[`r${i}`] = {
      triggers_replace: { n: String(i) },
      provisioner: [{ 'local-exec': { interpreter: ['node', '-e'], command: '0' } }],
    };
  }
  writeFileSync(join(bareDir, 'main.tf.json'), JSON.stringify({ terraform: { backend: { local: { path: 'terraform.tfstate' } } }, resource: { terraform_data: bare } }));

  const sameDir = scratchDir('same-');
  const same = JSON.parse(JSON.stringify(json)) as typeof json;
  for (const byName of Object.values(same.resource ?? {})) {
    // Each provisioner becomes `node -e 0`, at the same time (create or destroy).
    for (const body of Object.values(byName)) {
      body.provisioner = (body.provisioner ?? []).map((p: { 'local-exec': { when?: string } }) => ({
        'local-exec': { ...(p['local-exec'].when ? { when: p['local-exec'].when } : {}), interpreter: ['node', '-e'], command: '0' },
      }));
    }
  }
  same.terraform = { backend: { local: { path: 'terraform.tfstate' } } };
  writeFileSync(join(sameDir, 'main.tf.json'), JSON.stringify(same));

  const tf = async (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const started = performance.now();
    const r = await runTerraform(args, { cwd, env, binary });
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} in ${cwd}: exit ${r.code}\n${r.stderr}${r.stdout.slice(-2000)}`);
    return performance.now() - started;
  };
  await tf(stackDir, ['init', '-input=false', '-no-color']);
  await tf(bareDir, ['init', '-input=false', '-no-color']);
  await tf(sameDir, ['init', '-input=false', '-no-color']);
  const apply = ['apply', '-auto-approve', '-input=false', '-no-color'];
  const fresh = (dir: string) => {
    for (const f of ['terraform.tfstate', 'terraform.tfstate.backup']) rmSync(join(dir, f), { force: true });
  };

  const subject = async () => {
    fresh(stackDir);
    await emu.reset();
    return tf(stackDir, apply, { ...emu.handlerEnv(), [`TF_VAR_${PASSWORD_VARIABLE}`]: BENCH_PASSWORD });
  };
  const baseline = async () => {
    fresh(bareDir);
    return tf(bareDir, apply);
  };
  const structuralFloor = async () => {
    fresh(sameDir);
    return tf(sameDir, apply, { [`TF_VAR_${PASSWORD_VARIABLE}`]: BENCH_PASSWORD });
  };
  const comparison = await interleave(subject, baseline, options.runs);
  const structural = await interleave(subject, structuralFloor, options.runs);
  await subject();
  const driftCheckMs = median(await timeRuns(options.runs, () => runDriftCheck(join(stackDir, '..', '..'), emu.handlerEnv())));
  rmSync(bareDir, { recursive: true, force: true });
  rmSync(sameDir, { recursive: true, force: true });
  return { objects: 2 * packages, resources: { subject: subjectResources, baseline: 2 * packages }, comparison, structural, driftCheckMs };
}

async function timeRuns(runs: number, run: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `reseller-hosting drift --detailed-exitcode` as the CI recipe runs it; fails unless the account is in sync. */
function runDriftCheck(outdir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'drift', '--detailed-exitcode', '--stacks', outdir], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`drift after apply: exit ${code}\n${stderr}`))));
  });
}
