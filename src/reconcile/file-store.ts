import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from './store';

/**
 * A Store in files: a small cross-process notebook in a local directory. Every handler
 * invocation is its own process, so this is how one step tells the next what it has
 * already done in this apply (and drift --fix sees what an apply noted):
 * - a replaced settings resource notes its old triggers for the `ensure` that follows
 *   (see retired.ts);
 * - a cloud server order is recorded before anything else, so a re-run never orders
 *   a second server while the first is still provisioning (and so not yet listed);
 * - caches of rarely changing lists (package types, users) for one Terraform run;
 * - the packages this run created, so that their first mail objects need no look-up.
 * Entries expire. Losing the directory costs extra requests, and makes the next
 * `ensure` of a replaced settings resource behave as a first one (retired.ts).
 */
export class FileStore implements Store {
  constructor(private readonly dir: string) {}

  read<T>(name: string, maxAgeMs: number): T | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.file(name), 'utf8')) as { at: number; value: T };
      return Date.now() - entry.at <= maxAgeMs ? entry.value : undefined;
    } catch {
      return undefined;
    }
  }

  write(name: string, value: unknown): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file(name)}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ at: Date.now(), value }), { mode: 0o600 });
      renameSync(tmp, this.file(name));
    } catch {
      // The journal is an optimisation: an unwritable temp directory must not fail an apply.
    }
  }

  /** Forgets the entry `name` (one unlink; nothing to do when there is none). */
  remove(name: string): void {
    try {
      rmSync(this.file(name), { force: true });
    } catch {
      // as for write: never fails an apply
    }
  }

  /**
   * The entry `name` if it is younger than `maxAgeMs`, else `read()`'s value, recorded.
   * Parallel processes that miss together do not all read: the first takes a lock file
   * and reads, the others wait (up to FILL_WAIT_MS) for its entry and use it; when the
   * reader fails or takes too long they read themselves. `fresh` skips the entry.
   */
  async fill<T>(name: string, maxAgeMs: number, read: () => Promise<T>, fresh = false): Promise<{ value: T; cached: boolean }> {
    const valid = (v: T | null | undefined): v is T => v !== undefined && v !== null;
    if (!fresh) {
      const hit = this.read<T>(name, maxAgeMs);
      if (valid(hit)) return { value: hit, cached: true };
    }
    const lock = `${this.file(name)}.lock`;
    let owner = false;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      closeSync(openSync(lock, 'wx', 0o600));
      owner = true;
    } catch {
      // Another process is reading (or the directory is unusable: then just read).
    }
    if (!owner && !fresh) {
      const since = Date.now();
      for (;;) {
        await new Promise<void>((resolve) => setTimeout(resolve, 10));
        // The reader records its entry before it removes the lock: look at the lock first.
        const done = lockAge(lock) >= STALE_LOCK_MS;
        const hit = this.read<T>(name, maxAgeMs);
        if (valid(hit)) return { value: hit, cached: true };
        if (done || Date.now() - since >= FILL_WAIT_MS) break;
      }
    }
    try {
      if (owner && !fresh) {
        // Another process may have read, recorded its entry and let go of the lock
        // between this one's miss above and its taking the lock: look once more.
        const hit = this.read<T>(name, maxAgeMs);
        if (valid(hit)) return { value: hit, cached: true };
      }
      const value = await read();
      this.write(name, value);
      return { value, cached: false };
    } finally {
      if (owner) rmSync(lock, { force: true });
    }
  }

  private file(name: string): string {
    return join(this.dir, `${createHash('sha256').update(name).digest('hex').slice(0, 40)}.json`);
  }
}

/** How long a process waits for another one's read of the same list. */
const FILL_WAIT_MS = 3000;
/** A lock older than this was left by a process that died: ignored. */
const STALE_LOCK_MS = 30_000;

/** Age of a lock file in ms; Infinity when it is gone. */
function lockAge(lock: string): number {
  const st = statSync(lock, { throwIfNoEntry: false });
  return st ? Date.now() - st.mtimeMs : Infinity;
}

/** The directory the handler's journal uses: `RESELLER_HANDLER_STATE_DIR` or the temp directory. */
export function defaultStoreDir(env: NodeJS.ProcessEnv): string {
  return env.RESELLER_HANDLER_STATE_DIR || join(tmpdir(), 'reseller-hosting-handler');
}
