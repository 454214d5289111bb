import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';

export interface HandlerRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `reseller-hosting handler <command>` the way a provisioner does: a process with env. */
export function runHandler(command: string, spec: unknown, env: NodeJS.ProcessEnv): Promise<HandlerRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'handler', command], {
      env: { ...env, RESELLER_SPEC: typeof spec === 'string' ? spec : JSON.stringify(spec) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
