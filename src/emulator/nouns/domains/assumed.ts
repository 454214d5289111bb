import { ApiError } from '../../errors';
import { validationError } from '../../assumed';
import { isoWithOffset } from '../../util';
import type { DefaultRecord } from '../dns/assumed';
import type { ZonePolicies } from '../dns/routes';
import type { Registration } from './model';

/**
 * The domains noun's assumed behaviours: everything api-notes.md ("Domain names
 * (registrations)") does not show and the emulator had to choose, behind one function
 * each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

const DAY_MS = 86_400_000;

/**
 * ASSUMED (api-notes: "a list of host names: bare array in one client, `{"result":
 * [...]}` in the official README: accept both"; which one the service sends is not
 * known): `GET /domain/{name}/nameservers` answers a bare array in the `default` profile
 * (like every other GET) and `{"result": [...]}` in the `documented` one, so a client is
 * tested against both.
 */
export function nameserversBody(nameservers: readonly string[], withAssumedShape: boolean): unknown {
  return withAssumedShape ? [...nameservers] : { result: [...nameservers] };
}

/**
 * ASSUMED (api-notes: `GET /domain/{name}` -> `{"name", "nameservers": [...], …}`: what
 * "…" holds is not shown): the list entry's fields beside `name` and `nameservers`. The
 * `documented` profile answers `{name, nameservers}` alone.
 */
export function domainDetail(entry: Record<string, unknown>, nameservers: readonly string[], withAssumedFields: boolean): Record<string, unknown> {
  return withAssumedFields ? { ...entry, nameservers: [...nameservers] } : { name: entry.name, nameservers: [...nameservers] };
}

/**
 * ASSUMED (api-notes lists `expiryDate` and `deadDate` without their form): ISO 8601 with
 * an offset (`2026-03-01T00:00:00+00:00`, the form of spec 2.2's `createdAt`); the
 * `documented` profile sends the date alone (`2026-03-01`), so a client reads both.
 */
export function dateText(ms: number, withAssumedForm: boolean): string {
  return withAssumedForm ? isoWithOffset(ms) : new Date(ms).toISOString().slice(0, 10);
}

/** ASSUMED (no source says how long after expiry a name is lost): 30 days of grace, then `deadDate`. */
export function deadAtMs(registration: Registration): number {
  return registration.expiresAtMs + 30 * DAY_MS;
}

/** ASSUMED (api-notes lists `closeToAnniversary` without its rule): the registration expires within 30 days. */
export function closeToAnniversary(registration: Registration, nowMs: number): boolean {
  return registration.expiresAtMs - nowMs <= 30 * DAY_MS;
}

/** The most nameservers a registration holds (13: what registries commonly allow). */
export const MAX_NAMESERVERS = 13;

/**
 * ASSUMED (api-notes: "`old-ns` must match the registry; do not list a name in both";
 * the answer to a write that breaks it is not shown): 400 with a message naming the rule.
 * So is a change that would leave fewer than two nameservers (registries require two)
 * or more than MAX_NAMESERVERS. A name in `ns` the registration has already is kept (no
 * error): the write is the set `(current - old-ns) + ns`.
 */
export function nameserverChangeError(rule: string): ApiError {
  return validationError(rule);
}

/** ASSUMED (api-notes show `{"result": true}` but nothing reads it): the result of a nameserver or lock write. */
export function domainWriteResult(): unknown {
  return true;
}

/**
 * ASSUMED (api-notes: "a registered domain's DNS zone" has the records of "DNS records";
 * its first records are not shown): a registration's own zone starts with the SOA and
 * the service's four NS records, and nothing else (no package, so no web address).
 */
export function registrationZoneRecords(apex: string): DefaultRecord[] {
  return [
    {
      type: 'SOA', host: apex,
      data: { mname: 'ns1.stackdns.com', rname: 'hostmaster.stackdns.com', serial: 1, refresh: 10800, retry: 3600, expire: 604800, 'minimum-ttl': 3600 },
    },
    ...[1, 2, 3, 4].map((n): DefaultRecord => ({ type: 'NS', host: apex, data: { target: `ns${n}.stackdns.com` } })),
  ];
}

/**
 * ASSUMED (api-notes: the certbot plugin sends `{"new": {...}}` and `{"delete": [...]}`
 * to `/domain/{name}/dns` without `conflictPolicy` or `insertPolicy`): there, a write
 * without them takes `reject` and `append`.
 */
export function domainZonePolicies(): ZonePolicies {
  return { conflictPolicy: 'reject', insertPolicy: 'append' };
}

/** ASSUMED (no public price list): registering or renewing costs 12.00 a year, whatever the name. */
export function yearlyPriceCents(_name: string): number {
  return 1200;
}

/** ASSUMED (api-notes shows `years` without its range): 1 to 10 years. */
export function checkYears(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 10 ? undefined : 'years must be an integer from 1 to 10';
}

/** ASSUMED (no source shows which nameservers a registration without any gets): the service's own. */
export function defaultNameservers(): string[] {
  return ['ns1.stackdns.com', 'ns2.stackdns.com'];
}

/**
 * ASSUMED (api-notes shows no answer for a domain the account does not hold, nor for
 * registering one it holds already): 409 with `ConflictingObject`, like a name already
 * on a package.
 */
export function alreadyRegistered(name: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${name} is registered already`);
}

/** One fixture registration: what differs between them (the rest follows from the name). */
export interface FixtureRegistration {
  readonly name: string;
  /** Days from the account's creation to its expiry. */
  readonly expiresInDays: number;
  readonly hasPrivacy: boolean;
  readonly pendingTransfer: boolean;
  readonly renewalConstraint: string | null;
  readonly nameservers: readonly string[];
  readonly transferAllowed: boolean;
}

/**
 * The emulator's choice: the registrations every account starts with. One expires within
 * 30 days of the account's creation (the docs' renewal example lists it), one is held
 * at another DNS provider, one is on its way to another registrar.
 */
export const FIXTURE_REGISTRATIONS: readonly FixtureRegistration[] = [
  {
    name: 'example-studio.com', expiresInDays: 400, hasPrivacy: true, pendingTransfer: false, renewalConstraint: null,
    nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com', 'ns3.stackdns.com', 'ns4.stackdns.com'], transferAllowed: false,
  },
  {
    name: 'example-blog.com', expiresInDays: 20, hasPrivacy: false, pendingTransfer: false, renewalConstraint: null,
    nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com'], transferAllowed: true,
  },
  {
    name: 'example-registered.net', expiresInDays: 200, hasPrivacy: true, pendingTransfer: false, renewalConstraint: null,
    nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'], transferAllowed: false,
  },
  {
    name: 'example-moving.org', expiresInDays: 90, hasPrivacy: false, pendingTransfer: true, renewalConstraint: 'transfer pending: renew at the new registrar',
    nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com'], transferAllowed: true,
  },
];

export const DAY = DAY_MS;
