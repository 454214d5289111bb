import { canonicalDomain, checkDomainName } from '../names';
import { checkBool, describeValue } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';

/**
 * A DNS record in one of a package's zones (api-notes "DNS records"). The API has no
 * TTL and no update, and names a record by a numeric ref that its write does not
 * return: a record is found by its natural key, zone + fully qualified owner + type +
 * normalised value (MX: priority and target; SRV: priority, weight, port, target).
 * Every field is part of that key, so every change replaces the record.
 */
export type DnsRecordSpec = {
  readonly kind: 'dns-record';
  readonly path: string;
  /** Primary domain of the package the zone belongs to (or `domain`, not both). */
  readonly packageDomain?: string;
  /**
   * A registered domain name whose own zone holds the record (`/domain/{name}/dns`), for
   * a registration no package holds (or `packageDomain`, not both). Its zone is the name.
   */
  readonly domain?: string;
  /** Zone apex: one of the package's apex names, or the registered domain name. */
  readonly zone: string;
  /** Owner name relative to the zone (`@` for the apex, `www`, `_dmarc`, `*`). */
  readonly name: string;
  readonly type: DnsRecordType;
  /** A: IPv4; AAAA: IPv6; CNAME, MX, SRV: a host name; TXT: the text. */
  readonly value: string;
  /** MX and SRV. */
  readonly priority?: number;
  /** SRV. */
  readonly weight?: number;
  /** SRV. */
  readonly port?: number;
  /**
   * On create: the records at its name that it cannot sit beside (a CNAME and any
   * other record, such as the zone's default `www` A record) are deleted in the same
   * write (the API's `conflictPolicy: replace`) instead of failing it.
   */
  readonly replaceConflicting?: boolean;
};

/** The record types the API can write (NS and SOA are its own). */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV'] as const;
/** A record type that `DnsRecord` can declare: A, AAAA, CNAME, MX, TXT or SRV. */
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

const NUMBER_FIELDS: Record<DnsRecordType, readonly ('priority' | 'weight' | 'port')[]> = {
  A: [], AAAA: [], CNAME: [], TXT: [], MX: ['priority'], SRV: ['priority', 'weight', 'port'],
};

export const DNS_RECORD_FIELDS: readonly FieldDefinition[] = [
  { name: 'packageDomain', attribute: 'package', type: 'string', role: 'identity', presence: 'optional', readable: true, words: 'package',
    description: 'Primary domain of the hosting package whose zone holds the record; give it or `domain`, not both.' },
  { name: 'domain', attribute: 'domain', type: 'string', role: 'identity', presence: 'optional', readable: true, words: 'registered domain',
    description: 'A registered domain name whose own zone holds the record (one no package holds; its zone is the name); give it or `package`, not both.' },
  { name: 'zone', attribute: 'zone', type: 'string', role: 'identity', presence: 'default', defaultFrom: 'packageDomain', readable: true,
    description: 'Zone apex: one of the package\'s apex names, defaulting to its primary domain; with `domain`, the domain name.' },
  { name: 'name', attribute: 'name', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: 'Owner name relative to the zone: `@` for the apex, `www`, `_dmarc`, `*`.' },
  { name: 'type', attribute: 'type', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: `Record type: one of ${DNS_RECORD_TYPES.join(', ')}.` },
  { name: 'value', attribute: 'value', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: 'A: an IPv4 address; AAAA: an IPv6 address; CNAME, MX, SRV: the target host name; TXT: the text.' },
  { name: 'priority', attribute: 'priority', type: 'number', role: 'identity', presence: 'optional', readable: true,
    description: 'MX and SRV (required there): priority, 0-65535.' },
  { name: 'weight', attribute: 'weight', type: 'number', role: 'identity', presence: 'optional', readable: true,
    description: 'SRV (required there): weight, 0-65535.' },
  { name: 'port', attribute: 'port', type: 'number', role: 'identity', presence: 'optional', readable: true,
    description: 'SRV (required there): port, 0-65535.' },
  { name: 'replaceConflicting', attribute: 'replace_conflicting', type: 'bool', role: 'create-only', presence: 'default', defaultValue: false, readable: false,
    words: 'replace conflicting',
    description: 'On create, delete the records at this name that the record cannot sit beside (a CNAME and any other record, such as the zone\'s default `www` A record) in the same write, instead of failing.' },
  // A record has no update: any change is a new record with a new ref.
  { name: 'ref', attribute: 'ref', type: 'string', role: 'computed', presence: 'optional', readable: true,
    derivesFrom: ['packageDomain', 'domain', 'zone', 'name', 'type', 'value', 'priority', 'weight', 'port'],
    description: 'The record\'s ref in the API (changes when the record is replaced).' },
  { name: 'fqdn', attribute: 'fqdn', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'domain', 'zone', 'name'],
    description: 'Fully qualified owner name (`www.example.com`).' },
];

