import { spawn } from 'node:child_process';

/**
 * Milliseconds from spawning `command` to its first line on stdout (`untilLine`: a
 * plugin's handshake line; the process is then killed) or to its exit (`node -e 0`).
 */
export function timeToStart(command: string, args: string[], untilLine: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(performance.now() - started);
      child.kill('SIGKILL');
    };
    if (untilLine) child.stdout.on('data', (d: Buffer) => String(d).includes('\n') && finish());
    child.on('error', reject);
    child.on('exit', finish);
  });
}
