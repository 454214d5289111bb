import type { Account, Counters, Package, State } from '../backend/model';
import type { ApiContext, ControlContext } from '../context';
import type { Html, HtmlValue } from '../page/html';
import type { Router } from '../router';
import type { AccountDump, PackageDump } from '../snapshot';
import type { Check } from '../shape';

/**
 * The registry of API nouns: everything the emulator knows about one noun of the API
 * (users, packages, mail, DNS, cloud servers, …) is one `ApiNoun`, in its own folder
 * `nouns/<name>/` (index.ts the definition; model.ts, backend.ts, routes.ts,
 * assumed.ts, page.ts as it needs), and one line of nouns/index.ts registers it; one
 * line of src/emulator/index.ts exports its dump types to library users. The core
 * (server, fixtures, data file, state dump, control API, page) knows no noun: it asks
 * the registry. docs/emulator.md, "Adding an API noun", walks through it.
 *
 * A noun brings, each optional:
 * - `counters`: global id counters it draws from, with their first values;
 * - `account`, `package`: its members of an account or of a package (the scope most
 *   nouns hang on): their fresh value, their structural check (which also names the
 *   members it owns) and their part of the state dump. The types are added to
 *   `Account` / `Package` / `Counters` (backend/model.ts) and `AccountDump` /
 *   `PackageDump` (snapshot.ts) by declaration merging in the noun's model.ts;
 * - `since`: the state version in which its members appeared, or in which it last
 *   grew one (autoresponders in mail). The current version is the highest `since`; a
 *   data file of an older version gets the fresh values of the members it lacks on load
 *   (persistence.ts), one of the current version must have them all;
 * - `routes`, `control`: its API routes and its control-API extras under /__emulator/;
 * - `on`: what it does when another noun changes a package (a name removed, a package
 *   deleted), so that packages need not know mail, DNS or grants;
 * - `page`: its figures and its section of the control-panel page.
 *
 * Assumed behaviours stay behind one function each, in the noun's assumed.ts; what the
 * `documented` profile leaves out is decided there and in its routes (`withAssumed`).
 *
 * Registration order is the order of the page's sections and figures, and of events.
 * Registering checks that no member or counter is claimed twice. Tests may register a
 * noun of their own (before starting an emulator): it then takes part in everything.
 */
export interface ApiNoun {
  /** Unique, e.g. `mail`. */
  readonly name: string;
  /** State version in which its members appeared or it last grew one (see above). @default 1 */
  readonly since?: number;
  /** Counter name -> first value, e.g. `{ mailId: 1 }` (`state.counters`). */
  readonly counters?: Readonly<Record<string, number>>;
  /** Its members of every account. */
  readonly account?: Slice<NewAccount, Account, AccountDump>;
  /** Its members of every package. */
  readonly package?: Slice<NewPackage, Package, PackageDump>;
  /** Adds its routes of the reseller API. */
  routes?(router: Router<ApiContext>): void;
  /** Adds its routes of the control API (`/__emulator/…`, loopback only, no key). */
  control?(router: Router<ControlContext>): void;
  /** Reactions to changes made by another noun. */
  readonly on?: NounEvents;
  readonly page?: PageFacet;
}

/** A noun's members of one parent (an account or a package). */
export interface Slice<Origin, Parent, Dump> {
  /**
   * A member's structural check (see shape.ts), per member: the keys are the members
   * the noun owns, checked when a data file is loaded.
   */
  readonly check: Readonly<Record<string, Check>>;
  /**
   * The members of a new parent (fixtures), and of a parent in a data file older than
   * the noun (`since`). Left out when the members come from the request that creates
   * the parent (the packages noun's own).
   */
  fresh?(origin: Origin): Partial<Parent>;
  /** Its members of the parent's state dump (secret-free). */
  dump?(parent: Parent, at: DumpContext): Partial<Dump>;
}

/** A new account: its core members are set (and those of nouns registered earlier). */
export interface NewAccount {
  state: State;
  account: Account;
  /** The first account of a fresh state, the default account: fixtures may use well-known ids. */
  first: boolean;
}

/** A new package of `account`, not yet in `account.packages`; its id and names are set. */
export interface NewPackage {
  state: State;
  account: Account;
  pkg: Package;
}

export interface DumpContext {
  state: State;
  account: Account;
  /** The emulator's clock, epoch milliseconds. */
  nowMs: number;
  /** Provisioning delay in force now. */
  provisionDelayMs: number;
}

/** Changes one noun makes that others may depend on (inside the request's transaction). */
export interface NounEvents {
  /** A package lost `removed` names (`pkg.names` is already the new list) or gained some (`removed` empty). */
  packageNamesChanged?(change: { state: State; account: Account; pkg: Package; removed: readonly string[] }): void;
  /** A package was deleted (it is already out of `account.packages`). */
  packageDeleted?(change: { state: State; account: Account; pkg: Package }): void;
}

/** A noun's part of the control-panel page (src/emulator/page), rendered from the state dump. */
export interface PageFacet {
  /** Figures of the account summary; those with `listCell` are also a column of the account list. */
  readonly figures?: readonly PageFigure[];
  /** Its section of an account's page. */
  section?(account: AccountDump): Html;
  /** While something of the account is in progress: a sentence saying what (the page then reloads itself). */
  pending?(account: AccountDump): string | undefined;
}

export interface PageFigure {
  label: string;
  value(account: AccountDump): HtmlValue;
  listCell?(account: AccountDump): HtmlValue;
}

// ---------------------------------------------------------------------------------

