/**
 * The emulator's whole state, as kept in memory and written to the data file: its core.
 *
 * Everything is plain JSON (numbers, strings, arrays, plain objects) so that a write
 * transaction can undo its changes (backend/undo-log.ts) and the data file is the state
 * itself. Secrets are never kept: an API key is stored as `keySha256`, a mailbox
 * password as `passwordSha256`.
 *
 * This file holds only what every API noun relies on: accounts (their key, balance and
 * brand) and the packages an account holds (their id and names), the scope most nouns
 * hang their objects on. Each noun adds its own members to `Account`, `Package` and
 * `Counters` from its `nouns/<noun>/model.ts`, by TypeScript declaration merging
 * (`declare module '../../backend/model'`), so that its types live beside its code and
 * a new noun changes nothing here. See nouns/registry.ts.
 */

export interface State {
  /** The shape version (see `stateVersion` in nouns/registry.ts); the loader upgrades older files. */
  version: number;
  /** The account that the configured API key opens (DEFAULT_RESELLER_ID on a fresh start). */
  defaultAccountId: number;
  /**
   * Global id counters, one member per counter a noun declares: ids never collide across
   * accounts, so an id of one account used by another can only be "not found", never a
   * different object.
   */
  counters: Counters;
  accounts: Account[];
}

/** The id counters; every member comes from a noun (`counters` of its definition). */
export interface Counters {}

export interface Account {
  /** The reseller id (`/reseller/{id}/…`). */
  id: number;
  /** sha256 hex of the account's API key; the key itself is never kept. */
  keySha256: string;
  /** Balance in integer cents (1000.00 -> 100000). */
  balanceCents: number;
  brand: Brand | null;
  /** The account's hosting packages, oldest first: the parent of the package-scoped nouns. */
  packages: Package[];
}

export interface Brand {
  name: string;
  logoUrl: string;
}

/** A hosting package: its identity here, everything else from the nouns (packages, mail, DNS, …). */
export interface Package {
  id: number;
  /** Canonical (lowercase, IDNA) domain names; the primary name is always first. */
  names: string[];
}
