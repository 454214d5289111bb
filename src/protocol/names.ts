import { domainToASCII } from 'node:url';

/**
 * Validation and canonical forms of the names the API uses. Each `check*` returns
 * undefined when the value is fine, else the rule it broke (a sentence fragment that
 * callers prefix with the field or construct path).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Names already converted (a provider checks every resource's names on each of
 * Terraform's calls: thousands per plan). Bounded; the conversion is pure.
 */
const canonicalDomains = new Map<string, string>();
const CANONICAL_DOMAINS_MAX = 20_000;

/** Lowercase, IDNA (punycode) form of a domain name; '' when it cannot be converted. */
export function canonicalDomain(name: string): string {
  let canonical = canonicalDomains.get(name);
  if (canonical === undefined) {
    if (canonicalDomains.size >= CANONICAL_DOMAINS_MAX) canonicalDomains.clear();
    canonical = convertDomain(name);
    canonicalDomains.set(name, canonical);
  }
  return canonical;
}

function convertDomain(name: string): string {
  const trimmed = name.trim().replace(/\.$/, '');
  if (trimmed === '' || /\s/.test(trimmed)) return '';
  // domainToASCII parses a URL host: it stops at "/", "?", "#" or "\\" and silently drops
  // the rest, so "example.com/shop" would become "example.com", another object. Refuse them.
  if (/[/?#\\]/.test(trimmed)) return '';
  return domainToASCII(trimmed.toLowerCase());
}

/** A registrable-looking domain: at least two labels, letters/digits/hyphens, IDN allowed. */
export function checkDomainName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'must be a non-empty domain name';
  const ascii = canonicalDomain(name);
  if (ascii === '') return `"${name}" is not a valid domain name (IDNA conversion failed)`;
  if (ascii.length > 253) return `"${name}" is longer than 253 characters`;
  const labels = ascii.split('.');
  if (labels.length < 2) return `"${name}" needs at least two labels, e.g. example.com`;
  for (const label of labels) {
    if (!LABEL.test(label)) {
      return `"${name}" has an invalid label "${label}" (1-63 letters, digits or hyphens, not starting or ending with a hyphen)`;
    }
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return `"${name}" has an all-numeric top-level label`;
  return undefined;
}

/** A server host name follows the same rules as a domain name. */
export const checkHostName = checkDomainName;

const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9_+-])?$/;

/** Canonical (lowercase, trimmed) local part of a hosted mail address. */
export function canonicalLocalPart(local: string): string {
  return local.trim().toLowerCase();
}

/** Local part of a mailbox or forwarder on a hosted domain. */
export function checkLocalPart(local: unknown): string | undefined {
  if (typeof local !== 'string' || local.trim() === '') return 'must be a non-empty local part';
  const canon = canonicalLocalPart(local);
  if (canon.length > 64) return `"${local}" is longer than 64 characters`;
  if (!LOCAL_PART.test(canon) || canon.includes('..')) {
    return `"${local}" must be letters, digits, ".", "_", "+" or "-", not start or end with "." and not contain ".."`;
  }
  return undefined;
}

const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** A deliverable e-mail address (RFC 5322 dot-atom local part, valid domain). */
export function checkEmailAddress(address: unknown): string | undefined {
  if (typeof address !== 'string' || address.trim() === '') return 'must be a non-empty e-mail address';
  const at = address.lastIndexOf('@');
  if (at <= 0) return `"${address}" is not an e-mail address (local@domain)`;
  const local = address.slice(0, at);
  if (local.length > 64 || !DOT_ATOM.test(local)) return `"${address}" has an invalid local part`;
  const domainProblem = checkDomainName(address.slice(at + 1));
  return domainProblem ? `"${address}" has an invalid domain: ${domainProblem}` : undefined;
}

/** Canonical form of an e-mail address: local part kept, domain lowercased and IDNA. */
export function canonicalEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at).trim()}@${canonicalDomain(address.slice(at + 1))}`;
}

/** Control-panel user identifier `stack-user:<digits>` (spec 2.1). */
export const STACK_USER_REF = /^stack-user:[0-9]+$/;

/** A control-panel user, by identifier or by the e-mail of its contact record. */
export type StackUserRef = string | { readonly email: string };

export function checkStackUserRef(ref: unknown): string | undefined {
  if (typeof ref === 'string') {
    return STACK_USER_REF.test(ref) ? undefined : `"${ref}" must look like stack-user:<number>`;
  }
  if (ref !== null && typeof ref === 'object' && 'email' in ref) {
    const problem = checkEmailAddress((ref as { email: unknown }).email);
    return problem ? `email ${problem}` : undefined;
  }
  return 'must be "stack-user:<number>" or { email: "user@example.com" }';
}
