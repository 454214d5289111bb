import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small cross-process notebook in the local temp directory. Every handler
 * invocation is its own process, so this is how one step tells the next what it has
 * already done in this apply:
 * - `ensure` records the settings it applied for a Terraform object id, so the
 *   settings resource's `update` (same object id, same settings) makes no request;
 * - a cloud server order is recorded before anything else, so a re-run never orders
 *   a second server while the first is still provisioning (and so not yet listed);
 * - short-lived caches of rarely changing lists (package types, users).
 * Entries expire; losing the directory only costs extra requests, never correctness.
 */
export class Journal {
  constructor(private readonly dir: string = defaultJournalDir()) {}

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

  private file(name: string): string {
    return join(this.dir, `${createHash('sha256').update(name).digest('hex').slice(0, 40)}.json`);
  }
}

export function defaultJournalDir(): string {
  return process.env.RESELLER_HANDLER_STATE_DIR || join(tmpdir(), 'reseller-hosting-handler');
}
