import { Account } from '../../backend/model';
import { ContactRecord } from './model';

/**
 * The control-panel users noun's assumed behaviours: everything api-notes.md marks
 * `assumed`, or that no public source shows and the emulator had to choose, behind one
 * function each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/**
 * `users` of GET susers, keyed by user identifier. `name` is the user's login, its
 * e-mail address: a production integration finds a user by comparing `users[ref].name`
 * with the customer's e-mail (Clientexec's 20i plugin; confidence: code). The other
 * members are ASSUMED.
 */
export function susersUsersMember(account: Account): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const user of account.users) {
    out[`stack-user:${user.id}`] = {
      id: user.id,
      name: user.contact.email,
      personName: user.contact.person_name,
      createdAt: user.contact.createdAt,
      enabled: true,
    };
  }
  return out;
}

/**
 * ASSUMED (the issue names the member, no public response shows its content): `ftpLock`
 * of GET susers is an object; the emulator models no FTP locks, so it is empty.
 */
export function susersFtpLockMember(_account: Account): Record<string, unknown> {
  return {};
}

/**
 * ASSUMED (as above): `service_by_tuple` keyed by service identifier (`package:<id>`),
 * each naming the service and the users granted it.
 */
export function susersServiceByTupleMember(account: Account): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pkg of account.packages) {
    out[`package:${pkg.id}`] = {
      type: 'package',
      id: pkg.id,
      name: pkg.names[0],
      users: account.users.filter((u) => u.packageGrants.includes(pkg.id)).map((u) => `stack-user:${u.id}`),
    };
  }
  return out;
}

/**
 * ASSUMED: a user created with `newUser` gets a contact record of the fields given
 * (see `NewUserContact`); the others are empty, the country defaults to the UK and the
 * contact type to an individual (`IND`). `firstName`/`lastName` split `person_name`
 * at its first space.
 */
export function contactForNewUser(email: string, given: NewUserContact, createdAt: string): ContactRecord {
  const personName = given.person_name ?? '';
  const [firstName, ...rest] = personName.trim().split(/\s+/);
  const country = given.country ?? { alpha2: 'GB', alpha3: 'GBR' };
  return {
    address: given.address ?? '',
    avatarUrl: '',
    cc: country.alpha3,
    ccAlpha2: country.alpha2,
    ccAlpha3: country.alpha3,
    city: given.city ?? '',
    company_name: given.company_name ?? '',
    company_number: given.company_number ?? '',
    createdAt,
    email,
    ext_billing_ref: given.billing_ref ?? null,
    nominet_contact_type: given.nominet_contact_type ?? 'IND',
    notes: given.notes ?? '',
    pc: given.pc ?? '',
    person_name: personName,
    sp: given.sp ?? '',
    trading_name: given.trading_name ?? '',
    voice: given.voice ?? '',
    firstName: firstName ?? '',
    lastName: rest.join(' '),
  };
}

/**
 * The contact fields a `newUser` (or a `contact` update) may carry, as production
 * integrations send them (Clientexec's and Upmind's 20i modules: person_name,
 * company_name, address, city, sp, pc, cc, voice, notes, billing_ref,
 * nominet_contact_type), already read as text. `country` is `cc` resolved.
 */
export interface NewUserContact {
  person_name?: string;
  company_name?: string;
  company_number?: string;
  trading_name?: string;
  address?: string;
  city?: string;
  sp?: string;
  pc?: string;
  voice?: string;
  notes?: string;
  billing_ref?: string;
  nominet_contact_type?: string;
  country?: { alpha2: string; alpha3: string };
}

/**
 * ASSUMED: the emulator grants packages only. `domain:<id>` and `vps:<id>` keys are
 * valid identifiers (spec 2.1) but the emulator models no such services: 400.
 * Returns the package id, or a problem description.
 */
export function parseGrantServiceKey(key: string): { packageId: number } | { problem: string } {
  const match = /^package:([0-9]+)$/.exec(key);
  if (match) return { packageId: Number(match[1]) };
  if (/^(domain|vps):[0-9]+$/.test(key)) return { problem: `grants of "${key}" are not supported by the emulator (package grants only)` };
  return { problem: `"${key}" is not a service identifier (package:<id>)` };
}
