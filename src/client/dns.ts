import { acceptDnsWriteResult, dnsNameOfRead, dnsNumberOfRead, recordListOfZoneValue } from './assumptions';
import { isMissingObject } from './errors';
import { nonEmptyString, packageSegment, pathSegment } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { DnsRecord, DnsRecordInput, DnsZone, DnsZoneChange, WritableDnsRecordType } from './types';

/**
 * DNS records of a package (api-notes "DNS records"): `GET /package/{id}/dns` (every
 * zone), `GET|POST /package/{id}/dns/{zone}` (one zone; one atomic diff). `packageRef` is
 * the package id or one of its domain names.
 *
 * Reads are tolerant (numbers as strings or numbers, names with or without a trailing
 * dot, a bare list as a zone's value) and give hosts fully qualified; writes send hosts
 * relative to the zone. There is no TTL and no update, and the write does not return the
 * new ref: read the zone again after writing.
 */
export class Dns extends Resource {
  /** Every zone of the package, in the order the API lists them. */
  async listZones(packageRef: string | number): Promise<DnsZone[]> {
    const operation = 'listDnsZones';
    return this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `/package/${packageSegment(packageRef, operation)}/dns`,
      parse: (data) => Object.entries(shape.map(data, '')).map(([name, value]) => parseZone(name, value, name)),
    });
  }

  /** One zone by its apex; undefined when the API answers 404 (not a zone apex of the package, or no such package). */
  async getZone(packageRef: string | number, zone: string): Promise<DnsZone | undefined> {
    const operation = 'getDnsZone';
    try {
      return await this.ctx.transport.call({
        operation,
        method: 'GET',
        path: zonePath(packageRef, zone, operation),
        parse: (data) => parseZone(zone, data, ''),
      });
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  /**
   * Sends one atomic diff to a zone. Resolves when the API accepted it; read the zone
   * again to learn the new refs (the response does not carry them). A conflict under
   * `conflictPolicy: 'reject'` is the API's error (409: a ConflictError).
   */
  async changeZone(packageRef: string | number, zone: string, change: DnsZoneChange): Promise<void> {
    const operation = 'changeDnsZone';
    const path = zonePath(packageRef, zone, operation);
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path,
      body: zoneChangeBody(zone, change, operation),
      parse: (data) => acceptDnsWriteResult(data),
    });
  }
}

function zonePath(packageRef: string | number, zone: string, operation: string): string {
  return `/package/${packageSegment(packageRef, operation)}/dns/${pathSegment(zone, operation, 'zone')}`;
}

// ---- reading --------------------------------------------------------------------------

/** One zone's value of a read (`{records: [...]}` or a bare list) as a zone named `name`. */
export function parseZone(name: string, value: unknown, where: string): DnsZone {
  const records = recordListOfZoneValue(value, where).map((v, i) => parseDnsRecord(v, shape.at(shape.at(where, 'records'), i)));
  return { name: dnsNameOfRead(name, where || 'zone'), records };
}

/** One flat record of a read -> its normalised form (see `DnsRecord`). */
export function parseDnsRecord(value: unknown, where: string): DnsRecord {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  const type = shape.string(entry.type, f('type')).trim().toUpperCase();
  const record: DnsRecord = {
    ref: entry.ref === undefined || entry.ref === null ? null : shape.id(entry.ref, f('ref')),
    type,
    host: dnsNameOfRead(entry.host, f('host')),
    value: '',
  };
  const num = (key: string) => dnsNumberOfRead(entry[key], f(key));
  switch (type) {
    case 'A':
      record.value = shape.string(entry.ip, f('ip')).trim();
      break;
    case 'AAAA':
      record.value = normaliseIpv6(shape.string(entry.ipv6, f('ipv6')));
      break;
    case 'MX':
      record.priority = num('pri');
      record.value = dnsNameOfRead(entry.target, f('target'));
      break;
    case 'SRV':
      record.priority = num('pri');
      record.weight = num('weight');
      record.port = num('port');
      record.value = dnsNameOfRead(entry.target, f('target'));
      break;
    case 'TXT':
      record.value = shape.string(entry.txt, f('txt'));
      break;
    case 'SOA':
      record.value = dnsNameOfRead(entry.mname, f('mname'));
      break;
    default:
      // CNAME, NS, and types this client does not know: the target when there is one.
      record.value = entry.target === undefined || entry.target === null ? '' : dnsNameOfRead(entry.target, f('target'));
  }
  return record;
}

