import { readFileSync } from 'node:fs';
import { defaultStoreDir, FileStore } from '../reconcile';
import { requestScope } from './request-scope';

/**
 * The handler's journal: the core's file store in the directory of this request's
 * environment (see FileStore for what is noted in it).
 */
export class Journal extends FileStore {
  constructor(dir: string = defaultJournalDir()) {
    super(dir);
  }
}

export function defaultJournalDir(env: NodeJS.ProcessEnv = requestScope().env): string {
  return defaultStoreDir(env);
}

const scopes = new Map<number, string>();

/**
 * Identifies the Terraform run this handler belongs to: every provisioner of one
 * `terraform apply` is a child of the same Terraform process, so the parent's pid and
 * start time (from /proc, where there is one: pids are reused) name the run. Caches
 * keyed by it are never read by a later apply.
 */
export function applyScope(ppid: number = requestScope().ppid): string {
  let scope = scopes.get(ppid);
  if (scope === undefined) {
    let started = '';
    try {
      const stat = readFileSync(`/proc/${ppid}/stat`, 'utf8');
      // Field 22 (start time); the fields after the command name "(...)" start at field 3.
      started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
    } catch {
      // No /proc (macOS, Windows): the pid and the cache expiry have to do.
    }
    scope = `${ppid}@${started}`;
    scopes.set(ppid, scope);
  }
  return scope;
}
