import type { Identity, Kind, SpecOf } from '../protocol';
import type { ReconcileContext } from './context';
import type { FieldDiff } from './diff';
import type { Observed } from './observed';

/** One live entry of a listed object, for drift's list of unmanaged objects. */
export interface LiveEntry {
  /** Its id in the API. */
  readonly id: string;
  /** One line about it (a forwarder's target, a server's size). */
  readonly detail: string;
}

/** A declared reference the account lacks (see KindReconciler.checkAccount): the spec field, and the rule it breaks. */
export interface AccountProblem {
  readonly field: string;
  readonly rule: string;
}

/** What a check against the account found (see KindReconciler.checkAccount). */
export interface AccountCheck {
  readonly problems: AccountProblem[];
  /** Computed facts the check's reads settle before the apply (a package type's id), by camelCase field. */
  readonly known?: Readonly<Record<string, unknown>>;
}

/** What `sweep` knows a listed object by (see KindReconciler.sweepNames). */
export interface SweepNames {
  /** The name it is shown by. */
  readonly shown: string;
  /** Every name that must carry a test run's prefix for the object to be deleted. */
  readonly names: readonly string[];
}

/**
 * What the core does for one kind: each `src/reconcile/<kind>.ts` exports one object
 * that `satisfies KindReconciler<K>`, registered in index.ts.
 */
export interface KindReconciler<K extends Kind> {
  /** The shared list whose read confirms a create of this object (ListCache.expect), if any. */
  confirmList?(spec: SpecOf<K>): string | undefined;
  /** Reads the object back by natural key (canonical identity); undefined when it does not exist. */
  observe(ctx: ReconcileContext, identity: Identity): Promise<Observed | undefined>;
  /**
   * The observed object as a declaration sees it, for a kind whose fields speak of part
   * of what the account holds (a package's free certificates: only the declared names,
   * unless the declaration is the whole list). The provider's refresh reads the object
   * this way, so that what the declaration leaves alone is never a difference. Absent: as observed.
   */
  asDeclared?(observed: Observed, declared: SpecOf<K>): Observed;
  /**
   * Every live object of the kind, through the context's list cache (`ctx.lists`): one
   * request per list it reads (shared with `observe` and the other kinds), plus one
   * mail read per domain for mail objects. `within`: the natural key of a parent (a
   * package's primary domain), when the caller wants only the objects it holds: a kind
   * with a parent may then read that parent's lists alone (it may also ignore it: the
   * caller filters what it gets).
   */
  list(ctx: ReconcileContext, within?: string): Promise<Observed[]>;
  /** The declared fields that differ from the observed object, semantically (references resolved). */
  diff(ctx: ReconcileContext, spec: SpecOf<K>, observed: Observed): Promise<FieldDiff[]>;
  /**
   * Creates, adopts or updates, and confirms by reading back. May return the object as
   * it confirmed it (then the entry's `ensure` reads it no more).
   */
  ensure(ctx: ReconcileContext, spec: SpecOf<K>): Promise<Observed | void>;
  /**
   * Replaces the object `previous` by `spec` in one write of the API, for kinds whose
   * definition declares `lifecycle.replacesInOneWrite` (and only with the fields it
   * keeps unchanged): the account never holds neither or both. Confirms by reading back.
   */
  replace?(ctx: ReconcileContext, previous: Identity, spec: SpecOf<K>): Promise<Observed | void>;
  /**
   * Deletes (idempotent); for a kind whose definition says `lifecycle.restoresDefaults`,
   * puts its settings back to the platform's defaults instead. `declared`: the object as
   * last declared, when the adapter knows it (the provider's prior state, the carriers'
   * configuration), for what the removal depends on (whether certificates are deleted).
   */
  remove(ctx: ReconcileContext, identity: Identity, declared?: SpecOf<K>): Promise<void>;
  /** Why an object of this identity is not among the listed ones, from the lists already read; undefined: no reason known. */
  whyMissing?(ctx: ReconcileContext, identity: Identity): Promise<string | undefined>;
  /** The live entries behind a listed object (a forwarder may have several targets), each with a line about it. */
  entries(observed: Observed): LiveEntry[];
  /**
   * The rules the declared references to what the account holds, and no plan creates
   * (a package type, a control-panel user by number), break: one per field the account lacks. Only the fields `checked`
   * says are checked (the provider: known when planning, and changed), so a value the
   * account no longer offers never blocks a plan that leaves it as it is. The provider
   * runs it when planning, so that a plan that cannot apply fails there, naming the field,
   * and so that what the references resolve to (`known`) shows in the plan.
   */
  checkAccount?(ctx: ReconcileContext, spec: SpecOf<K>, checked: (field: string) => boolean): Promise<AccountCheck>;
  /**
   * The names `sweep` matches a test run's prefix against, where they are not just the
   * natural key: a package's every domain (deleting it deletes the mail of all of them),
   * a DNS record's owner name.
   */
  sweepNames?(observed: Observed): SweepNames;
  /**
   * A listed object with what a declaration of it needs and the list does not show, for
   * `reseller-hosting import`: a fact only the object's own read gives (one request per
   * object), references named so that they find exactly what they name. Reads through
   * the context's lists. Absent: the listed object says it all.
   */
  declarable?(ctx: ReconcileContext, observed: Observed): Promise<Observed>;
}
