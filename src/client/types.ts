/**
 * Typed shapes of the reseller API, as the client returns them (normalised: package
 * ids and package-type ids are numbers, mail ids are strings such as "m123"/"f456",
 * cloud server ids are numbers). Field names follow the spec's field tables.
 */

/** Contact record of a control-panel user (spec 2.2). */
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

/** `stack-user:<n>` -> set of service keys (`package:<id>`, `domain:<id>`, `vps:<id>`). */
export type GrantMap = Record<string, Record<string, 1>>;

export interface UserList {
  /** Keyed by `stack-user:<n>`. */
  contact: Record<string, ContactRecord>;
  grantMap: GrantMap;
}

export interface PackageType {
  id: number;
  label: string;
  platform: 'linux' | 'windows';
  /**
   * What the type allows (`domains`, `webspace`, `mailboxes`, ...): a number, or null for
   * unlimited (the API's "INF"). Empty when the API does not say (see assumptions.ts).
   */
  limits?: Record<string, number | null>;
}

/** A package as listed by `GET /package` (spec 2.4). */
export interface PackageSummary {
  id: number;
  created: string;
  enabled: boolean;
  /** Primary domain name. */
  name: string;
  names: string[];
  packageTypeName: string;
  productSpec: unknown;
  stackUsers: string[];
  typeRef: number;
  packageLabels: unknown[];
}

/** One package as returned by `GET /package/{id or domain}` (api-notes). */
export interface PackageDetail {
  id: number;
  enabled: boolean;
  /** Primary domain name (`web.name`). */
  name: string;
  names: string[];
  stackUsers: string[];
  typeRef: number;
  /**
   * The label; "" for none. Absent when the response does not say (the API may not
   * return it: api-notes marks it assumed), so the label is not verifiable.
   */
  label?: string;
  platform: string;
  /** The web server's IPv4 address (`web.info.ip4Address`), when the response gives one (see assumptions.ts). */
  webIpv4?: string;
}

export interface CreatePackageRequest {
  /** Package type id (the API takes it as a string). */
  type: number;
  domainName: string;
  extraDomainNames: string[];
  label?: string;
  documentRoots?: Record<string, string>;
  stackUser?: string | null;
}

export interface MailboxEntry {
  /** Type-prefixed id, e.g. "m123". */
  id: string;
  local: string;
  send: boolean;
  receive: boolean;
  enabled: boolean;
  quotaMB?: number;
  usageMB?: number;
}

export interface ForwarderEntry {
  /** Type-prefixed id, e.g. "f456". */
  id: string;
  local: string;
  remote: string;
}

/** The mail objects of one domain of a package. */
export interface MailDomain {
  name: string;
  mailboxes: MailboxEntry[];
  forwarders: ForwarderEntry[];
  /** The domain's autoresponders (api-notes "Autoresponders": the read's `responder` list). */
  responders: ResponderEntry[];
}

/** The settings of an autoresponder, as the client reads and writes them (api-notes "Autoresponders"). */
export interface ResponderFields {
  subject: string;
  /** The reply's body. */
  content: string;
  /** `text/plain` or `text/html`. */
  type: string;
  enabled: boolean;
  /** UTC `YYYY-MM-DDTHH:MM:SSZ` as read (assumptions.ts), or null. */
  startTime: string | null;
  endTime: string | null;
  forwardTo: string | null;
}

/** One entry of a mail read's `responder` list. */
export interface ResponderEntry extends ResponderFields {
  /** Type-prefixed id, e.g. "r123". */
  id: string;
  local: string;
}

/** Response of a mail write: the created objects (spec 2.5). Passwords are not kept. */
export interface MailWriteResult {
  name: string;
  created: Array<{ type: string; id: string; generatedId: unknown }>;
}

export interface CloudServerConfiguration {
  CpuCores: number;
  RamMb: number;
  OsDiskSizeGb: number;
  DataDiskSizeGb: number;
  Provider: string;
  Zone: string;
  Country: string;
  VpsOsId: number;
  spec: string;
}

/** A cloud server list entry (spec 2.6). */
export interface CloudServer {
  id: number;
  name: string;
  location: string;
  configuration: CloudServerConfiguration;
  externalId: number;
  productSpec: string;
  isCloud: boolean;
  isManaged: boolean;
  packageIds: number[];
  profileId: number;
  timelineService: string;
}

