import { ApiError } from '../../errors';
import { Package } from '../../backend/model';
import { Forwarder, Mailbox, Responder } from './model';
import type { Limit } from '../packages/model';
import { EmulatorProfile, withAssumed } from '../../profile';

/**
 * The mail noun's assumed behaviours: everything api-notes.md marks `assumed`, or
 * that no public source shows and the emulator had to choose, behind one function
 * each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/** ASSUMED (api-notes "Mail", "duplicate create"): creating a mail object that already exists is 409. */
export function duplicateMailError(message: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${message}`);
}

/**
 * ASSUMED: removing a domain name from a package also deletes the mail objects of
 * that domain (a mail domain cannot outlive its name). Mutates the package.
 */
export function dropMailOfRemovedNames(pkg: Package, removed: readonly string[]): void {
  const gone = new Set(removed);
  pkg.mailboxes = pkg.mailboxes.filter((m) => !gone.has(m.domain));
  pkg.forwarders = pkg.forwarders.filter((f) => !gone.has(f.domain));
  pkg.responders = pkg.responders.filter((r) => !gone.has(r.domain));
}

/** ASSUMED: a mailbox password is a string of 8 to 128 characters. */
export function checkMailboxPassword(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < 8 || password.length > 128) return 'must be 8 to 128 characters long';
  return undefined;
}

/**
 * ASSUMED (spec 4.4 shows the strings "true"/"false"; PHP clients also send JSON
 * booleans): `send`/`receive` of a mailbox write. Returns undefined for anything else.
 */
export function mailboxFlag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** ASSUMED: a new mailbox is enabled, with a 1024 MB quota and nothing used. */
export function newMailboxDefaults(): Pick<Mailbox, 'enabled' | 'quotaMB' | 'usageMB'> {
  return { enabled: true, quotaMB: 1024, usageMB: 0 };
}

/** ASSUMED (api-notes "Mail", read: shape of `forward` assumed): `{id: "f<n>", local, remote}`. */
export function forwarderEntry(f: Forwarder): { id: string; local: string; remote: string } {
  return { id: `f${f.id}`, local: f.local, remote: f.remote };
}

/**
 * ASSUMED (api-notes "Mail", read: `forward` shape assumed): the read lists `forward`
 * even when there are none. The `documented` profile leaves an empty `forward` out.
 */
export function showEmptyForwardList(): boolean {
  return true;
}

/**
 * ASSUMED (api-notes "Mail", new forwarder response assumed): the mailbox envelope's
 * item with `type: "forward"` and no password.
 */
export function forwarderCreatedItem(f: Forwarder): Record<string, unknown> {
  return { type: 'forward', id: f.local, generatedId: null };
}

/**
 * ASSUMED (api-notes "Mail", update mailbox): the envelope lists each updated mailbox
 * like a created one; the password is echoed only when the update set one.
 */
export function mailboxUpdatedItem(m: Mailbox, password: string | undefined): Record<string, unknown> {
  const item: Record<string, unknown> = { type: 'mailbox', id: m.local, generatedId: null };
  if (password !== undefined) item.password = password;
  return item;
}

/** The name the request log gives a mailbox update in the list shape (see toleratesMailboxListUpdate). */
export const MAILBOX_LIST_UPDATE = 'mail: update in the {"update": {"mailbox": [{"id", ...}]}} shape';

/**
 * TOLERANCE (api-notes "Mail", update mailbox: "accept it only as a tolerance, never send
 * it"): a mailbox update in the shape `{"update": {"mailbox": [{"id": "m123", …}]}}`,
 * which no public source shows (this project's client sent it before it learned the
 * keyed form). Applied in the default profile, and marked in the request log
 * (`tolerated`); the `documented` profile refuses it with 400.
 */
export function toleratesMailboxListUpdate(profile: EmulatorProfile): boolean {
  return withAssumed(profile);
}

/**
 * ASSUMED (api-notes "Autoresponders" shows `"startTime": null` only): a start or end
 * time is written as an ISO 8601 date and time (a zone, or UTC when it has none) and
 * read back as JavaScript writes it, `2026-12-24T09:00:00.000Z` (milliseconds, UTC),
 * so a client must compare instants, not texts. Null or "" is none. Returns undefined
 * for anything else (a 400).
 */
export function responderTime(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}/.test(value)) return undefined;
  const text = value.replace(' ', 'T');
  const ms = Date.parse(/([Zz]|[+-][0-9]{2}:?[0-9]{2})$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** ASSUMED: a responder's content type is `text/plain` or `text/html` (the production plugin sends `text/html`); anything else is a 400. */
export function isResponderType(value: unknown): boolean {
  return value === 'text/plain' || value === 'text/html';
}

/**
 * ASSUMED (api-notes "Package types carry limit codes": "a type without the feature
 * refuses it"): the `mailAutoresponders` limit of the package's type caps how many
 * autoresponders the package holds (0: none); a new one past it is a 400 naming the
 * limit code. Unlimited ("INF") or absent: no cap.
 */
export function responderLimitProblem(limits: Readonly<Record<string, Limit>>, held: number): string | undefined {
  const limit = limits.mailAutoresponders;
  if (limit === undefined || limit === 'INF' || held < limit) return undefined;
  return limit === 0
    ? 'the package type does not include autoresponders (limit mailAutoresponders: 0)'
    : `the package holds ${held} autoresponder(s), the most its type allows (limit mailAutoresponders: ${limit})`;
}

/** ASSUMED (api-notes: a new responder answers with the "mail envelope"): its item is `{type: "responder", id: local}`, like a forwarder's. */
export function responderCreatedItem(r: Responder): Record<string, unknown> {
  return { type: 'responder', id: r.local, generatedId: null };
}
