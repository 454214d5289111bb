/**
 * The emulator's whole state, as kept in memory and written to the data file.
 *
 * Everything is plain JSON (numbers, strings, arrays, plain objects) so that a write
 * transaction can undo its changes (backend/undo-log.ts) and the data file is the state
 * itself. Secrets are never kept: an API key is stored as `keySha256`, a mailbox
 * password as `passwordSha256`.
 */

/** Bumped when the shape changes; the loader refuses other versions. */
export const STATE_VERSION = 2;

export interface State {
  version: typeof STATE_VERSION;
  /** The account that the configured API key opens (DEFAULT_RESELLER_ID on a fresh start). */
  defaultAccountId: number;
  /**
   * Global id counters: ids never collide across accounts, so an id of one account
   * used by another can only be "not found", never a different object.
   */
  counters: Counters;
  accounts: Account[];
}

export interface Counters {
  /** Next package id (1000001 upward). */
  packageId: number;
  /** Next control-panel user id (`stack-user:<n>`). */
  userId: number;
  /** Next mail object id (shared by mailboxes `m<n>` and forwarders `f<n>`). */
  mailId: number;
  /** Next cloud server id. */
  serverId: number;
  /** Next DNS record ref: a ref is never reused, not even after its record is deleted. */
  dnsRef: number;
}

export interface Account {
  /** The reseller id (`/reseller/{id}/…`). */
  id: number;
  /** sha256 hex of the account's API key; the key itself is never kept. */
  keySha256: string;
  /** Balance in integer cents (1000.00 -> 100000). */
  balanceCents: number;
  brand: Brand | null;
  packageTypes: PackageType[];
  users: User[];
  packages: Package[];
  cloudServers: CloudServer[];
}

export interface Brand {
  name: string;
  logoUrl: string;
}

export type Platform = 'linux' | 'windows';

export interface PackageType {
  id: number;
  label: string;
  platform: Platform;
}

/** Contact record of a control-panel user: every field of spec 2.2. */
export interface ContactRecord {
  address: string;
  avatarUrl: string;
  cc: string;
  ccAlpha2: string;
  ccAlpha3: string;
  city: string;
  company_name: string;
  company_number: string;
  createdAt: string;
  email: string;
  ext_billing_ref: string | null;
  nominet_contact_type: string;
  notes: string;
  pc: string;
  person_name: string;
  sp: string;
  trading_name: string;
  voice: string;
  firstName: string;
  lastName: string;
}

export interface User {
  /** Numeric part of `stack-user:<id>`. */
  id: number;
  contact: ContactRecord;
  /** Package ids this user is granted (`package:<id>` in the grant map), ascending. */
  packageGrants: number[];
}

export interface Package {
  id: number;
  /** Package type id (typeRef). */
  typeId: number;
  /** Canonical (lowercase, IDNA) domain names; the primary name is always first. */
  names: string[];
  /** null when the package has no label. */
  label: string | null;
  enabled: boolean;
  /** ISO 8601 with offset. */
  created: string;
  /** Domain -> document root relative path, as given at creation. */
  documentRoots: Record<string, string>;
  /** The cloud server the package lives on, or null for a package on the reseller account. */
  cloudServerId: number | null;
  mailboxes: Mailbox[];
  forwarders: Forwarder[];
  /** One DNS zone per zone apex among the package's names (see `zoneApexes` in assumed.ts), in the order they joined. */
  zones: DnsZone[];
}

/** The record types a zone can hold; SOA and NS are read-only through the API. */
export type DnsRecordType = 'SOA' | 'NS' | 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV';

export interface DnsZone {
  /** Canonical apex name (one of the package's names). */
  apex: string;
  /** In the order they were added. */
  records: DnsRecord[];
}

export interface DnsRecord {
  /** Numeric id, stable and never reused; null for the SOA (api-notes: the SOA's is null). */
  ref: number | null;
  type: DnsRecordType;
  /** Fully qualified owner name, canonical lowercase, no trailing dot (`www.example.com`). */
  host: string;
  /**
   * The type's wire fields (A `ip`, MX `pri` + `target`, SOA `mname` ...), numbers as
   * numbers, names without a trailing dot.
   */
  data: Record<string, string | number>;
}

export interface Mailbox {
  /** Numeric part of the `m<id>` identifier. */
  id: number;
  /** One of the package's names. */
  domain: string;
  /** Canonical (lowercase) local part. */
  local: string;
  send: boolean;
  receive: boolean;
  enabled: boolean;
  quotaMB: number;
  usageMB: number;
  /** sha256 hex of the password that was set; the password itself is never kept. */
  passwordSha256: string;
}

export interface Forwarder {
  /** Numeric part of the `f<id>` identifier. */
  id: number;
  domain: string;
  local: string;
  /** Destination address, domain part lowercased and IDNA. */
  remote: string;
}

export interface CloudServer {
  id: number;
  externalId: number;
  /** Host name (mvpsName), canonical lowercase. */
  name: string;
  /** Product type string of the order (`cloud-20i`, `cloud-aws`, `cloud-gcp`). */
  type: string;
  /** Provider string of the order (`20icloud`, `aws`, `gcp`). */
  provider: string;
  spec: string;
  zone: string;
  periodMonths: number;
  /** As ordered (numeric strings), null when not given. */
  bandwidth: string | null;
  disk: string | null;
  branded: boolean;
  /** `stack-user:<n>` the server was ordered for; "" when ordered without forUser. */
  forUser: string;
  /** What the order charged, in cents. */
  chargedCents: number;
  /** Order time, epoch milliseconds. */
  orderedAtMs: number;
  /** The provisioning delay in force when it was ordered. */
  provisionDelayMs: number;
  /** Packages created on the server (POST /cloud_server/{id}/addWeb), ascending. */
  packageIds: number[];
}