export interface Brand {
  name: string;
  logoUrl: string;
}

export interface CloudServerWithBrand {
  server: CloudServer;
  /** Present when the server was ordered branded (X-Brand-Name / X-Brand-Logo headers). */
  brand?: Brand;
}

export interface OrderCloudServerRequest {
  configuration: {
    spec: string;
    zone: string;
    bandwidth?: string;
    disk?: string;
    provider: string;
    mvpsName: string;
    resellerCloudBranded?: boolean;
  };
  periodMonths: number;
  type: string;
  /** The control-panel user the server is for; optional (the service's cloud guide). */
  forUser?: string;
}

// ---------------------------------------------------------------------------------------
// Request shapes of the client methods (added with the client; the names above are fixed).
// ---------------------------------------------------------------------------------------

export interface CreateUserRequest {
  email: string;
  /** Sent as `person_name`. */
  personName?: string;
}

export interface CreatePackageOnCloudServerRequest {
  domainName: string;
  extraDomainNames: string[];
}

/** Domain names to add to and remove from a package (`POST /package/{id}/names`). */
export interface PackageNamesChange {
  add?: string[];
  remove?: string[];
}

export interface CreateMailboxRequest {
  local: string;
  send: boolean;
  receive: boolean;
  /** Write-only: sent once, never returned, logged or put into an error. */
  password: string;
}

export interface CreateForwarderRequest {
  local: string;
  /** Destination e-mail address. */
  remote: string;
}

export interface UpdateMailboxRequest {
  /** Type-prefixed mailbox id, e.g. "m123". */
  id: string;
  send?: boolean;
  receive?: boolean;
  /** Write-only: sent once, never returned, logged or put into an error. */
  password?: string;
}

// ---- DNS records (api-notes "DNS records") -------------------------------------------

/** Record types a zone read can show (others are kept, typed as read). */
export type DnsRecordType = 'SOA' | 'NS' | 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV';

/** Record types a write can add: NS is not writable, and the SOA is the zone's own. */
export type WritableDnsRecordType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'SRV';

/** One record as read, normalised (see `DnsRecordInput` for the matching write). */
export interface DnsRecord {
  /** The record's id, stable across reads; delete a record by it. null for the SOA. */
  ref: number | null;
  /** Upper-case record type: one of `DnsRecordType`, or another type as the API names it. */
  type: DnsRecordType | string;
  /** Fully qualified owner name: lowercase, no trailing dot (`www.example.com`; the apex is the zone name). */
  host: string;
  /**
   * The record's value, normalised so that two reads (or a read and a declaration)
   * compare equal: A `ip`; AAAA `ipv6` in RFC 5952 form (lowercase, compressed); CNAME,
   * NS, MX and SRV `target` lowercase without a trailing dot; TXT `txt` as is; SOA `mname`.
   */
  value: string;
  /** MX and SRV: `pri`. */
  priority?: number;
  /** SRV: `weight`. */
  weight?: number;
  /** SRV: `port`. */
  port?: number;
}

/** One zone of a package. */
export interface DnsZone {
  /** The zone apex: lowercase, no trailing dot. */
  name: string;
  /** In the order the API lists them (the SOA and the apex NS included). */
  records: DnsRecord[];
}

/** A record to add. */
export interface DnsRecordInput {
  type: WritableDnsRecordType;
  /**
   * Owner name, fully qualified (`www.example.com`, the apex `example.com`, a trailing
   * dot allowed) or relative to the zone (`www`, `@`, `_dmarc`, `*`). It is sent relative.
   */
  host: string;
  /** A: IPv4 address; AAAA: IPv6 address; CNAME, MX, SRV: target host name; TXT: the text. */
  value: string;
  /** MX and SRV (required there): 0-65535. */
  priority?: number;
  /** SRV (required): 0-65535. */
  weight?: number;
  /** SRV (required): 0-65535. */
  port?: number;
}

/**
 * One atomic write to a zone (`POST /package/{id}/dns/{zone}`): the deletes, then the
 * adds. A replacement (the API has no update) is the new record in `add` and the old
 * ref in `delete`, in one change. The write returns nothing: read the zone again to
 * learn the new refs.
 */
