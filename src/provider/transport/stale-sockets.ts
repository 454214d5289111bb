import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SOCKET_DIR_PATTERN, SOCKET_FILE, socketBase } from './handshake';

/**
 * A provider process removes its socket directory when it exits, but a process killed
 * outright (SIGKILL: a cancelled CI job, a Terraform that gave up on it) cannot, and
 * each plan starts three. So each start removes what such processes left: directories
 * named after a process that no longer runs, holding nothing but the socket, and older
 * than an hour (a pid from another PID namespace sharing this directory, a container's,
 * looks gone too: an hour-old socket of a live plugin has long been dialled). Another
 * user's directories cannot be read, and anything else in them keeps the directory.
 * Runs after the handshake, off the start-up path.
 */
const STALE_AFTER_MS = 60 * 60_000;

export async function removeStaleSocketDirs(env: NodeJS.ProcessEnv, ownPid: number = process.pid, now: number = Date.now()): Promise<string[]> {
  const base = socketBase(env);
  const removed: string[] = [];
  for (const name of await readdir(base)) {
    const pid = Number(SOCKET_DIR_PATTERN.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid === ownPid || isRunning(pid)) continue;
    const dir = join(base, name);
    try {
      if ((await stat(dir)).mtimeMs > now - STALE_AFTER_MS) continue;
      if ((await readdir(dir)).some((entry) => entry !== SOCKET_FILE)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Another user's (not readable), or removed meanwhile by another provider process.
    }
  }
  return removed;
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
