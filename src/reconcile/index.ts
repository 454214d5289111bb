/**
 * The engine-independent core (DESIGN §6): per kind, the live mapping, the diff and
 * ensure / update / delete / observe over the client. Adapters (handler, provider,
 * drift) call this entry only; they never reach into the kind modules.
 *
 * ```ts
 * import { createContext, observe, diff, ensure, remove } from '../reconcile';
 * const ctx = createContext({ client, info: log, warn: log, secret: (spec) => password });
 * const live = await observe(ctx, identity);              // undefined: not in the account
 * const changes = live ? await diff(ctx, spec, live) : []; // declared vs live, semantically
 * const confirmed = await ensure(ctx, spec);               // create/adopt, write what differs, read back
 * await remove(ctx, identity);                             // idempotent; cloud servers are retained (warned)
 * const every = await list(ctx, 'mailbox');                // every live mailbox, as observe gives it
 * ```
 *
 * - The context carries everything: client, output, the source of objects' secrets,
 *   timing knobs, a store (the handler's journal, or memory) and, for one object's
 *   ensure, its history (`withHistory`). No ambient request scope.
 * - List reads are cached per context (`ctx.lists`): observing N objects makes one list
 *   request per kind, plus one mail read per domain; `ensure` and `remove` clear them.
 * - Errors meant for the user are `ReconcileError`s naming the path and the rule.
 * - An object's secret (a mailbox's password: the kind's secret facet) is set by
 *   `ensure` when the context's history says so (context.ts, EnsureHistory, and
 *   secret.ts): `history: {}` for a first ensure (Create: set the declared secret),
 *   `{ replaced: { secretVersion: old } }` for a later one (set it only when the version
 *   changed); no history (drift --fix): an existing object keeps its secret.
 *   `withHistory(ctx, history)` gives one object's ensure its own.
 */
import type { Identity, Kind, ObjectSpec } from '../protocol';
import { definitionOf, describeObject } from '../protocol';
import type { ReconcileContext } from './context';
import { cloudServerReconciler } from './cloud-server';
import { dnsRecordReconciler } from './dns-record';
import type { FieldDiff } from './diff';
import { forwarderReconciler } from './forwarder';
import type { AccountCheck, KindReconciler, LiveEntry, SweepNames } from './kind';
import { mailboxReconciler } from './mailbox';
import { mysqlDatabaseReconciler } from './mysql-database';
import { ReconcileError } from './errors';
import type { Observed } from './observed';
import { packageReconciler } from './package';
import { stackUserReconciler } from './stack-user';
import { webSettingsReconciler } from './web-settings';
import { domainNameserversReconciler } from './domain-nameservers';
import { domainTransferLockReconciler } from './domain-transfer-lock';
import { autoresponderReconciler } from './autoresponder';

export {
  accountScope, createContext, DEFAULT_TIMING, ListCache, timingFromEnv, withHistory,
} from './context';
export type { ContextOptions, EnsureHistory, ReconcileContext, Timing } from './context';
export { memoryStore } from './store';
export { defaultStoreDir, FileStore } from './file-store';
export type { Store } from './store';
export { ReconcileError, StoppedError, UnknownReference } from './errors';
export { sleep } from './wait';
export { secretDue } from './secret';
export type { SecretDue } from './secret';
export type { Observed } from './observed';
export { describeDiffs, formatValue, sameSet } from './diff';
export type { FieldDiff } from './diff';
export type { AccountCheck, AccountProblem, KindReconciler, LiveEntry, SweepNames } from './kind';
export { cloudServerBrand, listPackageTypes, packageDomainOf, packageDomains, packageWebIpv4, readDnsZones, readMailDomain, readMysqlDatabases } from './account';
export { findDatabase } from './mysql-database';
export { readAvailablePhpVersions, readCertificates, readPhpVersion } from './web-settings';
export { listedRegistrations, registrationNameservers, registrationTransferAllowed } from './domains';

/** The registration of every kind's reconciler (the compiler asks for one per kind). */
const BUILT_IN: { [K in Kind]: KindReconciler<K> } = {
  package: packageReconciler,
  mailbox: mailboxReconciler,
  forwarder: forwarderReconciler,
  'cloud-server': cloudServerReconciler,
  'stack-user': stackUserReconciler,
  'dns-record': dnsRecordReconciler,
  'web-settings': webSettingsReconciler,
  'domain-nameservers': domainNameserversReconciler,
  'domain-transfer-lock': domainTransferLockReconciler,
  autoresponder: autoresponderReconciler,
  'mysql-database': mysqlDatabaseReconciler,
};