export interface DnsZoneChange {
  /** Records to add. */
  add?: DnsRecordInput[];
  /** Refs of records to delete (never the SOA's or an apex NS's). */
  delete?: Array<number | string>;
  /**
   * What an add that conflicts (a CNAME beside other records at one name) does: `reject`
   * fails the whole write, `replace` removes what is in the way, `ignore` skips the add.
   * @default 'reject'
   */
  conflictPolicy?: 'reject' | 'replace' | 'ignore';
  /**
   * `append` keeps the records already at each added name and type; `replace` removes them first.
   * @default 'append'
   */
  insertPolicy?: 'append' | 'replace';
}

/** A certificate of a package's web site, as `GET /package/{id}/web/certificates` lists it (never its PEM). */
export interface WebCertificate {
  /** The id a delete names. */
  id: string;
  /** The host name it secures (lowercase). */
  commonName: string;
  /** Who issued it: `letsencrypt/standard` for a free one (api-notes). */
  provider: string;
  /** Whether it is a free (Let's Encrypt) certificate (assumptions.ts `isFreeCertificateProvider`). */
  free: boolean;
  /** When it was issued or installed, as the API writes it; undefined when not given. */
  createdAt?: string;
}

/** A PHP version the service offers a package (`GET /package/{id}/web/availablePhpVersions`). */
export interface AvailablePhpVersion {
  /** major.minor, the form a declaration writes ("8.2"): assumptions.ts `phpVersionOfAvailable`. */
  version: string;
  /** As the API lists them (FullVersion, Handler, Title); '' when absent. */
  fullVersion: string;
  handler: string;
  title: string;
}

/**
 * A registered domain name as `GET /domain` lists it (api-notes "Domain names
 * (registrations)"). Every field but the name is read tolerantly: null when the API
 * leaves it out (or sends a form the client cannot read), never an error.
 */
export interface DomainRegistration {
  /** The registration's id (`domain:<id>` as a grant key); null when not sent. */
  id: number | null;
  /** Lowercase, without a trailing dot. */
  name: string;
  /** When the registration runs out: RFC 3339 UTC (`2026-03-01T00:00:00Z`), whatever form the API sends; null when unreadable. */
  expiryDate: string | null;
  /** When the name is lost if not renewed (after expiry and any grace period), RFC 3339 UTC; null when unreadable. */
  deadDate: string | null;
  closeToAnniversary: boolean | null;
  hasPrivacy: boolean | null;
  /** A transfer to another registrar is under way. */
  pendingTransfer: boolean | null;
  registrantIsVerified: boolean | null;
  /** What limits a renewal, as text (null: nothing, or not sent). */
  renewalConstraint: string | null;
  preferredRenewalMonths: number | null;
}

/** `GET /domain/{name}`: the registration's name and its nameservers (the rest of the answer is not relied on). */
export interface DomainDetail {
  name: string;
  /** Host names, lowercase, without a trailing dot, in the registry's order. */
  nameservers: string[];
}

/**
 * A change of a registration's nameservers (`POST /domain/{name}/nameservers`): the
 * difference against what the registry holds. No name may be in both lists.
 */
export interface NameserverChange {
  /** Nameservers to add. */
  add: string[];
  /** Nameservers to remove: each must be one the registration has (`old-ns`). */
  remove: string[];
}

/**
 * A MySQL database of a package, as `GET /package/{id}/web/mysqlDatabases` lists it
 * (api-notes "MySQL databases"). It comes with a MySQL user of the same name. Fields
 * the API may leave out are absent here (tolerant reader).
 */
export interface MysqlDatabaseEntry {
  id: number;
  /** The name the service stored (see `isStoredNameOf` in assumptions.ts); its user's name too. */
  name: string;
  /** The host a site on the package connects to. */
  host?: string;
  /** The host to connect to from outside the platform. */
  externalHostname?: string;
  server?: string;
  quotaMb?: number;
  quotaUsed?: number;
}

/** A package's FTP user (`GET /package/{id}/web/ftpCredentials`): a secret, never logged or stored. */
export interface FtpCredentials {
  username: string;
  password: string;
}
