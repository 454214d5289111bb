import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator';
import type { AccountDump, EmulatorProfile, RequestLogEntry, RunningEmulator } from '../../src/emulator';
import { findTerraform, REPO_ROOT, runTerraform, TerraformResult } from '../../scripts/lib/terraform';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * Shared plumbing of the end-to-end tests: the REAL `terraform` binary (never a
 * stand-in) applies the synthesized example stack; its provisioners run the compiled
 * handler against an emulator of the reseller API on loopback.
 *
 * A missing Terraform is a failure, never a skip: `requireTerraform()` runs in each
 * file's `beforeAll`, so every test of the file fails with findTerraform()'s install hint.
 */

/** Real Terraform plus a handler, per test: generous. */
export const E2E_TIMEOUT_MS = 180_000;

/** The Terraform binary (throws the install hint when neither terraform nor tofu runs), after checking dist/ is built. */
export function requireTerraform(): string {
  requireBuiltHandler();
  return findTerraform();
}

/**
 * The built provider's installer (dist/src/provider/install.js), after checking that the
 * bundle it installs is built too: a missing build fails with what to run, never skips.
 */
export function builtProviderInstaller(): typeof import('../../src/provider/install') {
  const dist = join(REPO_ROOT, 'dist', 'src', 'provider');
  for (const file of ['install.js', 'bundle.js']) {
    if (!existsSync(join(dist, file))) throw new Error(`${join(dist, file)} is missing: run 'npm run build' first (npm test and npm run test:live do)`);
  }
  return require(join(dist, 'install.js'));
}

/** A fresh temp directory for one test file (`reseller-e2e-<name>-XXXXXX`). */
export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `reseller-e2e-${name}-`));
}

/** An emulator on a free port with its own data file; `apiKey` defaults to the emulator's default. */
export async function startE2EEmulator(options: { apiKey?: string; provisionDelayMs?: number; dir: string; profile?: EmulatorProfile }) {
  const emulator: RunningEmulator = await startEmulator({
    port: 0,
    apiKey: options.apiKey,
    profile: options.profile,
    dataFile: join(options.dir, 'emulator.json'),
    provisionDelayMs: options.provisionDelayMs ?? 300,
    quiet: true,
  });
  const account = (): AccountDump => emulator.snapshot().accounts.find((a) => a.isDefault)!;
  const requests = async (): Promise<RequestLogEntry[]> => (await fetch(`${emulator.url}/__emulator/requests`)).json() as Promise<RequestLogEntry[]>;
  const clearRequests = async (): Promise<void> => {
    await fetch(`${emulator.url}/__emulator/requests`, { method: 'DELETE' });
  };
  /** The control API under /__emulator/ (faults, settings, brand, reset). */
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emulator.url}/__emulator/${path}`, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { url: emulator.url, account, requests, clearRequests, control, stop: () => emulator.stop() };
}

export type E2EEmulator = Awaited<ReturnType<typeof startE2EEmulator>>;

/**
 * Environment of a `terraform` run (scripts/lib/terraform adds CHECKPOINT_DISABLE,
 * TF_CLI_CONFIG_FILE and TF_IN_AUTOMATION): connection, password, a private handler
 * journal (so no other run's notes leak in) and quick polling.
 */
export function stackEnv(options: { url: string; apiKey: string; password?: string; journalDir: string; extra?: NodeJS.ProcessEnv }): NodeJS.ProcessEnv {
  return {
    RESELLER_API_URL: options.url,
    RESELLER_API_KEY: options.apiKey,
    RESELLER_HANDLER_STATE_DIR: options.journalDir,
    RESELLER_POLL_INTERVAL: '100ms',
    ...(options.password !== undefined ? { TF_VAR_mailbox_password: options.password } : {}),
    ...options.extra,
  };
}

/** Runs `terraform <args>` in `cwd`; fails with its full output unless the exit code is one of `okCodes`. */
export async function terraform(
  binary: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, okCodes: number[] = [0],
): Promise<TerraformResult> {
  const result = await runTerraform(args, { cwd, env, binary });
  if (!okCodes.includes(result.code)) {
    throw new Error(`terraform ${args.join(' ')} exited ${result.code} in ${cwd}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}

export interface SavedPlan {
  /** `terraform plan -out` output (human). */
  planText: string;
  /** `terraform show <plan>` (human rendering of the saved plan). */
  showText: string;
  /** `terraform show -json <plan>`, raw. */
  jsonText: string;
  json: any;
  /** address -> actions, for every resource that is not a no-op. */
  changes: Record<string, string[]>;
}

/** `terraform plan -out=p`, then `terraform show p` and `terraform show -json p`. */
export async function savedPlan(binary: string, stackDir: string, env: NodeJS.ProcessEnv, file = 'p'): Promise<SavedPlan> {
  const plan = await terraform(binary, ['plan', '-input=false', '-no-color', `-out=${file}`], stackDir, env);
  const show = await terraform(binary, ['show', '-no-color', file], stackDir, env);
  const json = await terraform(binary, ['show', '-json', file], stackDir, env);
  const parsed = JSON.parse(json.stdout);
  const changes: Record<string, string[]> = {};
  for (const rc of parsed.resource_changes ?? []) {
    if (!(rc.change.actions.length === 1 && rc.change.actions[0] === 'no-op')) changes[rc.address] = rc.change.actions;
  }
  return { planText: plan.stdout + plan.stderr, showText: show.stdout + show.stderr, jsonText: json.stdout, json: parsed, changes };
}

/** `terraform plan -detailed-exitcode`: 0 means no changes (2 would mean changes, 1 an error). */
export async function planExitCode(binary: string, stackDir: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const result = await terraform(binary, ['plan', '-input=false', '-no-color', '-detailed-exitcode'], stackDir, env, [0, 1, 2]);
  return { code: result.code, output: result.stdout + result.stderr };
}

/** Every regular file under `dir` (recursively), except those `skip` names by base name. */
export function filesUnder(dir: string, skip: (name: string) => boolean = () => false): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    // Regular files only: the handler host's socket (which may also vanish meanwhile) holds no data.
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(...filesUnder(path, skip));
    else if (st?.isFile() && !skip(entry)) out.push(path);
  }
  return out;
}

/** Names (of `texts`) whose content contains `secret`; [] when it leaks nowhere. */
export function leaksOf(secret: string, texts: Record<string, string>): string[] {
  return Object.entries(texts).filter(([, text]) => text.includes(secret)).map(([name]) => name);
}

/**
 * How many managed resources of each type `<stackDir>/terraform.tfstate` holds: what
 * `terraform state list` would show. The CLI tests read this, not cdktf-cli's or
 * cdktn-cli's copy of Terraform's output: both run Terraform in a pseudo-terminal and
 * stop reading it when Terraform exits, so the last lines (the "Apply complete!"
 * summary) are sometimes lost.
 */
export function managedResourceCounts(stackDir: string): Record<string, number> {
  const state = JSON.parse(readText(join(stackDir, 'terraform.tfstate'))) as { resources?: Array<{ mode: string; type: string; instances: unknown[] }> };
  const counts: Record<string, number> = {};
  for (const r of state.resources ?? []) if (r.mode === 'managed') counts[r.type] = (counts[r.type] ?? 0) + r.instances.length;
  return counts;
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