// ---- names and values ---------------------------------------------------------------

const LABEL = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)$/;

/** A relative owner name in canonical form: lowercase, `@` for the apex, a name in the zone made relative. */
export function canonicalRecordName(name: string, zone: string): string {
  const apex = canonicalDomain(zone);
  const text = name.trim().toLowerCase().replace(/\.$/, '');
  if (text === '@' || text === '' || text === apex) return '@';
  return text.endsWith(`.${apex}`) ? text.slice(0, -(apex.length + 1)) : text;
}

export function checkRecordName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return `must be a name relative to the zone (@, www, _dmarc), not ${describeValue(name)}`;
  const text = name.trim().toLowerCase().replace(/\.$/, '');
  if (text === '@') return undefined;
  const labels = text.split('.');
  const bad = labels.findIndex((l, i) => !(LABEL.test(l) || (l === '*' && i === 0)));
  if (bad >= 0) return `${JSON.stringify(name)} is not a valid owner name: label ${JSON.stringify(labels[bad])} (letters, digits, - and _; * only as the first label)`;
  return text.length > 253 ? `${JSON.stringify(name)} is longer than 253 characters` : undefined;
}

/** The fully qualified owner of a relative name. */
export const fullyQualified = (name: string, zone: string): string => (name === '@' ? zone : `${name}.${zone}`);

const IPV4 = /^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$/;

