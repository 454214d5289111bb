import type * as assumptions from '../../client/assumptions';
import type { RawAnswer } from './http';
import type { Shape } from './shapes';

/**
 * The parts every doctor fact is made of. A fact holds what the client assumes (or
 * requires) about the API's answers up against one live account, and names, as data,
 * the exported functions of src/client/assumptions.ts it checks. A fact is `held` when
 * the account's answers show it, `not held` when they contradict it, and `not
 * verifiable` when this account cannot show it (no such object, a member left out).
 * An assumption that no read can show (only the answer to a write, or an error, shows
 * it) still has a fact: `notReadOnly`, which records why; it is always not verifiable.
 *
 * Facts live in areas (facts-<area>.ts): an area reads what its facts need,
 * GETs only, and lists its facts. facts.ts registers the areas. To add a fact
 * for a new function of assumptions.ts:
 * - if an area already reads the answer that shows it, add one `assumedFact(...)` (or
 *   `notReadOnly(...)`) to that area's `facts`;
 * - if it needs a new read, add the read to the area's `read` (or make a new area
 *   module and register it in facts.ts), then the fact.
 * test/doctor/assumption-coverage.test.ts fails until every exported function has one,
 * and a row in the table of docs/live-testing.md ("reseller-hosting doctor").
 */

/** The name of an exported function of src/client/assumptions.ts: a misspelt or removed one does not compile. */
export type AssumptionName = keyof typeof assumptions;

export type FactStatus = 'held' | 'not held' | 'not verifiable';

/** A fact's answer for one account. */
export interface Verdict {
  readonly status: FactStatus;
  /** Why, in words that name fields and counts only: never a value read from the account. */
  readonly detail: string;
}

/** One line of the report's `assumptions`. */
export interface FactResult {
  /** The client function that holds the assumption (assumed), or the part of a read (documented). */
  readonly fact: string;
  readonly basis: 'assumed' | 'documented';
  readonly says: string;
  readonly status: FactStatus;
  readonly detail: string;
  /** The exported functions of src/client/assumptions.ts this fact checks (none for a documented fact). */
  readonly assumptions: readonly AssumptionName[];
}

export interface Fact<S> {
  /** The name in the report: the (first) assumption function it checks, or the part of a read it checks. */
  readonly fact: string;
  /** `assumed`: no public source shows it (api-notes); `documented`: a field the client requires. */
  readonly basis: 'assumed' | 'documented';
  /** What the client takes for granted, in one sentence. */
  readonly says: string;
  /** The exported functions of src/client/assumptions.ts this fact checks. */
  readonly assumptions: readonly AssumptionName[];
  /** Set when no read can show the assumption: why not. The fact is then always not verifiable. */
  readonly whyNotReadOnly?: string;
  check(sample: S): Verdict;
}

/** What every area may read, GETs only: the answers the setup checks already have, and a way to get more. */
export interface AccountReads {
  readonly resellerId: string;
  /** The body of GET /package (the key check's read). */
  readonly packageList: unknown;
  /** The body of GET /reseller/{id}/packageTypes (the reseller check's read). */
  readonly packageTypes: unknown;
  /** GET `path`: the answer whatever its status; undefined when none arrived. */
  answer(path: string): Promise<RawAnswer | undefined>;
  /** GET `path`: the body of a 2xx answer, else undefined. */
  body(path: string): Promise<unknown>;
  /** Puts one kind of object in the report's `account`: how many, and a shape (field names and types, never values). */
  found(kind: string, count: number, shape?: Shape): void;
}

/** One area of the account: what it reads, and the facts that read it. */
export interface DoctorArea<S> {
  /** Reads what the facts need: a bounded number of GETs. */
  read(api: AccountReads): Promise<S>;
  readonly facts: readonly Fact<S>[];
}

export const held = (detail: string): Verdict => ({ status: 'held', detail });
export const notHeld = (detail: string): Verdict => ({ status: 'not held', detail });
export const unknowable = (detail: string): Verdict => ({ status: 'not verifiable', detail });

/**
 * A fact that checks the named function(s) of assumptions.ts against what the area
 * read. The first name is the fact's name in the report.
 */
export function assumedFact<S>(checks: AssumptionName | readonly [AssumptionName, ...AssumptionName[]], says: string,
  check: (sample: S) => Verdict): Fact<S> {
  const names = typeof checks === 'string' ? [checks] : checks;
  return { fact: names[0], basis: 'assumed', says, assumptions: names, check };
}

/**
 * An assumption no read can show, with the reason (e.g. "only the answer to a write
 * shows it"). It counts as covered; the doctor reports it as not verifiable, giving
 * the reason, because it never writes and sends nothing the API would refuse.
 */
export function notReadOnly(assumption: AssumptionName, says: string, why: string): Fact<unknown> {
  return {
    fact: assumption, basis: 'assumed', says, assumptions: [assumption], whyNotReadOnly: why,
    check: () => notReadOnlyVerdict(why),
  };
}

/** The answer of a fact no read can show. */
export const notReadOnlyVerdict = (why: string): Verdict => unknowable(`${why}; the doctor sends GET requests only`);

/** A documented field the client requires: `fields` of each entry `entriesOf` gives, none missing or of another type. */
export function documentedFields<S>(fact: string, says: string, entriesOf: (s: S) => unknown[] | undefined, what: string,
  fields: Record<string, (v: unknown) => boolean>): Fact<S> {
  return {
    fact, basis: 'documented', says, assumptions: [],
    check(sample) {
      const entries = entriesOf(sample);
      if (!entries || entries.length === 0) return unknowable(`the account has no ${what}`);
      const bad = badFields(entries, fields);
      return bad.length ? notHeld(`missing or of another type: ${bad.join(', ')}`) : held(`${entries.length} ${what} read`);
    },
  };
}

/** Fields of `entries` that are missing or of the wrong type, as "field (n of m)". */
export function badFields(entries: readonly unknown[], fields: Record<string, (v: unknown) => boolean>): string[] {
  const out: string[] = [];
  for (const [field, ok] of Object.entries(fields)) {
    const bad = entries.filter((e) => !isObject(e) || !ok(e[field])).length;
    if (bad) out.push(`${field} (${bad} of ${entries.length})`);
  }
  return out;
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^[0-9]+$/.test(v));
export const isString = (v: unknown): v is string => typeof v === 'string';
/** A list's elements, or none when it is not a list. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** The id of a list entry as a path segment, or undefined. */
export const idOf = (entry: unknown): string | undefined => {
  const id = isObject(entry) ? entry.id : undefined;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
};
/** A path segment: `/package/${segment(id)}`. */
export const segment = encodeURIComponent;
