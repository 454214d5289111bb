import { Account, Brand, State } from './model';
import { notFound } from '../errors';
import { sameDigest } from '../util';
import { parseId } from '../validate';

/** Accounts: lookup by id and by key digest, the default key, brand. Creation with fixtures is in fixtures.ts. */

export function findAccount(state: State, id: number): Account | undefined {
  return state.accounts.find((a) => a.id === id);
}

/** The account whose key has this sha256, compared in constant time. */
export function findAccountByKeyDigest(state: State, keySha256: string): Account | undefined {
  return state.accounts.find((a) => sameDigest(a.keySha256, keySha256));
}

/** The account named by an optional `account` id of a control-API request, else the default account. */
export function targetAccount(state: State, value: unknown): Account {
  if (value === undefined || value === null) return findAccount(state, state.defaultAccountId) as Account;
  const id = parseId(value);
  const account = id === undefined ? undefined : findAccount(state, id);
  if (!account) throw notFound(`account ${String(value)} not found`);
  return account;
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