/** An IPv6 address in RFC 5952 form (what the client reads), or undefined when it is not one. */
function ipv6(text: string): string | undefined {
  if (!text.includes(':') || /[^0-9a-f:.]/i.test(text)) return undefined;
  try {
    return new URL(`http://[${text.trim().toLowerCase()}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** A target host name as the client reads it: lowercase, no trailing dot. */
const canonicalTarget = (value: string) => value.trim().toLowerCase().replace(/\.$/, '');

/** The value of `type` in the form the client reads it (so that a read and a declaration compare equal). */
export function canonicalRecordValue(type: string, value: string): string {
  switch (type) {
    case 'A': return value.trim();
    case 'AAAA': return ipv6(value) ?? value.trim().toLowerCase();
    case 'TXT': return value;
    default: return canonicalTarget(value);
  }
}

function checkValue(type: DnsRecordType, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return `must be a non-empty string, not ${describeValue(value)}`;
  switch (type) {
    case 'A': return IPV4.test(value.trim()) ? undefined : `${JSON.stringify(value)} is not an IPv4 address (an A record's value)`;
    case 'AAAA': return ipv6(value) ? undefined : `${JSON.stringify(value)} is not an IPv6 address (an AAAA record's value)`;
    case 'TXT':
      if (/[\r\n]/.test(value)) return 'must be one line (a TXT record\'s text)';
      return value.length > 4000 ? `is ${value.length} characters long; at most 4000 are allowed` : undefined;
    default: {
      const problem = checkDomainName(canonicalTarget(value).replace(/^_/, 'x'));
      return problem ? `${JSON.stringify(value)} is not a host name (a ${type} record's target): ${problem}` : undefined;
    }
  }
}

function checkUint16(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535
    ? undefined : `must be an integer from 0 to 65535, not ${describeValue(value)}`;
}

/** The value part of the natural key: MX `priority target`, SRV `priority weight port target`, else the value. */
export function keyValue(spec: Pick<DnsRecordSpec, 'type' | 'value' | 'priority' | 'weight' | 'port'>): string {
  return [...NUMBER_FIELDS[spec.type].map((f) => String(spec[f])), spec.value].join(' ');
}

/** The placement of a record in a registration's own zone (a package record's is its package's primary domain). */
export const REGISTRATION_ZONE = 'domain';

/** Where a record lives: exactly one of a package and a registered domain; the zone of a registration is its name. */
function checkPlace(p: ProblemList, raw: DnsRecordSpec): void {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(raw.packageDomain) && given(raw.domain)) {
    p.add('domain', 'cannot be given with package: a record is in a package\'s zone or in a registered domain\'s own zone, not both');
    return;
  }
  if (!given(raw.domain)) {
    p.add('packageDomain', given(raw.packageDomain) ? checkDomainName(raw.packageDomain) : 'is required (or give domain: a registered domain name whose own zone holds the record)');
    p.add('zone', checkDomainName(raw.zone));
    return;
  }
  p.add('domain', checkDomainName(raw.domain));
  if (given(raw.zone) && !checkDomainName(raw.domain) && canonicalDomain(String(raw.zone)) !== canonicalDomain(String(raw.domain))) {
    p.add('zone', `${describeValue(raw.zone)} must be the registered domain name ${describeValue(raw.domain)} (a registration has one zone, its name), or be left out`);
  }
}

export function checkDnsRecord(raw: DnsRecordSpec, path: string = raw.path): Checked<DnsRecordSpec> {
  const p = new ProblemList(path);
  checkPlace(p, raw);
  p.add('name', checkRecordName(raw.name));
  p.add('replaceConflicting', checkBool(raw.replaceConflicting ?? undefined));
  const type = typeof raw.type === 'string' ? (raw.type.trim().toUpperCase() as DnsRecordType) : raw.type;
  if (!DNS_RECORD_TYPES.includes(type)) {
    p.add('type', `must be one of ${DNS_RECORD_TYPES.join(', ')}, not ${describeValue(raw.type)}`);
    return { spec: raw, problems: p.problems };
  }
  p.add('value', checkValue(type, raw.value));
  for (const field of ['priority', 'weight', 'port'] as const) {
    const wanted = NUMBER_FIELDS[type].includes(field);
    if (raw[field] === undefined || raw[field] === null) {
      if (wanted) p.add(field, `is required for a ${type} record`);
    } else if (!wanted) p.add(field, `applies to ${Object.entries(NUMBER_FIELDS).filter(([, f]) => f.includes(field)).map(([t]) => t).join(' and ')} records only, not ${type}`);
    else p.add(field, checkUint16(raw[field]));
  }
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const onRegistration = raw.domain !== undefined && raw.domain !== null;
  const zone = canonicalDomain(onRegistration ? (raw.domain as string) : raw.zone);
  const name = canonicalRecordName(raw.name, zone);
  if (type === 'CNAME' && name === '@') p.add('name', 'must not be @ for a CNAME: the zone apex holds the SOA and NS records, and a CNAME may not share its name');
  if (type === 'SRV' && !/^_[^.]+\._(tcp|udp|tls)(\.|$)/.test(name)) p.add('name', `${JSON.stringify(raw.name)} must be _service._proto (e.g. _sip._tcp) for an SRV record`);
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const spec: DnsRecordSpec = {
    kind: 'dns-record', path, ...(onRegistration ? { domain: zone } : { packageDomain: canonicalDomain(raw.packageDomain as string) }),
    zone, name, type, value: canonicalRecordValue(type, raw.value),
    ...Object.fromEntries(NUMBER_FIELDS[type].map((f) => [f, raw[f]])),
    ...(raw.replaceConflicting ? { replaceConflicting: true } : {}),
  };
  return { spec, problems: [] };
}

// ---- identity and import ids ---------------------------------------------------------

/** The parts of a record key `zone/fqdn/TYPE/value` (the value may hold `/`), or of `zone/#ref`. */
export function splitRecordKey(key: string): { zone: string; fqdn: string; type: string; value: string } | { zone: string; ref: string } {
  const [zone, second = '', type = '', ...rest] = key.split('/');
  if (second.startsWith('#') && type === '') return { zone, ref: second.slice(1) };
  return { zone, fqdn: second, type, value: rest.join('/') };
}

function dnsIdentity(spec: DnsRecordSpec, parent = ''): Identity {
  const placement = spec.domain !== undefined ? REGISTRATION_ZONE : spec.packageDomain ?? '';
  return { kind: 'dns-record', key: `${spec.zone}/${fullyQualified(spec.name, spec.zone)}/${spec.type}/${keyValue(spec)}`, placement, parent };
}

/** The spec of a natural key (without path), or the problem with it. `placement` REGISTRATION_ZONE: in the registration's own zone. */
export function specOfKey(zone: string, name: string, type: string, value: string, placement = zone): DnsRecordSpec | string {
  const t = type.trim().toUpperCase() as DnsRecordType;
  const numbers = NUMBER_FIELDS[t] ?? [];
  const words = value.split(' ');
  if (words.length <= numbers.length || numbers.some((_, i) => !/^[0-9]+$/.test(words[i]))) {
    return `the value of a ${t} record must be "${[...numbers, 'target'].join(' ')}", not ${JSON.stringify(value)}`;
  }
  const place = placement === REGISTRATION_ZONE ? { domain: zone } : { packageDomain: placement };
  const raw = {
    kind: 'dns-record', path: 'import', ...place, zone, name, type: t, value: words.slice(numbers.length).join(' '),
    ...Object.fromEntries(numbers.map((f, i) => [f, Number(words[i])])),
  } as DnsRecordSpec;
  const { spec, problems } = checkDnsRecord(raw, 'import');
  return problems.length ? problems.map((x) => `${x.field} ${x.rule}`).join('; ') : spec;
}

/**
 * `[package:]zone/name/type/value` or `[package:]zone/#ref`; `domain:zone/...` for a
 * record in a registered domain's own zone (`domain` is no package: a package's primary
 * domain has two labels at least).
 */
function parseDnsImportId(text: string): Identity | string {
  const parts = text.split('/');
  const [head, name = ''] = parts;
  const colon = head.indexOf(':');
  const packageDomain = colon >= 0 ? head.slice(0, colon) : '';
  const zone = colon >= 0 ? head.slice(colon + 1) : head;
  const help = `import id "${text}" must be zone/name/type/value (example.com/www/CNAME/example.com, example.com/@/MX/10 mail.example.com) or zone/#ref, ` +
    'with package: or domain: before the zone where needed';
  const onRegistration = packageDomain === REGISTRATION_ZONE;
  const problem = checkDomainName(zone) ?? (packageDomain && !onRegistration ? checkDomainName(packageDomain) : undefined);
  if (problem) return `${help}: zone ${problem}`;
  const placement = onRegistration ? REGISTRATION_ZONE : canonicalDomain(packageDomain || zone);
  if (parts.length === 2 && /^#[0-9]{1,15}$/.test(name)) return { kind: 'dns-record', key: `${canonicalDomain(zone)}/${name}`, placement, parent: '' };
  if (parts.length < 4) return help;
  const spec = specOfKey(canonicalDomain(zone), name, parts[2], parts.slice(3).join('/'), placement);
  return typeof spec === 'string' ? `${help}: ${spec}` : dnsIdentity(spec);
}

function formatDnsImportId(id: Identity): string {
  const parts = splitRecordKey(id.key);
  // A registration's record always says so (its zone's name alone would find a package's).
  const head = id.placement && id.placement !== parts.zone ? `${id.placement}:${parts.zone}` : parts.zone;
  if ('ref' in parts) return `${head}/#${parts.ref}`;
  return `${head}/${canonicalRecordName(parts.fqdn, parts.zone)}/${parts.type}/${parts.value}`;
}

function checkDnsIdentity(id: Identity): string[] {
  const parsed = parseDnsImportId(formatDnsImportId(id));
  return typeof parsed === 'string' ? [`key ${parsed}`] : [];
}

function canonicalDnsIdentity(id: Identity): Identity {
  const parsed = parseDnsImportId(formatDnsImportId(id));
  return typeof parsed === 'string' ? id : { ...parsed, parent: id.parent };
}

export const dnsRecordDefinition = {
  kind: 'dns-record',
  label: 'DNS record',
  description: 'A DNS record (A, AAAA, CNAME, MX, TXT, SRV) in a zone of a hosting package, or in the own zone of a registered domain name no package holds. The API has no update: a change within the zone replaces the record in one atomic write (the new record added, the old one deleted), so `ref` changes; a change of package, domain or zone deletes it and creates it anew.',
  order: 5,
  resourceType: 'reseller_dns_record',
  keyName: 'record',
  importIdHelp: 'zone/name/type/value (example.com/www/CNAME/example.com; MX value "priority target") or zone/#ref',
  fields: DNS_RECORD_FIELDS,
  check: checkDnsRecord,
  identity: dnsIdentity,
  jsonSettings: [],
  settings: (): Record<string, string> => ({}),
  checkIdentity: checkDnsIdentity,
  canonicalIdentity: canonicalDnsIdentity,
  parseImportId: parseDnsImportId,
  formatImportId: formatDnsImportId,
  parent: { field: 'packageDomain', kind: 'package', placesKey: true } as const,
  // The API's write is one diff (deletes, then adds): a record changed within its zone is replaced in it.
  lifecycle: { replacesInOneWrite: { keeping: ['packageDomain', 'domain', 'zone'] } },
  // The zone's own records (SOA, NS, the defaults) are the service's: drift does not call them unmanaged.
  reportsUnmanaged: false,
  import: {
    construct: 'DnsRecord',
    idPrefix: 'dns',
    idName: (spec: DnsRecordSpec) => `${spec.name === '@' ? '' : `${spec.name}_`}${spec.zone}_${spec.type}`,
    // One zone read per package, and the zone's default records come with it: declared on request only.
    byDefault: false,
    formerFlag: 'dns',
    props: [{ field: 'packageDomain', prop: 'package' }, 'domain', 'zone', 'name', 'type', 'value', 'priority', 'weight', 'port'],
    notes: (live) => ({ after: `ref ${live.liveId}` }),
  },
} satisfies KindDefinition<'dns-record', DnsRecordSpec>;
