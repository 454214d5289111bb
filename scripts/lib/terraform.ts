import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * Finding and running Terraform (or OpenTofu) for the demo, the end-to-end tests and
 * the benchmarks. Everything runs offline: the stacks use only the built-in
 * terraform_data resource, so `init` downloads nothing.
 */
export const REPO_ROOT = findRepoRoot();

function findRepoRoot(): string {
  // scripts/lib (sources under ts-jest) or dist/scripts/lib (compiled): the root holds package.json.
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    try {
      if (require(join(dir, 'package.json')).name === 'cdktf-reseller-hosting') return dir;
    } catch {
      /* keep walking up */
    }
    dir = resolve(dir, '..');
  }
  throw new Error('cannot find the cdktf-reseller-hosting package root');
}

export const TERRAFORM_INSTALL_HINT =
  'Terraform >= 1.10 (or OpenTofu >= 1.11) must be on PATH: install it from your platform\'s packages ' +
  '(https://developer.hashicorp.com/terraform/install or https://opentofu.org/docs/intro/install/) and run this again.';

/** The Terraform binary: `terraform`, else `tofu`; a clear error when neither is installed. */
export function findTerraform(): string {
  for (const bin of [process.env.TERRAFORM_BINARY, 'terraform', 'tofu']) {
    if (!bin) continue;
    const probe = spawnSync(bin, ['version'], { encoding: 'utf8', env: terraformEnv() });
    if (probe.status === 0) return bin;
  }
  throw new Error(TERRAFORM_INSTALL_HINT);
}

/** The environment every Terraform run gets: no checkpoint calls, the project's CLI config. */
export function terraformEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // The project's settings come last: callers often pass a copy of process.env, which
  // must not put the machine's own CLI config (or a checkpoint call) back.
  return {
    ...process.env,
    ...extra,
    CHECKPOINT_DISABLE: '1',
    TF_CLI_CONFIG_FILE: join(REPO_ROOT, 'terraformrc'),
    TF_IN_AUTOMATION: '1',
  };
}

export interface TerraformResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs terraform with `args` in `cwd`; `stream` also copies its output to ours as it comes. */
export function runTerraform(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stream?: boolean; binary?: string; onSpawn?: (child: ChildProcess) => void },
): Promise<TerraformResult> {
  const binary = options.binary ?? findTerraform();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary, args, { cwd: options.cwd, env: terraformEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    options.onSpawn?.(child); // e.g. to interrupt it as Ctrl-C would
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (options.stream) process.stdout.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      if (options.stream) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}
