/** Seeded kill points of the killed-apply tests (every engine), so that a run replays from its seed, and the kill itself. */
import { spawn } from 'node:child_process';
import { mulberry32 } from '../../src/emulator/faults';
import { terraformEnv } from '../../scripts/lib/terraform';
import { controlOf } from './support';

/**
 * Three kill points spread over an apply of `totalCreates` creates (early, middle,
 * late), each after a seeded number of acknowledged creates, with a seeded coin for
 * the carriers' handler host (on or off).
 */
export function killPoints(seed: number, totalCreates: number): Array<{ afterCreates: number; host: 'on' | 'off' }> {
  const next = mulberry32(seed); // the emulator's seeded generator, so kill points replay from the seed
  const third = totalCreates / 3;
  return [0, 1, 2].map((i) => ({
    afterCreates: 1 + Math.floor(i * third + next() * (third - 1)),
    host: next() < 0.5 ? ('on' as const) : ('off' as const),
  }));
}

/** Creates the emulator has acknowledged so far (packages and mail objects). */
async function acknowledgedCreates(emulatorUrl: string): Promise<number> {
  const requests = await controlOf(emulatorUrl).requests();
  return requests.filter((r) => r.method === 'POST' && r.status === 200 && (r.path.endsWith('/addWeb') || /\/email\/[^/]+$/.test(r.path))).length;
}

/**
 * Starts `terraform <args>` in `cwd` in its own process group and kills the whole
 * group with SIGKILL (as a cancelled CI runner is) once the emulator has acknowledged
 * `afterCreates` creates. Resolves when it is gone.
 */
export async function applyAndKill(
  terraform: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, emulatorUrl: string, afterCreates: number,
): Promise<{ killedAt: number; exitedBeforeKill: boolean }> {
  const child = spawn(terraform, args, { cwd, env: terraformEnv({ TF_INPUT: '0', ...env }), stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let done = false;
  void exited.then(() => (done = true));
  let seen = 0;
  while (!done && (seen = await acknowledgedCreates(emulatorUrl)) < afterCreates) await new Promise((r) => setTimeout(r, 20));
  if (done) return { killedAt: seen, exitedBeforeKill: true };
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
  return { killedAt: seen, exitedBeforeKill: false };
}
