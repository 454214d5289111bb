import type { Account, State } from '../../backend/model';
import { notFound, paymentRequired } from '../../errors';
import { canonicalDomain } from '../../../protocol/names';
import { createZone, packageZone } from '../dns/backend';
import type { DnsZone } from '../dns/model';
import type { NewAccount } from '../registry';
import {
  alreadyRegistered, closeToAnniversary, DAY, dateText, deadAtMs, defaultNameservers, FIXTURE_REGISTRATIONS, MAX_NAMESERVERS,
  nameserverChangeError, registrationZoneRecords, yearlyPriceCents,
} from './assumed';
import { FIRST_DOMAIN_ID, Registration } from './model';

/**
 * Registered domain names (api-notes "Domain names (registrations)"): found by name,
 * their nameservers changed by a difference (`ns` / `old-ns`), their transfer lock, their
 * DNS zone (a package's when a package holds the name, else their own), and the two
 * writes that charge the balance (registering and renewing).
 */

/** The well-known ids of the default account's fixture registrations (the counter starts above them). */
const WELL_KNOWN_FIRST_ID = 400_001;

/** The fixture registrations of a new account (see FIXTURE_REGISTRATIONS), dated from now. */
export function fixtureRegistrations({ state, first }: NewAccount, nowMs = Date.now()): Registration[] {
  // Whole days, so that a dump taken the same day reads the same dates.
  const today = Math.floor(nowMs / DAY) * DAY;
  return FIXTURE_REGISTRATIONS.map((f, i) => newRegistration(state, {
    id: first ? WELL_KNOWN_FIRST_ID + i : state.counters.domainId++,
    name: f.name,
    registeredAtMs: today - 365 * DAY,
    expiresAtMs: today + f.expiresInDays * DAY,
    hasPrivacy: f.hasPrivacy,
    pendingTransfer: f.pendingTransfer,
    registrantIsVerified: true,
    renewalConstraint: f.renewalConstraint,
    preferredRenewalMonths: 12,
    nameservers: [...f.nameservers],
    transferAllowed: f.transferAllowed,
    chargedCents: 0,
  }));
}

function newRegistration(state: State, fields: Omit<Registration, 'zone'>): Registration {
  return { ...fields, zone: createZone(state, fields.name, registrationZoneRecords(fields.name)) };
}

export function findRegistration(account: Account, name: string): Registration | undefined {
  const wanted = canonicalDomain(name);
  return wanted === '' ? undefined : account.domains.find((d) => d.name === wanted);
}

/** The registration `name` of the account: 404 for any other name (a subdomain of one, a name of another account). */
export function requireRegistration(account: Account, name: string): Registration {
  const found = findRegistration(account, name);
  if (!found) throw notFound(`${name} is not a domain name of this account`);
  return found;
}

/** The zone `/domain/{name}/dns` serves: the package zone of that apex when a package holds it (the same zone), else the registration's own. */
export function registrationZone(account: Account, registration: Registration): { zone: DnsZone; onPackage: string | null } {
  const shared = packageZone(account, registration.name);
  if (!shared) return { zone: registration.zone, onPackage: null };
  const pkg = account.packages.find((p) => p.zones.includes(shared));
  return { zone: shared, onPackage: pkg ? pkg.names[0] : null };
}

/** A list entry of `GET /domain` (api-notes). */
export function registrationEntry(registration: Registration, nowMs: number, withAssumedForms: boolean): Record<string, unknown> {
  return {
    id: registration.id,
    name: registration.name,
    expiryDate: dateText(registration.expiresAtMs, withAssumedForms),
    deadDate: dateText(deadAtMs(registration), withAssumedForms),
    closeToAnniversary: closeToAnniversary(registration, nowMs),
    hasPrivacy: registration.hasPrivacy,
    pendingTransfer: registration.pendingTransfer,
    registrantIsVerified: registration.registrantIsVerified,
    renewalConstraint: registration.renewalConstraint,
    preferredRenewalMonths: registration.preferredRenewalMonths,
  };
}

/**
 * `POST /domain/{name}/nameservers` `{"ns": [...], "old-ns": [...]}`: the registration's
 * nameservers become `(current - old-ns) + ns`, in that order. Every `old-ns` must be
 * one it has, no name may be in both, and two to MAX_NAMESERVERS must remain.
 */
export function changeNameservers(registration: Registration, add: readonly string[], remove: readonly string[]): void {
  const both = add.filter((n) => remove.includes(n));
  if (both.length) throw nameserverChangeError(`ns and old-ns both list ${both.join(', ')}: send only the difference`);
  const unknown = remove.filter((n) => !registration.nameservers.includes(n));
  if (unknown.length) {
    throw nameserverChangeError(`old-ns ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a nameserver of ${registration.name} (it has ${registration.nameservers.join(', ')})`);
  }
  const next = [...registration.nameservers.filter((n) => !remove.includes(n)), ...add.filter((n) => !registration.nameservers.includes(n))];
  if (next.length < 2) throw nameserverChangeError(`${registration.name} would have ${next.length} nameserver${next.length === 1 ? '' : 's'}: a registration needs at least 2`);
  if (next.length > MAX_NAMESERVERS) throw nameserverChangeError(`${registration.name} would have ${next.length} nameservers: at most ${MAX_NAMESERVERS}`);
  registration.nameservers = next;
}

/** What a registration order carries, checked by the route. */
export interface RegistrationOrder {
  readonly name: string;
  readonly years: number;
  readonly nameservers: readonly string[];
  readonly privacy: boolean;
}

/**
 * `POST /reseller/{id}/addDomain`: charges the years at once (402 and nothing registered
 * when the balance is too low; 409 for a name the account holds already).
 */
export function registerDomain(state: State, account: Account, order: RegistrationOrder, nowMs: number): Registration {
  if (findRegistration(account, order.name)) throw alreadyRegistered(order.name);
  const price = yearlyPriceCents(order.name) * order.years;
  charge(account, price, `registering ${order.name} for ${order.years} year${order.years === 1 ? '' : 's'}`);
  const registration = newRegistration(state, {
    id: state.counters.domainId++,
    name: order.name,
    registeredAtMs: nowMs,
    expiresAtMs: nowMs + order.years * 365 * DAY,
    hasPrivacy: order.privacy,
    pendingTransfer: false,
    registrantIsVerified: false,
    renewalConstraint: null,
    preferredRenewalMonths: 12,
    nameservers: order.nameservers.length ? [...order.nameservers] : defaultNameservers(),
    transferAllowed: false,
    chargedCents: price,
  });
  account.domains.push(registration);
  return registration;
}

/** `POST /reseller/{id}/renewDomain`: charges the years and moves the expiry on. */
export function renewDomain(account: Account, name: string, years: number): Registration {
  const registration = requireRegistration(account, name);
  const price = yearlyPriceCents(registration.name) * years;
  charge(account, price, `renewing ${registration.name} for ${years} year${years === 1 ? '' : 's'}`);
  registration.expiresAtMs += years * 365 * DAY;
  registration.chargedCents += price;
  return registration;
}

function charge(account: Account, priceCents: number, what: string): void {
  if (priceCents > account.balanceCents) {
    throw paymentRequired(
      `not enough account balance: ${what} costs ${(priceCents / 100).toFixed(2)}, the balance is ${(account.balanceCents / 100).toFixed(2)}`,
    );
  }
  account.balanceCents -= priceCents;
}

export { FIRST_DOMAIN_ID };
