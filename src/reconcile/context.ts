import { createHash } from 'node:crypto';
import type { ResellerClient } from '../client';
import type { MailboxSpec } from '../protocol';
import { memoryStore, Store } from './store';

/** How long the core waits, and how often it looks (DESIGN §3: every write is read back). */
export interface Timing {
  /** How long a write may take to become visible before it is written again. @default 30000 */
  readonly confirmTimeoutMs: number;
  /** Interval between reads while a cloud server provisions. @default 2000 */
  readonly pollIntervalMs: number;
  /** A progress line at least this often during long waits. @default 15000 */
  readonly progressIntervalMs: number;
}

export const DEFAULT_TIMING: Timing = { confirmTimeoutMs: 30_000, pollIntervalMs: 2_000, progressIntervalMs: 15_000 };

/**
 * What an ensure knows of earlier ensures of the same object. The provisioner carriers
 * replace a settings resource on every settings change, and its create-time ensure
 * cannot otherwise tell "first ensure" from "settings changed" (see the handler's
 * retired.ts); a provider knows it from Create vs Update.
 * - `replaced` undefined: the object's first ensure (set the declared password; order
 *   a missing cloud server);
 * - `replaced` set: the object existed; the password is set only when its version
 *   changed, and a missing cloud server is reported, not ordered again.
 * No history at all (drift --fix): the mailbox's password is kept.
 */
export interface EnsureHistory {
  readonly replaced?: { readonly passwordVersion?: number };
}

/** Everything a reconcile needs. No ambient state: two contexts never share anything but the store. */
export interface ReconcileContext {
  readonly client: ResellerClient;
  /** One line per action. */
  info(line: string): void;
  /** Warnings. */
  warn(line: string): void;
  /** The password to set on a mailbox, if one is given (never printed). */
  password(spec: MailboxSpec): string | undefined;
  readonly timing: Timing;
  readonly store: Store;
  /** Names the account in store entries (a hash: the key never reaches disk). */
  readonly accountScope: string;
  /** Names the run (one terraform apply) in store entries: caches of one run are never read by the next. */
  readonly runScope: string;
  readonly history?: EnsureHistory;
  /** The list reads of this context (see lists.ts). */
  readonly lists: ListCache;
}

export interface ContextOptions {
  readonly client: ResellerClient;
  readonly info?: (line: string) => void;
  readonly warn?: (line: string) => void;
  /** A fixed password for every mailbox, or a function of the mailbox spec. */
  readonly password?: string | ((spec: MailboxSpec) => string | undefined);
  readonly timing?: Partial<Timing>;
  /** @default a store in memory */
  readonly store?: Store;
  /** @default a hash of the client's base URL and reseller id */
  readonly accountScope?: string;
  /** @default 'process-<pid>' */
  readonly runScope?: string;
  readonly history?: EnsureHistory;
}

/**
 * Per-context cache of list reads: observing N objects of a kind costs one list request
 * (plus one mail read per domain). `ensure` and `remove` clear it: a write makes every
 * list stale.
 */
export class ListCache {
  readonly #entries = new Map<string, Promise<unknown>>();

  get<T>(name: string, read: () => Promise<T>): Promise<T> {
    let entry = this.#entries.get(name) as Promise<T> | undefined;
    if (!entry) {
      entry = read();
      this.#entries.set(name, entry);
      entry.catch(() => this.#entries.delete(name));
    }
    return entry;
  }

  clear(): void {
    this.#entries.clear();
  }
}

export function accountScope(baseUrl: string, resellerId: string, apiKey: string): string {
  return createHash('sha256').update(`${baseUrl}\n${resellerId}\n${apiKey}`).digest('hex').slice(0, 24);
}

export function createContext(options: ContextOptions): ReconcileContext {
  const { client, password } = options;
  return {
    client,
    info: options.info ?? (() => undefined),
    warn: options.warn ?? (() => undefined),
    password: typeof password === 'function' ? password : () => password || undefined,
    timing: { ...DEFAULT_TIMING, ...options.timing },
    store: options.store ?? memoryStore(),
    accountScope: options.accountScope ?? createHash('sha256').update(`${client.baseUrl}\n${client.resellerId}`).digest('hex').slice(0, 24),
    runScope: options.runScope ?? `process-${process.pid}`,
    history: options.history,
    lists: new ListCache(),
  };
}

/** A context like `ctx` with another history (one object's ensure). */
export function withHistory(ctx: ReconcileContext, history: EnsureHistory | undefined): ReconcileContext {
  return { ...ctx, history };
}

/** Timing from `RESELLER_CONFIRM_TIMEOUT_MS`, `RESELLER_POLL_INTERVAL_MS`, `RESELLER_PROGRESS_INTERVAL_MS` (tests shorten them). */
export function timingFromEnv(env: NodeJS.ProcessEnv): Timing {
  const ms = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    confirmTimeoutMs: ms('RESELLER_CONFIRM_TIMEOUT_MS', DEFAULT_TIMING.confirmTimeoutMs),
    pollIntervalMs: ms('RESELLER_POLL_INTERVAL_MS', DEFAULT_TIMING.pollIntervalMs),
    progressIntervalMs: ms('RESELLER_PROGRESS_INTERVAL_MS', DEFAULT_TIMING.progressIntervalMs),
  };
}
