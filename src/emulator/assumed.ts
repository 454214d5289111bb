import { ApiError } from './errors';
import { Account, Brand, CloudServer, ContactRecord, DnsRecordType, Forwarder, Mailbox, Package, State } from './backend/model';

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
 * ASSUMED (api-notes "Packages", one: only `{id, enabled, names, stackUsers, typeRef,
 * web: {name, platform}, …}` is shown, and production integrations read `status`, not
 * `enabled`): the members of GET /package/{id} that no public source shows: `enabled`
 * beside `status`, the list entry's `packageTypeName` and `created`, and a `label`.
 * The `documented` profile leaves all of them out.
 */
export function packageDetailAssumedFields(pkg: Package, typeLabel: string): Record<string, unknown> {
  return {
    enabled: pkg.enabled,
    packageTypeName: typeLabel,
    label: packageDetailLabel(pkg.label),
    created: pkg.created,
  };
}

/**
 * ASSUMED: `web.info` of GET /package/{id}. A production integration reads
 * `web.info.ip4Address` and `web.info.zone`, both optionally (Upmind's 20i provider);
 * the values are the emulator's: an address of the documentation range 192.0.2.0/24
 * and the zone of the package's cloud server, else `dc_location-uk`.
 */
export function packageWebInfo(pkg: Package, serverZone: string | undefined): Record<string, unknown> {
  return { ip4Address: packageWebIp(pkg), zone: serverZone ?? 'dc_location-uk' };
}

/** ASSUMED (see packageWebInfo): the package's web address, also the target of its zones' default A records. */
export function packageWebIp(pkg: Pick<Package, 'id'>): string {
  return `192.0.2.${(pkg.id % 254) + 1}`;
}

/**
 * ASSUMED (the path and the member names are what Upmind's 20i provider reads; the
 * values are the emulator's): GET /package/{id}/web/usage. Nothing is ever used.
 */
export function packageWebUsage(_pkg: Package): Record<string, unknown> {
  return { DiskMb: 0, Bandwidth: { MbIn: 0, MbOut: 0 } };
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

// ---------------------------------------------------------------------------------
// Mail

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
 * ASSUMED (the Managed Cloud Hosting API Guide, docs.20i.com: "A default hostname will
 * be used if this parameter is left blank", but not which): the host name of a server
 * ordered with an empty `mvpsName`.
 */
export function generatedServerName(serverId: number): string {
  return `vps${serverId}.cloud.example.net`;
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
    // A server ordered without forUser (it is optional) belongs to no user: 0.
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

// ---------------------------------------------------------------------------------
// DNS records

/**
 * ASSUMED (api-notes "DNS records": "a zone exists for each apex name attached to a
 * package"; which names count as apexes is not shown): every domain name of a package
 * that is not under another of its names is the apex of its own zone (`shop.example`
 * and `shop.example.org` are two zones; `www.shop.example` beside `shop.example` is a
 * name in the first one).
 */
export function zoneApexes(names: readonly string[]): string[] {
  return names.filter((name) => !names.some((other) => other !== name && name.endsWith(`.${other}`)));
}

/** A record as `defaultZoneRecords` gives it: everything but its ref. */
export interface DefaultRecord {
  type: DnsRecordType;
  host: string;
  data: Record<string, string | number>;
}

/**
 * ASSUMED (api-notes: "default records on a new zone (SOA, NS ns1-4.stackdns.com, A at
 * apex and `www` to the web IP, a mail MX)"; the values are the emulator's): the records
 * of a zone the moment its name joins a package. The SOA gets no ref (live); the others
 * get refs like any added record.
 */
export function defaultZoneRecords(apex: string, webIp: string): DefaultRecord[] {
  return [
    {
      type: 'SOA',
      host: apex,
      data: { mname: 'ns1.stackdns.com', rname: 'hostmaster.stackdns.com', serial: 1, refresh: 10800, retry: 3600, expire: 604800, 'minimum-ttl': 3600 },
    },
    ...[1, 2, 3, 4].map((n): DefaultRecord => ({ type: 'NS', host: apex, data: { target: `ns${n}.stackdns.com` } })),
    { type: 'A', host: apex, data: { ip: webIp } },
    { type: 'A', host: `www.${apex}`, data: { ip: webIp } },
    { type: 'MX', host: apex, data: { pri: 10, target: `mx.stackmail.com` } },
  ];
}

/**
 * ASSUMED (api-notes: `conflictPolicy: reject` fails the whole POST; "status and error
 * body assumed (409)"): an add that conflicts (a CNAME beside other records at one
 * name) under `reject` is 409 with `ConflictingObject` in the message.
 */
export function dnsConflictError(message: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${message}`);
}

/**
 * ASSUMED (api-notes: the write answers `{"result": …}` "whose content no client
 * reads"): `true`. The `documented` profile answers `{"result": null}`, so a client that
 * read the content would be caught.
 */
export function dnsWriteResult(): unknown {
  return true;
}

/**
 * How numbers and names read back. api-notes: numbers (`pri`, `weight`, `port`, the
 * SOA's) "may read back as strings or numbers" and names "possibly with a trailing dot".
 * ASSUMED: the `default` profile sends JSON numbers and names without the dot; the
 * `documented` profile sends the other forms the notes allow (numeric strings, a
 * trailing dot on `host` and targets), so a client's tolerance is tested.
 */
export function dnsReadForm(withAssumedForms: boolean): { numbersAsText: boolean; trailingDot: boolean } {
  return withAssumedForms ? { numbersAsText: false, trailingDot: false } : { numbersAsText: true, trailingDot: true };
}

/**
 * ASSUMED (api-notes list the one-zone route, not its body): `GET /package/{id}/dns/{apex}`
 * answers the zone's value as in the all-zones read: `{"records": [...]}`.
 */
export function zoneBody(records: unknown[]): Record<string, unknown> {
  return { records };
}

/**
 * ASSUMED (api-notes name `insertPolicy: "append" | "replace"`, not its meaning):
 * `replace` removes, before the adds, the existing records of every (host, type) that
 * `new` adds to; `append` keeps them. SOA and NS are never removed this way.
 */
export function replacedByInsert(existing: { type: string; host: string }, adds: ReadonlyArray<{ type: string; host: string }>): boolean {
  return existing.type !== 'SOA' && existing.type !== 'NS' && adds.some((a) => a.type === existing.type && a.host === existing.host);
}

/**
 * ASSUMED (no public source shows it): what a `delete` ref that is not in the zone
 * does: nothing, so a write retried after a lost response does not fail. (Also assumed,
 * in `addRecord` of backend/dns.ts: an identical record added twice is kept twice;
 * api-notes: "no public source shows the API refusing it; look before adding".)
 */
export function unknownDeleteRef(_ref: number): void {
  // ignored
}
