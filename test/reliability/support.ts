/**
 * Shared helpers of the reliability suite (test/reliability/*.test.ts): a cdktf stack
 * of our own synthesized to a temp dir, REAL terraform runs with the handler's
 * environment, an emulator as a child process (the compiled CLI), a keep-alive HTTP
 * client that never throws on odd input, and a Node preload that copies every handler
 * process's stdout/stderr to a file (Terraform hides provisioner output whenever the
 * provisioner's configuration holds a sensitive value, so the file is how a test sees
 * exactly what the handler printed).
 *
 * Nothing here skips: a missing terraform binary or dist/ build throws.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import { Construct } from 'constructs';
import { DnsRecord, Forwarder, HostingPackage, Mailbox, ResellerHosting } from '../../src';
import type { DnsRecordType } from '../../src';
import type { EmulatorStateDump, FaultRule } from '../../src/emulator';
import { findTerraform, REPO_ROOT, runTerraform, TerraformResult } from '../../scripts/lib/terraform';
import { requireBuiltHandler } from '../helpers/emulator';

export const STACK_NAME = 'reliability';

/** Fails loudly (never skips) when the compiled handler or emulator CLI is missing. */
export function requireBuild(): void {
  requireBuiltHandler();
  const emulatorCli = join(REPO_ROOT, 'dist', 'src', 'commands', 'emulator', 'index.js');
  if (!existsSync(emulatorCli)) throw new Error(`${emulatorCli} is missing: run 'npm run build' first (npm test does)`);
}

/** Fails loudly (never skips) when terraform or the build is missing; returns the terraform binary. */
export function requireTerraformAndBuild(): string {
  requireBuild();
  return findTerraform(); // throws TERRAFORM_INSTALL_HINT when neither terraform nor tofu is on PATH
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `reliability-${prefix}-`));
}

// ---------------------------------------------------------------------------------
// Our own stack

export interface SiteDecl {
  /** Construct id of the package, e.g. `pkg_3`. */
  id: string;
  domain: string;
  label?: string;
  /** Declared absent (with its mail): Terraform destroys it and the handler deletes it. */
  absent?: boolean;
  mailboxes: Array<{ id: string; local: string; password: 'a' | 'b'; send?: boolean; passwordVersion?: number }>;
  forwarders: Array<{ id: string; local: string; remote: string }>;
  /** DNS records in the package's zone (none when absent). */
  records?: Array<{ id: string; name: string; type: DnsRecordType; value: string; priority?: number }>;
}

/**
 * A stack of packages with mail. Passwords come from the sensitive variables
 * `password_a` / `password_b` (TF_VAR_password_a / TF_VAR_password_b), as DESIGN 5 asks.
 */
export class ReliabilityStack extends TerraformStack {
  constructor(scope: Construct, id: string, sites: SiteDecl[]) {
    super(scope, id);
    new LocalBackend(this, { path: 'terraform.tfstate' });
    new ResellerHosting(this, 'reseller', { engine: 'terraform_data' });
    const passwords = {
      a: new TerraformVariable(this, 'password_a', { type: 'string', sensitive: true }),
      b: new TerraformVariable(this, 'password_b', { type: 'string', sensitive: true }),
    };
    for (const site of sites) {
      const pkg = new HostingPackage(this, site.id, {
        domainName: site.domain,
        packageType: 'Linux Unlimited',
        label: site.label ?? `Site ${site.id}`,
        absent: site.absent,
      });
      for (const m of site.mailboxes) {
        new Mailbox(this, m.id, {
          package: pkg,
          localPart: m.local,
          password: passwords[m.password].value,
          passwordVersion: m.passwordVersion ?? 1,
          send: m.send ?? true,
          absent: site.absent,
        });
      }
      for (const f of site.forwarders) new Forwarder(this, f.id, { package: pkg, localPart: f.local, remote: f.remote, absent: site.absent });
      for (const r of site.records ?? []) new DnsRecord(this, r.id, { package: pkg, name: r.name, type: r.type, value: r.value, priority: r.priority, absent: site.absent });
    }
  }
}

/** Synthesizes the stack with `new App({outdir})`; returns the stack's Terraform working directory. */
export function synthStack(outdir: string, sites: SiteDecl[]): string {
  const app = new App({ outdir });
  new ReliabilityStack(app, STACK_NAME, sites);
  app.synth();
  return join(outdir, 'stacks', STACK_NAME);
}

/** Every managed object address of a stack (the object resources, not settings/password). */
export function objectAddresses(sites: SiteDecl[]): string[] {
  return sites.flatMap((s) => [s.id, ...s.mailboxes.map((m) => m.id), ...s.forwarders.map((f) => f.id), ...(s.records ?? []).map((r) => r.id)]).map((id) => `terraform_data.${id}`);
}

// ---------------------------------------------------------------------------------
// Faults

/**
 * The fault mix of the faults tests (every engine), from a seed: 429 with Retry-After
 * on 10% of all requests, 503 on 20% of reads, dropAfterCommit (the write happens, its
 * response is lost) on 10% of creates, and `latencyMs` on every request.
 * At most one rule fires per request (the first that matches and wins its draw), so
 * the latency is on every rule, and the probabilities of the later rules are
 * conditional on the earlier ones not firing: P(503 | read) = 0.9 * 0.2/0.9 = 20%.
 */
