import { ApiError } from './errors';
import { Account, Brand, CloudServer, ContactRecord, Forwarder, Mailbox, Package, State } from './backend/model';

/**
 * Every behaviour of the emulator that api-notes.md marks `assumed`, or that no
 * public source shows and the emulator had to choose, lives behind one function
 * here. When the real API is observed to differ, correct it in this file only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

// ---------------------------------------------------------------------------------
// Error statuses

/** ASSUMED (api-notes "Conventions"): a request that fails validation is answered 400. */
export function validationError(message: string): ApiError {
  return new ApiError(400, message);
}

/**
 * ASSUMED (api-notes "Conventions", "Packages"): a domain name already on another
 * package is 409 and the message names the `ConflictingObject` error class. The
 * emulator uses the same answer for other uniqueness clashes (host names, e-mails).
 */
export function conflictingObjectError(message: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${message}`);
}

/** ASSUMED (api-notes "Mail", "duplicate create"): creating a mail object that already exists is 409. */
export function duplicateMailError(message: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${message}`);
}

// ---------------------------------------------------------------------------------
// Packages

/**
 * ASSUMED: domain names are unique among the packages of one account, not across the
 * whole platform (an account must not learn that another account holds a name).
 * Returns the packages whose names a new or added name must not clash with.
 */
export function packagesClaimingNames(_state: State, account: Account): readonly Package[] {
  return account.packages;
}

/**
 * ASSUMED: `packageLabels` of a package list entry (spec 2.4 shows only empty arrays)
 * is `[]` without a label and `[label]` with one.
 */
export function packageLabelsOf(label: string | null): string[] {
  return label === null ? [] : [label];
}

/** ASSUMED: `label` of GET /package/{id} is "" when the package has no label. */
export function packageDetailLabel(label: string | null): string {
  return label ?? '';
}

/**
 * ASSUMED: removing a domain name from a package also deletes the mail objects of
 * that domain (a mail domain cannot outlive its name). Mutates the package.
 */
export function dropMailOfRemovedNames(pkg: Package, removed: readonly string[]): void {
  const gone = new Set(removed);
  pkg.mailboxes = pkg.mailboxes.filter((m) => !gone.has(m.domain));
  pkg.forwarders = pkg.forwarders.filter((f) => !gone.has(f.domain));
}

// ---------------------------------------------------------------------------------
// Control-panel users

/**
 * ASSUMED (api-notes "Control-panel users", list is live but the two members' shapes
 * are not shown): `users` keyed by user identifier with a short summary of each user.
 */
export function susersUsersMember(account: Account): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const user of account.users) {
    out[`stack-user:${user.id}`] = {
      id: user.id,
      name: user.contact.person_name,
      email: user.contact.email,
      createdAt: user.contact.createdAt,
      enabled: true,
    };
  }
  return out;
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
 * ASSUMED: a user created with only an e-mail (and maybe a name) gets a contact record
 * whose other fields are empty, with a UK country default and an individual contact type.
 */
export function contactForNewUser(email: string, personName: string, createdAt: string): ContactRecord {
  const [firstName, ...rest] = personName.trim().split(/\s+/);
  return {
    address: '',
    avatarUrl: '',
    cc: 'GBR',
    ccAlpha2: 'GB',
    ccAlpha3: 'GBR',
    city: '',
    company_name: '',
    company_number: '',
    createdAt,
    email,
    ext_billing_ref: null,
    nominet_contact_type: 'IND',
    notes: '',
    pc: '',
    person_name: personName,
    sp: '',
    trading_name: '',
    voice: '',
    firstName: firstName ?? '',
    lastName: rest.join(' '),
  };
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

// ---------------------------------------------------------------------------------
// Mail

/** ASSUMED: a mailbox password is a string of 8 to 128 characters. */
export function checkMailboxPassword(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < 8 || password.length > 128) return 'must be 8 to 128 characters long';
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

// ---------------------------------------------------------------------------------
// Cloud servers

/**
 * ASSUMED (api-notes "Cloud servers": header names assumed): the brand of a server
 * ordered branded is returned as `X-Brand-Name` and `X-Brand-Logo`. Characters that
 * cannot travel in a header (outside printable ASCII) are percent-encoded.
 */
export function brandHeaders(brand: Brand): Record<string, string> {
  const headerSafe = (v: string) => (/^[\x20-\x7e]*$/.test(v) ? v : encodeURIComponent(v));
  return { 'X-Brand-Name': headerSafe(brand.name), 'X-Brand-Logo': headerSafe(brand.logoUrl) };
}

/**
 * ASSUMED: price per month of each size, in cents, the same for every provider
 * (the spec shows no prices): micro 5.00, small 10.00, then doubling per size.
 * An order charges price x periodMonths at once (api-notes: charges at once).
 */
export function monthlyPriceCents(spec: string): number {
  const ladder = ['micro', 'small', 'medium', 'large', 'x-large', '2x-large', '4x-large', '8x-large', '16x-large', '32x-large'];
  const step = ladder.indexOf(spec);
  return step < 0 ? 0 : 500 * 2 ** step;
}

/**
 * ASSUMED: the cloud server fields whose meaning spec 2.6 does not show.
 * count: -1 (the "infinity marker"); cpanel/cpanelInfo/cpanelRebuilding: "" (empty);
 * profileId: the numeric id of the user it was ordered for; timelineService:
 * "vps:<id>"; productSpec: "<type>:<spec>"; VpsOsId: 1 (one OS image).
 */
export function cloudServerOpaqueFields(server: CloudServer): {
  count: number;
  cpanel: string;
  cpanelInfo: string;
  cpanelRebuilding: string;
  profileId: number;
  timelineService: string;
  productSpec: string;
  vpsOsId: number;
} {
  return {
    count: -1,
    cpanel: '',
    cpanelInfo: '',
    cpanelRebuilding: '',
    profileId: Number(server.forUser.replace(/^stack-user:/, '')) || 0,
    timelineService: `vps:${server.id}`,
    productSpec: `${server.type}:${server.spec}`,
    vpsOsId: 1,
  };
}

/**
 * ASSUMED: `configuration.DataDiskSizeGb` is the ordered `disk` (meaningful for
 * platforms B and C only, api-notes), else 0. `OsDiskSizeGb` is the size's disk.
 */
export function dataDiskSizeGb(server: CloudServer): number {
  return server.disk !== null && server.provider !== '20icloud' ? Number(server.disk) : 0;
}