const RECONCILERS = new Map<string, KindReconciler<any>>(Object.entries(BUILT_IN)); // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Registers the reconciler of a kind registered with `registerKind` (protocol): the
 * kinds of this package are in the table above; a kind defined elsewhere (the test-only
 * kind of the contract suite) registers its reconciler here.
 */
export function registerReconciler(kind: string, reconciler: KindReconciler<any>): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (RECONCILERS.has(kind)) throw new Error(`the reconciler of ${JSON.stringify(kind)} is registered already`);
  RECONCILERS.set(kind, reconciler);
}

function reconcilerOf<K extends Kind>(kind: K): KindReconciler<K> {
  const reconciler = RECONCILERS.get(kind);
  if (!reconciler) throw new Error(`no reconciler is registered for kind ${JSON.stringify(kind)}`);
  return reconciler as KindReconciler<K>;
}

/**
 * Reads the object back by natural key; undefined when it does not exist. With
 * `declared` (a provider's refresh), as that declaration sees it (KindReconciler.asDeclared).
 */
export async function observe(ctx: ReconcileContext, identity: Identity, declared?: ObjectSpec): Promise<Observed | undefined> {
  const reconciler = reconcilerOf(identity.kind);
  const found = await reconciler.observe(ctx, definitionOf(identity.kind).canonicalIdentity(identity));
  return found && declared && reconciler.asDeclared && declared.kind === identity.kind ? reconciler.asDeclared(found, declared as never) : found;
}

/**
 * Every live object of `kind` in the account, each as `observe` gives it (identity
 * canonical, `liveId` its id in the API). Reads go through the context's list cache
 * (`ctx.lists`), so they cost one request per list, shared with `observe` and with the
 * lists of the other kinds, plus one mail read per domain for mailboxes and forwarders
 * (at most `ctx.readsAtOnce` at once). With `oneReadPerList` (drift) the reference
 * look-ups of `diff` read the same lists.
 *
 * ```ts
 * const ctx = createContext({ client, oneReadPerList: true });
 * for (const def of DEFINITIONS) for (const o of await list(ctx, def.kind)) console.log(o.kind, o.identity.key, o.liveId);
 * ctx.lists.reads;   // the requests the pass made
 * ```
 */
export function list(ctx: ReconcileContext, kind: Kind, options: ListOptions = {}): Promise<Observed[]> {
  return reconcilerOf(kind).list(ctx, options.within);
}

/** Options of `list`. */
export interface ListOptions {
  /**
   * Only the objects of this parent (its natural key: a package's primary domain), for a
   * kind with a parent: its reconciler may read that parent's lists alone. The result
   * may still hold others; filter it.
   */
  readonly within?: string;
}

/** Why no listed object has `identity` (its package is gone, the name is another's extra domain...), from the lists already read. */
export async function whyMissing(ctx: ReconcileContext, identity: Identity): Promise<string | undefined> {
  return reconcilerOf(identity.kind).whyMissing?.(ctx, identity);
}

/** The live entries behind a listed object, one line each (what drift shows of an unmanaged object). */
export function liveEntries(observed: Observed): LiveEntry[] {
  return reconcilerOf(observed.kind).entries(observed);
}

/** The declared references of `spec` the account lacks, among the fields `checked` selects, and what they resolve to (KindReconciler.checkAccount). */
export async function checkAccount(ctx: ReconcileContext, spec: ObjectSpec, checked: (field: string) => boolean): Promise<AccountCheck> {
  return (await reconcilerOf(spec.kind).checkAccount?.(ctx, spec as never, checked)) ?? { problems: [] };
}

/** The names `sweep` shows a listed object by and matches its prefix against: by default its natural key, for both. */
export function sweepNames(observed: Observed): SweepNames {
  return reconcilerOf(observed.kind).sweepNames?.(observed) ?? { shown: observed.identity.key, names: [observed.identity.key] };
}

/**
 * A listed object as a declaration of it would state it (KindReconciler.declarable):
 * what `reseller-hosting import` writes. The object itself when its list says it all.
 */
export async function declarable(ctx: ReconcileContext, observed: Observed): Promise<Observed> {
  return (await reconcilerOf(observed.kind).declarable?.(ctx, observed)) ?? observed;
}

/** The declared fields that differ from the observed object (empty: in sync), compared semantically. */
export function diff(ctx: ReconcileContext, spec: ObjectSpec, observed: Observed): Promise<FieldDiff[]> {
  return reconcilerOf(spec.kind).diff(ctx, spec as never, observed);
}

/** The list a create of `spec` is confirmed through, and its key there (undefined: confirmed on its own). */
function expectation(spec: ObjectSpec): { list: string; key: string } | undefined {
  const list = reconcilerOf(spec.kind).confirmList?.(spec as never);
  return list ? { list, key: definitionOf(spec.kind).identity(spec as never).key } : undefined;
}