export function faultRules(latencyMs: number): FaultRule[] {
  return [
    { path: '.', status: 429, retryAfterS: 1, probability: 0.1, latencyMs },
    { method: 'GET', path: '.', status: 503, probability: 0.2 / 0.9, latencyMs },
    // Creates: packages (addWeb), mail objects (every mail write shares one endpoint) and
    // DNS records (one diff endpoint per zone).
    { method: 'POST', path: '(/addWeb|/email/[^/]+|/dns/[^/]+)$', dropAfterCommit: true, probability: 0.1 / 0.9, latencyMs },
    { path: '.', latencyMs },
  ];
}
export const FAULT_NAMES = ['429', '503', 'drop', 'latency'];

// ---------------------------------------------------------------------------------
// Terraform

export interface TfRun extends TerraformResult {
  args: string[];
  ms: number;
}

/**
 * Runs terraform in `cwd` with the handler's connection in the environment and a
 * preload that tees every handler's output to `teeFile` (see `nodePreload`).
 */
export async function terraform(binary: string, cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<TfRun> {
  const started = Date.now();
  const result = await runTerraform(args, { cwd, env: { TF_INPUT: '0', ...env }, binary });
  return { ...result, args, ms: Date.now() - started };
}

/**
 * Resource addresses Terraform names in its error diagnostics (`with terraform_data.x,`),
 * and objects the provider names in a destroy's (`mailbox info@example.com`).
 */
export function failedAddresses(run: TerraformResult): string[] {
  const found = new Set<string>();
  for (const m of `${run.stdout}\n${run.stderr}`.matchAll(/with ((?:terraform_data|null_resource|reseller_[a-z_]+)\.[A-Za-z0-9_-]+(?:\[\d+\])?),/g)) found.add(m[1]);
  // A destroy's diagnostic names no configuration block: the provider names the object instead.
  for (const m of `${run.stdout}\n${run.stderr}`.matchAll(/Error: Could not (?:create|update|delete|read) the ([a-z -]+?) (\S+)\n/g)) found.add(`${m[1]} ${m[2]}`);
  return [...found].sort();
}

/**
 * Applies (or destroys) and, if the first run fails, allows exactly one more run, but
 * only when the first one named every failed resource. Returns every run made.
 */
export async function runAllowingOneRetry(
  binary: string, cwd: string, args: string[], env: NodeJS.ProcessEnv, log: string[],
): Promise<TfRun[]> {
  const first = await terraform(binary, cwd, args, env);
  log.push(`terraform ${args.join(' ')}: exit ${first.code} in ${first.ms} ms`);
  if (first.code === 0) return [first];
  const named = failedAddresses(first);
  log.push(`  failed resources named by terraform: ${named.join(', ') || '(none)'}`);
  // The condition for a second run: the first one said which objects failed.
  if (named.length === 0) {
    throw new Error(`terraform ${args.join(' ')} failed without naming the failed resources:\n${tail(first.stdout)}\n${tail(first.stderr)}`);
  }
  const second = await terraform(binary, cwd, args, env);
  log.push(`terraform ${args.join(' ')} (second run): exit ${second.code} in ${second.ms} ms`);
  if (second.code !== 0) {
    throw new Error(`second terraform ${args.join(' ')} failed too:\n${tail(second.stdout)}\n${tail(second.stderr)}`);
  }
  return [first, second];
}

export function tail(text: string, chars = 6000): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/**
 * A Node preload (NODE_OPTIONS=--require FILE) that appends everything a handler
 * process writes on stdout/stderr to `logFile`, one record per write, tagged with the
 * pid and the handler command. Terraform still gets the output as usual.
 */
export function nodePreload(dir: string, logFile: string): string {
  const file = join(dir, 'tee-preload.js');
  writeFileSync(
    file,
    `'use strict';
const fs = require('fs');
const tag = process.pid + ' ' + process.argv.slice(2).join(' ');
for (const name of ['stdout', 'stderr']) {
  const stream = process[name];
  const write = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    try { fs.appendFileSync(${JSON.stringify(logFile)}, '[' + tag + ' ' + name + '] ' + String(chunk)); } catch {}
    return write(chunk, ...rest);
  };
}
`,
  );
  return file;
}

/** Every regular file under `dir` (recursive). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false }); // (the handler host's socket may vanish meanwhile)
    if (st?.isDirectory()) out.push(...filesUnder(p));
    else if (st?.isFile()) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------------
// Emulator as a child process (the compiled CLI)

export interface EmulatorProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnEmulator(args: string[], env: NodeJS.ProcessEnv = {}): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'emulator', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, RESELLER_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve({ child, url: m[1], stderr: () => err, exited });
    });
    exited.then(({ code, signal }) => reject(new Error(`emulator exited (${code ?? signal}) before listening: ${err}`)));
  });
}

// ---------------------------------------------------------------------------------
// HTTP

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request over `agent` with node:http (which, unlike fetch, sends a body with any
 * method and any path bytes we choose). Resolves with status and text; rejects only
 * when no response arrived.
 */
export function rawRequest(
  agent: http.Agent | undefined,
  base: string,
  req: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}), ...req.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export const bearer = (key: string) => `Bearer ${Buffer.from(key, 'utf8').toString('base64')}`;

/** Control API helpers against any emulator URL. */
export function controlOf(url: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/__emulator/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  return {
    call,
    state: async () => (await call('GET', 'state')) as EmulatorStateDump,
    requests: async () => (await call('GET', 'requests')) as Array<{ method: string; path: string; status: number; fault: string | null }>,
    setFaults: (rules: FaultRule[], seed?: number) => call('POST', 'faults', { rules, ...(seed !== undefined ? { seed } : {}) }),
    faults: async () => (await call('GET', 'faults')) as { seed: number; rules: Array<FaultRule & { fired: number }> },
    clearFaults: () => call('DELETE', 'faults'),
  };
}

export function readText(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
