import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { Block } from './markdown';
import { CiRecipe, Context, holds, readRecipe, substitute } from './ci';

/** What a shell run printed and how it ended. */
export interface Ran {
  readonly code: number;
  readonly output: string;
}

/**
 * How a block's placeholders become this test's values, the way a reader fills them in:
 * `NAME=...` is the reader's own value of NAME; the real service's URL and the
 * emulator's default address are the test's emulator; `<stack>` is the stack's name;
 * `npm install ... cdktf-reseller-hosting` installs the packed package (`npm pack`).
 */
export interface Fill {
  readonly values: Record<string, string>;
  readonly url: string;
  readonly tarball: string;
  readonly stack?: string;
}

export function fillIn(text: string, fill: Fill): string {
  const host = fill.url.replace(/^https?:\/\//, '');
  return text
    .split('\n')
    .map((line) => {
      let out = line.replace(/\b([A-Za-z_][A-Za-z0-9_]*)=\.\.\.(?=\s|$)/g, (_m, name: string) => {
        const value = fill.values[name];
        if (value === undefined) throw new Error(`the block sets ${name}=... and the docs test has no value for it`);
        return `${name}=${value}`;
      });
      out = out.replace(/https:\/\/api\.20i\.com/g, fill.url).replace(/127\.0\.0\.1:8080/g, host).replace(/--port 8080\b/g, `--port ${host.split(':')[1]}`);
      if (fill.stack) out = out.replace(/<stack>/g, fill.stack);
      // The package as published: the tarball of `npm pack` stands in for the registry's.
      if (/^\s*npm (install|i)\b/.test(out)) {
        const [command, comment] = out.split(/(?=\s#)/);
        out = command.replace(/(\s)cdktf-reseller-hosting(?=\s|$)/g, `$1${fill.tarball}`) + (comment ?? '');
      }
      return out;
    })
    .join('\n');
}

/** Runs shell text as a reader's terminal or a CI runner does: bash, stopping at the first failing command. */
export function runShell(text: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', text], { cwd: options.cwd, env: options.env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // A prompt (terraform apply without -auto-approve) is answered as a reader would.
    child.stdin.end('yes\n');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** `bash -n`: the block parses as shell (what the test checks of a block it cannot run). */
export function shellSyntaxProblem(text: string): string | undefined {
  const run = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
  return run.status === 0 ? undefined : run.stderr.trim();
}

/**
 * The environment of a reader's shell on this machine: PATH without any node_modules/.bin
 * (a command installed in a project is reached with npx, as the docs say), a home of its
 * own, npm answering from its cache where it can, no Terraform checkpoint call; plus
 * what the recipe's prose told the reader to export.
 */
export function readerEnv(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? '').split(delimiter).filter((p) => p && !p.includes('node_modules'));
  const env: NodeJS.ProcessEnv = {
    PATH: [dirname(process.execPath), ...path].join(delimiter),
    HOME: home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    CHECKPOINT_DISABLE: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '/root', '.npm'),
    ...extra,
  };
  if (process.env.TERRAFORM_BINARY) env.PATH = [dirname(process.env.TERRAFORM_BINARY), env.PATH].join(delimiter);
  return env;
}

export interface JobRun {
  readonly job: string;
  /** Whether the job ended green, as the CI system would show it. */
  readonly passed: boolean;
  /** Each step that ran: its name and exit code. */
  readonly steps: Array<{ name: string; code: number | 'skipped' | 'marked'; output: string }>;
}

/**
 * Runs one job of a recipe in `cwd`: its steps in order, each with the recipe's
 * environment over the reader's, expressions evaluated as the CI system does. A step
 * that needs what the test cannot give (its `# recipe: ...` marker) is syntax-checked.
 */
export async function runJob(recipe: CiRecipe, jobName: string, options: { cwd: string; base: NodeJS.ProcessEnv; ctx: Omit<Context, 'env'>; fill: Fill }): Promise<JobRun> {
  const job = recipe.jobs.find((j) => j.name === jobName);
  if (!job) throw new Error(`no job ${jobName} in the recipe`);
  const steps: JobRun['steps'] = [];
  let failed = false;
  const jobEnv: Record<string, string> = {};
  const ctx0: Context = { ...options.ctx, env: jobEnv };
  // The recipe's environment is filled in like its scripts: the real service's URL is the test's emulator.
  for (const [k, v] of Object.entries(job.env)) jobEnv[k] = fillIn(substitute(v, ctx0), options.fill);
  for (const step of job.steps) {
    const stepEnv: Record<string, string> = { ...jobEnv };
    const ctx: Context = { ...options.ctx, env: stepEnv };
    for (const [k, v] of Object.entries(step.env)) stepEnv[k] = fillIn(substitute(v, ctx), options.fill);
    if (!holds(step.condition, failed, ctx)) {
      steps.push({ name: step.name, code: 'skipped', output: '' });
      continue;
    }
    if (!step.run) {
      steps.push({ name: step.name, code: 0, output: `uses: ${step.uses} (the scratch project has it)` });
      continue;
    }
    const script = fillIn(substitute(step.run, ctx), options.fill);
    if (step.marker) {
      const problem = shellSyntaxProblem(script);
      if (problem) throw new Error(`step ${step.name}: ${problem}`);
      steps.push({ name: step.name, code: 'marked', output: step.marker });
      continue;
    }
    const cwd = step.workingDirectory ? join(options.cwd, substitute(step.workingDirectory, ctx)) : options.cwd;
    const ran = await runShell(script, { cwd, env: { ...options.base, ...stepEnv } });
    steps.push({ name: step.name, code: ran.code, output: ran.output });
    if (ran.code !== 0) failed = true;
  }
  return { job: job.name, passed: !failed, steps };
}

export { readRecipe };

/** Writes a file, making its directory. */
export function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The block's text for a shell run, with its placeholders filled in. */
export function shellOf(block: Block, fill: Fill): string {
  return fillIn(block.text, fill);
}
