import { createHash } from 'node:crypto';
import type { ResellerClient } from '../client';
import type { ObjectSpec } from '../protocol';
import { durationFromEnv } from '../protocol';
import { ListCache } from './list-cache';
import { memoryStore, Store } from './store';

export { ListCache } from './list-cache';

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
 * - `replaced` undefined: the object's first ensure (set the declared secret, a
 *   mailbox's password; order a missing cloud server);
 * - `replaced` set: the object existed; the secret is set only when its version
 *   (`secretVersion`, the kind's secret facet) changed, and a missing cloud server is
 *   reported, not ordered again.
 * No history at all (drift --fix): an existing object keeps its secret.
 */
export interface EnsureHistory {
  readonly replaced?: { readonly secretVersion?: number };
}

/** Everything a reconcile needs. No ambient state: two contexts never share anything but the store. */
export interface ReconcileContext {
  readonly client: ResellerClient;
  /** One line per action. */
  info(line: string): void;
  /** Warnings. */
  warn(line: string): void;
  /** The secret to set on an object whose kind has one (a mailbox's password), if one is given (never printed). */
  secret(spec: ObjectSpec): string | undefined;
  readonly timing: Timing;
  readonly store: Store;
  /** Names the account in store entries (a hash: the key never reaches disk). */
  readonly accountScope: string;
  /** Names the run (one terraform apply) in store entries: caches of one run are never read by the next. */
  readonly runScope: string;
  readonly history?: EnsureHistory;
  /** The list reads of this context (see ListCache). */
  readonly lists: ListCache;
  /**
   * Within one `ensure` with shared lists: list name -> the tick after which a read of
   * it shows the object as confirmed (set when a create is confirmed through a shared
   * list, cleared by any later write), so that the final read-back reuses the
   * confirming read. See `ensure` in index.ts.
   */
  readonly confirmed?: Map<string, number>;
  /**
   * A read-only pass over the whole account (drift): every list is read at most once,
   * through `lists`, the reference look-ups (package types, users) included, so that
   * the pass costs one request per list and per mail domain.
   */
  readonly oneReadPerList?: boolean;
  /** How many reads a `list` keeps in flight at once (the mail of many domains). */
  readonly readsAtOnce: number;
  /**
   * Aborted when the caller is asked to stop (the provider, on Terraform's StopProvider
   * after a Ctrl-C): every wait (a cloud server's provisioning, a read-back) ends at once
   * with a StoppedError instead of running to its deadline.
   */
  readonly stop?: AbortSignal;
}

export interface ContextOptions {
  readonly client: ResellerClient;
  readonly info?: (line: string) => void;
  readonly warn?: (line: string) => void;
  /** A fixed secret for every object whose kind has one, or a function of the spec. */
  readonly secret?: string | ((spec: ObjectSpec) => string | undefined);
  readonly timing?: Partial<Timing>;
  /** @default a store in memory */
  readonly store?: Store;
  /** @default a hash of the client's base URL and reseller id */
  readonly accountScope?: string;
  /** @default 'process-<pid>' */
  readonly runScope?: string;
  /**
   * One context serves many objects at once (a provider process): list reads are
   * shared, and creates confirm through them (see ListCache). @default false
   */
  readonly sharedReads?: boolean;
  readonly history?: EnsureHistory;
  /** See ReconcileContext.oneReadPerList. @default false */
  readonly oneReadPerList?: boolean;
  /** See ReconcileContext.readsAtOnce. @default 8 */
  readonly readsAtOnce?: number;
  /** See ReconcileContext.stop. */
  readonly stop?: AbortSignal;
}

/** Reads a `list` keeps in flight at once, unless the context says otherwise. */
export const DEFAULT_READS_AT_ONCE = 8;

export function accountScope(baseUrl: string, resellerId: string, apiKey: string): string {
  return createHash('sha256').update(`${baseUrl}\n${resellerId}\n${apiKey}`).digest('hex').slice(0, 24);
}

export function createContext(options: ContextOptions): ReconcileContext {
  const { client, secret } = options;
  return {
    client,
    info: options.info ?? (() => undefined),
    warn: options.warn ?? (() => undefined),
    secret: typeof secret === 'function' ? secret : () => secret || undefined,
    timing: { ...DEFAULT_TIMING, ...options.timing },
    store: options.store ?? memoryStore(),
    accountScope: options.accountScope ?? createHash('sha256').update(`${client.baseUrl}\n${client.resellerId}`).digest('hex').slice(0, 24),
    runScope: options.runScope ?? `process-${process.pid}`,
    history: options.history,
    lists: new ListCache(options.sharedReads ?? false),
    oneReadPerList: options.oneReadPerList,
    readsAtOnce: options.readsAtOnce ?? DEFAULT_READS_AT_ONCE,
    stop: options.stop,
  };
}

/** A context like `ctx` with another history (one object's ensure). */
export function withHistory(ctx: ReconcileContext, history: EnsureHistory | undefined): ReconcileContext {
  return { ...ctx, history };
}

/**
 * Timing from `RESELLER_CONFIRM_TIMEOUT` and `RESELLER_POLL_INTERVAL` (durations, as the
 * provider block takes them; the former `..._MS` spellings for one release, each
 * use told to `warn`) and `RESELLER_PROGRESS_INTERVAL_MS` (tests shorten them).
 */
export function timingFromEnv(env: NodeJS.ProcessEnv, warn?: (message: string) => void): Timing {
  const ms = (name: string, fallback: number) => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    confirmTimeoutMs: durationFromEnv(env, 'confirmTimeout', warn) ?? DEFAULT_TIMING.confirmTimeoutMs,
    pollIntervalMs: durationFromEnv(env, 'pollInterval', warn) ?? DEFAULT_TIMING.pollIntervalMs,
    progressIntervalMs: ms('RESELLER_PROGRESS_INTERVAL_MS', DEFAULT_TIMING.progressIntervalMs),
  };
}
