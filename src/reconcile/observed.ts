import type { Identity, Kind } from '../protocol';
import { definitionOf } from '../protocol';

/**
 * An object as read back from the account, in the kind's spec fields (canonical form)
 * plus computed facts. Fields the API cannot read back (create-only, write-only, some
 * settings) are absent from `fields` and listed in `unverifiable`; so is a field the
 * API did not return (tolerant reader, DESIGN §3).
 */
export interface Observed {
  readonly kind: Kind;
  readonly identity: Identity;
  /** Spec field name -> live value, for the readable fields. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Computed field name -> value (ids, refs). */
  readonly computed: Readonly<Record<string, unknown>>;
  /** Declared fields whose live value cannot be known. */
  readonly unverifiable: readonly string[];
  /** Its id in the API (package or server number, mail id(s) joined with `,`, `stack-user:N`). */
  readonly liveId: string;
  /**
   * Set by an `ensure` only: elements of a set field (its definition's `pending` facet)
   * that the apply asked for and the service has not applied yet (a certificate being
   * issued), by field name. The provider remembers them, so that they are not drift.
   */
  readonly pending?: Readonly<Record<string, readonly string[]>>;
}

/** Builds an Observed: `unverifiable` = the kind's unreadable fields plus those absent from `fields`. */
export function observed(
  identity: Identity, liveId: string | number, fields: Record<string, unknown>, computed: Record<string, unknown>, missing: string[] = [],
): Observed {
  const unreadable = definitionOf(identity.kind).fields
    .filter((f) => !f.readable && f.role !== 'computed' && !f.carrierOnly)
    .map((f) => f.name);
  return { kind: identity.kind, identity, fields, computed, unverifiable: [...unreadable, ...missing], liveId: String(liveId) };
}
