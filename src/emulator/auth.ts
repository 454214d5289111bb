import { Account, State } from './backend/model';
import { findAccountByKeyDigest } from './backend/accounts';
import { sha256Hex } from './util';

/**
 * Authentication (api-notes "Conventions", live): `Authorization: Bearer <token>` where
 * the token is the base64 of the account's general API key. The documented example
 * token decodes to the key plus a newline (`echo key | base64`), so one trailing "\n"
 * is trimmed after decoding. A raw, un-encoded key is rejected.
 *
 * Keys are compared by sha256 digest; the emulator never holds a key after hashing it.
 */

export type AuthOutcome = { account: Account } | { account: null; message: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function authenticate(state: State, header: string | undefined): AuthOutcome {
  if (header === undefined || header.trim() === '') {
    return { account: null, message: 'missing Authorization header (expected "Bearer <base64 of the API key>")' };
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) return { account: null, message: 'Authorization header must be "Bearer <base64 of the API key>"' };
  const token = match[1];
  const decoded = BASE64.test(token) ? decodeToken(token) : undefined;
  const account = decoded === undefined ? undefined : findAccountByKeyDigest(state, sha256Hex(decoded));
  if (account) return { account };
  if (findAccountByKeyDigest(state, sha256Hex(token))) {
    return { account: null, message: 'the bearer token must be the base64 of the API key, not the key itself' };
  }
  return { account: null, message: 'invalid API key' };
}

/** base64 -> text, minus ONE trailing newline. */
export function decodeToken(token: string): string {
  const text = Buffer.from(token, 'base64').toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** Hashes a configured key the way `authenticate` hashes a presented one. */
export function keyDigest(key: string): string {
  return sha256Hex(key);
}
