import { Account, Brand, State } from './model';
import { conflictingObjectError, validationError } from '../assumed';
import { addFixtureAccount } from '../fixtures';
import { sameDigest } from '../util';

/** Accounts: lookup by id and by key digest, creation with fixtures, brand, balance. */

export function findAccount(state: State, id: number): Account | undefined {
  return state.accounts.find((a) => a.id === id);
}

/** The account whose key has this sha256, compared in constant time. */
export function findAccountByKeyDigest(state: State, keySha256: string): Account | undefined {
  return state.accounts.find((a) => sameDigest(a.keySha256, keySha256));
}

export function createAccount(state: State, id: number, keySha256: string, balanceCents: number): Account {
  if (findAccount(state, id)) throw conflictingObjectError(`account ${id} already exists`);
  if (findAccountByKeyDigest(state, keySha256)) throw conflictingObjectError('that API key already opens another account');
  if (balanceCents < 0) throw validationError('balance must not be negative');
  return addFixtureAccount(state, id, keySha256, balanceCents);
}

/**
 * Makes `keySha256` the key of the default account (the configured key always opens
 * it, also after a restart with another --api-key).
 */
export function setDefaultKey(state: State, keySha256: string): void {
  const other = state.accounts.find((a) => a.id !== state.defaultAccountId && sameDigest(a.keySha256, keySha256));
  if (other) throw new Error(`the configured API key already opens account ${other.id}`);
  const account = findAccount(state, state.defaultAccountId);
  if (account) account.keySha256 = keySha256;
}

export function setBrand(account: Account, brand: Brand | null): void {
  account.brand = brand;
}
