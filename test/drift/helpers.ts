import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ResellerClient } from '../../src/client';
import type { CommandIo } from '../../src/commands/command';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { API_KEY } from '../helpers/emulator';

/** Output of a command run in-process with its own environment and working directory. */
export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

export async function capture(
  run: (argv: string[], io: CommandIo) => Promise<number>,
  argv: string[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, cwd });
  return { code, stdout, stderr };
}

/** The environment drift/import need: the emulator's URL and key, an isolated handler journal. */
export function apiEnv(url: string, journalDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, RESELLER_API_URL: url, RESELLER_API_KEY: API_KEY, RESELLER_HANDLER_STATE_DIR: journalDir, ...extra };
  delete env.RESELLER_MAILBOX_PASSWORD;
  delete env.RESELLER_ID;
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
}

/** A client for out-of-band changes, as someone using the control panel or the API directly would make them. */
export function outOfBand(url: string): ResellerClient {
  return new ResellerClient({ baseUrl: url, apiKey: API_KEY, retryBaseDelayMs: 10 });
}

/** Runs the real `reseller-hosting` binary (compiled: npm run build). */
export function runBinary(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT, input?: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), ...args], { env, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(input ?? '');
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

const made: string[] = [];

/** A fresh temporary directory, removed by removeTempDirs (call it in afterAll). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(...more: Array<string | undefined>): void {
  for (const dir of [...made.splice(0), ...more]) if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Compiles generated code with the strict options of this project (noUnusedLocals included); returns the diagnostics. */
export function compileGenerated(file: string, outDir: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true, noUnusedLocals: true, noImplicitOverride: true, esModuleInterop: true, skipLibCheck: true, types: [], outDir,
  });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/**
 * Compiles a generated stack (`<name>.ts` in a scratch project) and synthesizes it with a
 * local backend in a process of its own, as `cdktf synth` would run the app.
 */
export function synthGenerated(project: string, name: string, className: string, stackName: string): { outdir: string; stackDir: string } {
  expect(compileGenerated(join(project, `${name}.ts`), join(project, `out-${name}`))).toEqual([]);
  const outdir = join(project, `cdktf-${name}.out`);
  writeFileSync(join(project, `main-${name}.js`), [
    "const { App, LocalBackend } = require('cdktf');",
    `const { ${className} } = require('./out-${name}/${name}');`,
    `const app = new App({ outdir: ${JSON.stringify(outdir)} });`,
    `const stack = new ${className}(app, '${stackName}');`,
    "new LocalBackend(stack, { path: 'terraform.tfstate' });",
    'app.synth();',
  ].join('\n'));
  const synth = spawnSync(process.execPath, [`main-${name}.js`], { cwd: project, encoding: 'utf8' });
  expect(synth.stderr).toBe('');
  expect(synth.status).toBe(0);
  return { outdir, stackDir: join(outdir, 'stacks', stackName) };
}
