import { canonicalDomain, canonicalEmail, canonicalLocalPart, checkEmailAddress, StackUserRef } from '../../protocol';
import { containsToken, isToken } from './tokens';

/**
 * Canonical forms for the spec (protocol rules) that leave tokens and invalid values
 * as given: tokens are canonicalised by the handler at apply time, invalid values are
 * reported by validation.
 */
export function canonDomain<T>(value: T): T {
  if (typeof value !== 'string' || isToken(value)) return value;
  return (canonicalDomain(value) || value) as T;
}

export function canonLocalPart<T>(value: T): T {
  return typeof value === 'string' && !isToken(value) ? (canonicalLocalPart(value) as T) : value;
}

export function canonEmail<T>(value: T): T {
  if (typeof value !== 'string' || isToken(value) || checkEmailAddress(value)) return value;
  return canonicalEmail(value) as T;
}

export function canonStackUser(ref: StackUserRef | undefined): StackUserRef | undefined {
  if (ref === undefined || typeof ref === 'string' || containsToken(ref)) return ref;
  if (ref !== null && typeof ref === 'object' && 'email' in ref) return { email: canonEmail(ref.email) };
  return ref;
}

/** The canonical literal value, or undefined when it is a token or not a string. */
export function literal(value: unknown, canon: (v: string) => string): string | undefined {
  return typeof value === 'string' && !isToken(value) ? canon(value) : undefined;
}

/** `^[A-Za-z_][A-Za-z0-9_]*$`: a portable environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A path relative to the package's home directory, without `..` segments. */
export function checkRelativePath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty relative path';
  if (/^[/\\~]/.test(value) || /^[A-Za-z]:/.test(value)) return `"${value}" must be a relative path (e.g. public_html/site), not absolute`;
  if (value.split(/[/\\]/).includes('..')) return `"${value}" must not contain ".." segments`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return `${JSON.stringify(value)} must not contain control characters`;
  return undefined;
}