/** The version of the first data files (before any noun declared a `since`). */
export const FIRST_STATE_VERSION = 1;

/** Members of the core (backend/model.ts): no noun may claim them. */
const CORE_MEMBERS = {
  account: ['id', 'keySha256', 'balanceCents', 'brand', 'packages'],
  package: ['id', 'names'],
} as const;

const registered: ApiNoun[] = [];

/** Adds a noun; throws when its name, a member or a counter is taken, or its `since` is not an integer >= 1. */
export function registerApiNoun(noun: ApiNoun): void {
  const since = noun.since ?? FIRST_STATE_VERSION;
  if (!Number.isInteger(since) || since < FIRST_STATE_VERSION) throw new Error(`API noun "${noun.name}": since must be an integer >= ${FIRST_STATE_VERSION}`);
  if (registered.some((n) => n.name === noun.name)) throw new Error(`API noun "${noun.name}" is registered already`);
  const claims: Array<[string, readonly string[], (n: ApiNoun) => readonly string[]]> = [
    ['counter', [], (n) => Object.keys(n.counters ?? {})],
    ['account member', CORE_MEMBERS.account, (n) => Object.keys(n.account?.check ?? {})],
    ['package member', CORE_MEMBERS.package, (n) => Object.keys(n.package?.check ?? {})],
  ];
  for (const [what, core, of] of claims) {
    for (const key of of(noun)) {
      const owner = core.includes(key) ? 'the core' : registered.find((n) => of(n).includes(key))?.name;
      if (owner) throw new Error(`API noun "${noun.name}": ${what} "${key}" belongs to ${owner}`);
    }
  }
  for (const scope of ['account', 'package'] as const) {
    if (since > FIRST_STATE_VERSION && noun[scope] && !noun[scope]?.fresh) {
      throw new Error(`API noun "${noun.name}": its ${scope} members need fresh(), to upgrade data files older than version ${since}`);
    }
  }
  registered.push(noun);
}

/** Every registered noun, in registration order. */
export function apiNouns(): readonly ApiNoun[] {
  return registered;
}

/** The current version of the state's shape: the highest `since`. */
export function stateVersion(): number {
  return Math.max(FIRST_STATE_VERSION, ...registered.map((n) => n.since ?? FIRST_STATE_VERSION));
}

/** The nouns a state of `version` has no members of yet. */
export function nounsNewerThan(version: number): readonly ApiNoun[] {
  return registered.filter((n) => (n.since ?? FIRST_STATE_VERSION) > version);
}

/** The first value of every counter of `nouns`. */
export function freshCounters(nouns: readonly ApiNoun[] = registered): Counters {
  return Object.assign({}, ...nouns.map((n) => n.counters ?? {})) as Counters;
}

/**
 * Gives an account the members of `nouns` it lacks (all of them for a new account), in
 * order. A noun whose members are all there is not asked: `fresh` may draw ids.
 */
export function addAccountMembers(origin: NewAccount, nouns: readonly ApiNoun[] = registered): void {
  for (const noun of nouns) addMissing(origin.account, noun.account, origin);
}

/** Gives a package the members of `nouns` it lacks and that have fresh values, in order. */
export function addPackageMembers(origin: NewPackage, nouns: readonly ApiNoun[] = registered): void {
  for (const noun of nouns) addMissing(origin.pkg, noun.package, origin);
}

/**
 * Only the missing members: a noun that grows a member (autoresponders in mail) raises
 * its `since`, and an older file gets the new member without losing the others.
 */
function addMissing<O, P extends object>(parent: P, slice: Slice<O, P, unknown> | undefined, origin: O): void {
  const missing = Object.keys(slice?.check ?? {}).filter((member) => !(member in parent));
  if (missing.length === 0 || !slice?.fresh) return;
  const members = slice.fresh(origin) as Record<string, unknown>;
  for (const member of missing) if (member in members) (parent as Record<string, unknown>)[member] = members[member];
}

/** The first of the nouns' members of `parent` that is missing or malformed, or undefined. */
export function badMember(scope: 'account' | 'package', parent: Record<string, unknown>): string | undefined {
  for (const noun of registered) {
    for (const [member, check] of Object.entries(noun[scope]?.check ?? {})) if (!check(parent[member])) return member;
  }
  return undefined;
}

/** The nouns' members of an account's dump. */
export function dumpAccountMembers(account: Account, at: DumpContext): Partial<AccountDump> {
  return Object.assign({}, ...registered.map((n) => n.account?.dump?.(account, at) ?? {}));
}

/** The nouns' members of a package's dump. */
export function dumpPackageMembers(pkg: Package, at: DumpContext): Partial<PackageDump> {
  return Object.assign({}, ...registered.map((n) => n.package?.dump?.(pkg, at) ?? {}));
}

export function addApiRoutes(router: Router<ApiContext>): void {
  for (const noun of registered) noun.routes?.(router);
}

export function addControlRoutes(router: Router<ControlContext>): void {
  for (const noun of registered) noun.control?.(router);
}

/** Tells every noun that listens about a change (in registration order). */
export function announce<E extends keyof NounEvents>(event: E, change: Parameters<NonNullable<NounEvents[E]>>[0]): void {
  for (const noun of registered) (noun.on?.[event] as ((c: typeof change) => void) | undefined)?.(change);
}

/** The nouns' parts of the control-panel page, in order. */
export function pageFacets(): readonly PageFacet[] {
  return registered.flatMap((n) => (n.page ? [n.page] : []));
}
