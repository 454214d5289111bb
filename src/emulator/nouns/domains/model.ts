import { arrayOf, bool, Check, fields, int, nullable, str } from '../../shape';
import { dnsZoneCheck } from '../dns/model';
import type { DnsZone, DnsZoneDump } from '../dns/model';

/**
 * Domain names the account has registered (api-notes "Domain names (registrations)"):
 * their part of the state (an account's `domains`, the `domainId` counter), the checks
 * and their part of the state dump. Registrations joined the state in version 3 (`since`
 * in index.ts): an older data file gets each account's fixture registrations on load.
 */

declare module '../../backend/model' {
  interface Account {
    /** Registered domain names, in the order they were registered. */
    domains: Registration[];
  }
  interface Counters {
    /** Next registration id (`domain:<id>` as a grant key). */
    domainId: number;
  }
}

declare module '../../snapshot' {
  interface AccountDump {
    domains: RegistrationDump[];
  }
}

export interface Registration {
  id: number;
  /** Canonical name (lowercase, IDNA). */
  name: string;
  /** When it was registered, epoch milliseconds. */
  registeredAtMs: number;
  /** When the registration runs out, epoch milliseconds (renewals move it on). */
  expiresAtMs: number;
  hasPrivacy: boolean;
  /** A transfer to another registrar is under way. */
  pendingTransfer: boolean;
  registrantIsVerified: boolean;
  /** What limits a renewal (null: nothing); an opaque text of the registry. */
  renewalConstraint: string | null;
  preferredRenewalMonths: number;
  /** Host names, canonical, in the order the registry holds them. */
  nameservers: string[];
  /** `GET /domain/{name}/canTransfer`: true = unlocked (a transfer away is allowed). */
  transferAllowed: boolean;
  /**
   * The registration's own DNS zone (`/domain/{name}/dns`), used while no package holds
   * the name as a zone apex: then the package's zone is the registration's zone.
   */
  zone: DnsZone;
  /** What registering and renewing it charged so far, in cents. */
  chargedCents: number;
}

export interface RegistrationDump {
  id: number;
  name: string;
  /** ISO 8601 (UTC). */
  registeredAt: string;
  expiresAt: string;
  hasPrivacy: boolean;
  pendingTransfer: boolean;
  registrantIsVerified: boolean;
  renewalConstraint: string | null;
  preferredRenewalMonths: number;
  nameservers: string[];
  /** Whether a transfer away is allowed (false: the transfer lock is on). */
  transferAllowed: boolean;
  /** The zone `/domain/{name}/dns` serves now: a package's, or the registration's own. */
  dnsZone: DnsZoneDump & { onPackage: string | null };
  /** Registration and renewals charged (currency units). */
  charged: number;
}

/** The first id the counter hands out (the default account's fixtures use well-known ids below it). */
export const FIRST_DOMAIN_ID = 400_101;

const registration: Check = (v) => fields(v, {
  id: int, name: str, registeredAtMs: int, expiresAtMs: int, hasPrivacy: bool, pendingTransfer: bool, registrantIsVerified: bool,
  renewalConstraint: nullable(str), preferredRenewalMonths: int, nameservers: arrayOf(str), transferAllowed: bool, zone: dnsZoneCheck, chargedCents: int,
});

export const accountChecks: Record<string, Check> = { domains: arrayOf(registration) };