/**
 * With shared lists (a provider): a create of this object is about to start (Terraform
 * planned it in this process). Confirmations of concurrent creates on the same list
 * wait for it (briefly), so that one read confirms both: a package's mailbox and
 * forwarder (packages confirm by their own detail read: see package.ts). `ensure` of
 * the object ends the expectation.
 */
export function expectCreate(ctx: ReconcileContext, spec: ObjectSpec): void {
  const expected = ctx.lists.shared ? expectation(spec) : undefined;
  if (expected) ctx.lists.expect(expected.list, expected.key);
}

/**
 * Creates, adopts or updates the object so that it is as declared, and confirms it by
 * reading back (converge). Does not read the object once more at the end: `ensure`
 * does that for adapters that need the confirmed object (unless the kind's ensure
 * returned it as it confirmed it).
 */
export async function reconcile(ctx: ReconcileContext, spec: ObjectSpec, options: EnsureOptions = {}): Promise<void> {
  await reconciled(ctx, spec, options);
}

/** Options of `ensure`. */
export interface EnsureOptions {
  /**
   * The object this one replaces (its identity before the change), for a kind whose
   * definition declares `lifecycle.replacesInOneWrite`: the kind's `replace` makes the
   * change in one write. Only with the fields the facet keeps unchanged.
   */
  readonly replacing?: Identity;
}

/** `reconcile`, and the object if the kind's ensure returned it as it confirmed it. */
async function reconciled(ctx: ReconcileContext, spec: ObjectSpec, options: EnsureOptions = {}): Promise<Observed | undefined> {
  const expected = ctx.lists.shared ? expectation(spec) : undefined;
  // Its own write now counts as in flight (ListCache.writing) from its first request on.
  if (expected) ctx.lists.settle(expected.list, expected.key);
  const reconciler = reconcilerOf(spec.kind);
  try {
    if (options.replacing) {
      if (!reconciler.replace) throw new ReconcileError(`${spec.path}: a ${definitionOf(spec.kind).label} cannot be replaced in one write`);
      return (await reconciler.replace(ctx, options.replacing, spec as never)) ?? undefined;
    }
    return (await reconciler.ensure(ctx, spec as never)) ?? undefined;
  } finally {
    // Shared lists (a provider) stay: later reads that must see this write ask for a read started after it.
    if (!ctx.lists.shared) ctx.lists.clear();
  }
}

/** `reconcile`, then the object as the account now shows it. */
export async function ensure(ctx: ReconcileContext, spec: ObjectSpec, options: EnsureOptions = {}): Promise<Observed> {
  const confirmed = new Map<string, number>();
  const confirmedObject = await reconciled(ctx.lists.shared ? { ...ctx, confirmed } : ctx, spec, options);
  if (confirmedObject) return confirmedObject;
  const identity = definitionOf(spec.kind).identity(spec as never);
  // With shared lists, the object as confirmed: a create confirmed through a shared list
  // reuses that read (other lists were not written); otherwise, reads started after the
  // last write (concurrent ensures share them).
  const end = ctx.lists.tick();
  const lists = !ctx.lists.shared ? ctx.lists : confirmed.size ? ctx.lists.since((name) => confirmed.get(name) ?? 0) : ctx.lists.since(end);
  const live = await observe({ ...ctx, lists }, identity);
  if (!live) throw new ReconcileError(`${spec.path}: ${describeObject(identity)} was ensured but is not listed (yet); apply again`);
  return live;
}

/** Options of `remove`. */
export interface RemoveOptions {
  /** The construct path or resource address, named in an error. */
  readonly path?: string;
  /**
   * The object as last declared, when the adapter knows it (the provider's prior state):
   * what a removal that restores defaults depends on (KindReconciler.remove).
   */
  readonly declared?: ObjectSpec;
}

/**
 * Deletes the object, found by its identity; nothing to do when it is gone. Cloud
 * servers are retained (warned). `path` (construct path or resource address), when the
 * adapter knows it, is named in the error: an identity alone names only the natural key.
 */
export async function remove(ctx: ReconcileContext, identity: Identity, options: RemoveOptions = {}): Promise<void> {
  const declared = options.declared?.kind === identity.kind ? options.declared : undefined;
  try {
    await reconcilerOf(identity.kind).remove(ctx, identity, declared as never);
  } catch (err) {
    const { path } = options;
    if (!path || !(err instanceof Error) || err.message.startsWith(`${path}:`)) throw err;
    throw new ReconcileError(`${path}: delete ${describeObject(identity)}: ${err.message}`);
  } finally {
    ctx.lists.clear();
  }
}

/** The 0.1 commands (`handler update`, `handler set-password`): see legacy.ts. */
export { legacy } from './legacy';