/**
 * An IPv6 address in RFC 5952 form (lowercase, zeros compressed), so that `2001:DB8:0::1`
 * and `2001:db8::1` compare equal. Uses the WHATWG URL parser, which serialises hosts so.
 * Anything it cannot parse is returned trimmed and lowercased.
 */
export function normaliseIpv6(address: string): string {
  const text = address.trim().toLowerCase();
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

// ---- writing --------------------------------------------------------------------------

/**
 * `host` relative to `zone`: `@` for the apex, `www` for `www.example.com`. A name given
 * relative already (`www`, `@`) is kept; a fully qualified name outside the zone (a
 * trailing dot, or not under it when it ends with the zone's last labels) is an error.
 */
export function relativeHost(host: string, zone: string, operation = 'relativeHost'): string {
  const apex = zone.trim().toLowerCase().replace(/\.$/, '');
  const name = nonEmptyString(host, operation, 'host').trim().toLowerCase();
  if (name === '@') return '@';
  const absolute = name.endsWith('.');
  const bare = name.replace(/\.$/, '');
  if (bare === apex) return '@';
  if (bare.endsWith(`.${apex}`)) return bare.slice(0, -(apex.length + 1));
  if (absolute) throw new TypeError(`${operation}: host ${JSON.stringify(host)} is not in zone ${apex}`);
  return bare;
}

/** The fully qualified name of a relative one (`@` -> the apex, `www` -> `www.example.com`); a name in the zone already is kept. */
export function fullyQualifiedHost(name: string, zone: string): string {
  const apex = zone.trim().toLowerCase().replace(/\.$/, '');
  const relative = relativeHost(name, apex, 'fullyQualifiedHost');
  return relative === '@' ? apex : `${relative}.${apex}`;
}

const WRITABLE: readonly WritableDnsRecordType[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV'];

/** The write body: every `new` key present (`[]` when unused), refs as strings (api-notes). */
export function zoneChangeBody(zone: string, change: DnsZoneChange, operation: string): Record<string, unknown> {
  const adds = change.add ?? [];
  const byType = Object.fromEntries(WRITABLE.map((t) => [t, [] as Record<string, unknown>[]]));
  adds.forEach((record, i) => {
    if (!WRITABLE.includes(record?.type)) {
      throw new TypeError(`${operation}: add[${i}].type must be one of ${WRITABLE.join(', ')}, got ${JSON.stringify(record?.type)}`);
    }
    byType[record.type].push(newRecordEntry(record, zone, `${operation}: add[${i}]`));
  });
  const deletes = (change.delete ?? []).map((ref, i) => {
    const text = String(ref).trim();
    if (!/^[0-9]{1,15}$/.test(text)) throw new TypeError(`${operation}: delete[${i}] must be a record ref (digits), got ${JSON.stringify(ref)}`);
    return text;
  });
  return {
    conflictPolicy: change.conflictPolicy ?? 'reject',
    insertPolicy: change.insertPolicy ?? 'append',
    new: byType,
    delete: deletes,
  };
}

function newRecordEntry(record: DnsRecordInput, zone: string, where: string): Record<string, unknown> {
  const host = relativeHost(record.host, zone, where);
  const value = nonEmptyString(record.value, where, 'value');
  const uint16 = (n: number | undefined, what: string): number => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535) {
      throw new TypeError(`${where}: ${what} of a ${record.type} record must be an integer from 0 to 65535, got ${JSON.stringify(n)}`);
    }
    return n;
  };
  switch (record.type) {
    case 'A':
      return { host, ip: value };
    case 'AAAA':
      return { host, ipv6: value };
    case 'CNAME':
      return { host, target: value };
    case 'MX':
      return { host, target: value, pri: uint16(record.priority, 'priority') };
    case 'TXT':
      return { host, txt: value };
    case 'SRV':
      return { host, pri: uint16(record.priority, 'priority'), weight: uint16(record.weight, 'weight'), port: uint16(record.port, 'port'), target: value };
  }
}
