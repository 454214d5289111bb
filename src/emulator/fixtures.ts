import { Account, State } from './backend/model';
import { findAccount, findAccountByKeyDigest } from './backend/accounts';
import { conflictingObjectError, validationError } from './assumed';
import { addAccountMembers, freshCounters, stateVersion } from './nouns';

/**
 * What every account has when it is created (on first start, after POST
 * /__emulator/reset, and by POST /__emulator/accounts): a balance, no brand, no
 * packages, and each API noun's fixtures (package types, two control-panel users with
 * complete contact records, …; see `fresh` in nouns/<noun>/index.ts).
 */

/** The reseller id of the account the configured API key opens. */
export const DEFAULT_RESELLER_ID = 989900;

/** Starting balance of a fixture account: 1000.00. */
export const FIXTURE_BALANCE_CENTS = 100_000;

/** A state with only the default account, as on a first start or after a reset. */
export function freshState(defaultKeySha256: string): State {
  const state: State = {
    version: stateVersion(),
    defaultAccountId: DEFAULT_RESELLER_ID,
    counters: freshCounters(),
    accounts: [],
  };
  addFixtureAccount(state, DEFAULT_RESELLER_ID, defaultKeySha256, FIXTURE_BALANCE_CENTS);
  return state;
}

/**
 * Adds an account with fixtures. The first account of a state gets the nouns'
 * well-known fixture ids; any other takes ids from the global counters, so they never
 * collide with another account's.
 */
export function addFixtureAccount(state: State, id: number, keySha256: string, balanceCents: number): Account {
  const core: Pick<Account, 'id' | 'keySha256' | 'balanceCents' | 'brand' | 'packages'> = { id, keySha256, balanceCents, brand: null, packages: [] };
  const account = core as Account;
  addAccountMembers({ state, account, first: state.accounts.length === 0 });
  state.accounts.push(account);
  return account;
}

/** POST /__emulator/accounts: a new account with fixtures; its id and key must be free. */
export function createAccount(state: State, id: number, keySha256: string, balanceCents: number): Account {
  if (findAccount(state, id)) throw conflictingObjectError(`account ${id} already exists`);
  if (findAccountByKeyDigest(state, keySha256)) throw conflictingObjectError('that API key already opens another account');
  if (balanceCents < 0) throw validationError('balance must not be negative');
  return addFixtureAccount(state, id, keySha256, balanceCents);
}
