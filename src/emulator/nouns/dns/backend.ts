import { Account, Package, State } from '../../backend/model';
import { DnsRecord, DnsZone, WritableType } from './model';
import { defaultZoneRecords, dnsConflictError, DefaultRecord, replacedByInsert, unknownDeleteRef, zoneApexes } from './assumed';
import { packageWebIp } from '../packages/assumed';
import { validationError } from '../../assumed';
import { notFound } from '../../errors';
import { canonicalDomain } from '../../../protocol/names';

/**
 * DNS zones of a package (api-notes "DNS records"): one zone per apex name, records
 * identified by a numeric `ref` that is never reused. The API has no update: a write is
 * one atomic diff (delete, then `insertPolicy`, then adds under `conflictPolicy`).
 */

export type ConflictPolicy = 'reject' | 'replace' | 'ignore';
export type InsertPolicy = 'append' | 'replace';

/** A record to add: fully qualified host, checked fields. */
export interface NewRecord {
  type: WritableType;
  host: string;
  data: Record<string, string | number>;
}

export interface ZoneDiff {
  conflictPolicy: ConflictPolicy;
  insertPolicy: InsertPolicy;
  adds: NewRecord[];
  deletes: number[];
}

/** The zones of a new package (or of one in a data file from before DNS): one per apex name, with the default records. */
export function freshZones(state: State, pkg: Package): DnsZone[] {
  return zoneApexes(pkg.names).map((apex) => newZone(state, pkg, apex));
}

/**
 * Gives the package a zone (with the default records) for every apex name it has and
 * none for a name it no longer has. Called whenever a package's names change.
 */
export function syncZones(state: State, pkg: Package): void {
  const apexes = zoneApexes(pkg.names);
  pkg.zones = pkg.zones.filter((z) => apexes.includes(z.apex));
  for (const apex of apexes) {
    if (!pkg.zones.some((z) => z.apex === apex)) pkg.zones.push(newZone(state, pkg, apex));
  }
}

function newZone(state: State, pkg: Package, apex: string): DnsZone {
  return createZone(state, apex, defaultZoneRecords(apex, packageWebIp(pkg)));
}

/**
 * A zone of `apex` holding `records`, each given a ref as an added record gets one (the
 * SOA none): for a zone outside any package (a registered domain's own zone, served at
 * `/domain/{name}/dns`), whose default records its noun chooses.
 */
export function createZone(state: State, apex: string, records: readonly DefaultRecord[]): DnsZone {
  return { apex, records: records.map((r) => withRef(state, r)) };
}

/** The zone of `apex` on one of the account's packages, if a package holds that name as a zone apex. */
export function packageZone(account: Account, apex: string): DnsZone | undefined {
  for (const pkg of account.packages) {
    const zone = pkg.zones.find((z) => z.apex === apex);
    if (zone) return zone;
  }
  return undefined;
}

function withRef(state: State, record: DefaultRecord): DnsRecord {
  return { ref: record.type === 'SOA' ? null : state.counters.dnsRef++, type: record.type, host: record.host, data: { ...record.data } };
}

/** The zone whose apex is `name` (any case, trailing dot allowed); 404 for any other name, a subdomain too. */
export function requireZone(pkg: Package, name: string): DnsZone {
  const apex = canonicalDomain(name);
  const zone = apex === '' ? undefined : pkg.zones.find((z) => z.apex === apex);
  if (!zone) throw notFound(`${name} is not a DNS zone of package ${pkg.id}`);
  return zone;
}

/** The records of a zone that are never deleted: the SOA and the NS records at the apex (api-notes). */
export function isProtected(zone: DnsZone, record: DnsRecord): boolean {
  return record.type === 'SOA' || (record.type === 'NS' && record.host === zone.apex);
}

/** Applies one write atomically (the caller's transaction undoes everything on a throw). */
export function applyZoneDiff(state: State, zone: DnsZone, diff: ZoneDiff): void {
  for (const ref of diff.deletes) {
    const record = zone.records.find((r) => r.ref === ref);
    if (!record) {
      unknownDeleteRef(ref);
      continue;
    }
    if (isProtected(zone, record)) throw validationError(`delete: record ${ref} is the zone's ${record.type} at the apex and cannot be deleted`);
    zone.records = zone.records.filter((r) => r !== record);
  }
  if (diff.insertPolicy === 'replace') zone.records = zone.records.filter((r) => !replacedByInsert(r, diff.adds));
  diff.adds.forEach((add, i) => addRecord(state, zone, add, diff.conflictPolicy, `new.${add.type}[${indexInType(diff.adds, i)}]`));
}

function indexInType(adds: NewRecord[], i: number): number {
  return adds.slice(0, i).filter((a) => a.type === adds[i].type).length;
}

/**
 * Adds one record under the conflict policy. A conflict is a CNAME beside any other
 * record at the same name (RFC 1034 3.6.2), a second CNAME included. An identical
 * record that is not a CNAME is added again (ASSUMED, see `unknownDeleteRef`).
 */
function addRecord(state: State, zone: DnsZone, add: NewRecord, policy: ConflictPolicy, path: string): void {
  const clashes = zone.records.filter((r) => r.host === add.host && (add.type === 'CNAME' || r.type === 'CNAME'));
  if (clashes.length > 0) {
    if (policy === 'ignore') return;
    const kept = clashes.filter((r) => isProtected(zone, r));
    if (policy === 'reject' || kept.length > 0) {
      const what = [...new Set(clashes.map((r) => r.type))].join(', ');
      throw dnsConflictError(`${path}: a ${add.type} at ${add.host} conflicts with the ${what} record there (a CNAME cannot share its name)`);
    }
    zone.records = zone.records.filter((r) => !clashes.includes(r));
  }
  zone.records.push(withRef(state, add));
}

/**
 * Changes a record in place, keeping its ref, as an edit in the control panel does
 * (the API itself has no update). Used by the control API for drift tests.
 */
export function editRecord(zone: DnsZone, ref: number, next: { host: string; data: Record<string, string | number> }): DnsRecord {
  const record = zone.records.find((r) => r.ref === ref);
  if (!record) throw notFound(`record ${ref} is not in zone ${zone.apex}`);
  if (isProtected(zone, record)) throw validationError(`record ${ref} is the zone's ${record.type} at the apex and cannot be edited`);
  const clash = zone.records.find((r) => r !== record && r.host === next.host && (record.type === 'CNAME' || r.type === 'CNAME'));
  if (clash) throw dnsConflictError(`a ${record.type} at ${next.host} conflicts with the ${clash.type} record there`);
  record.host = next.host;
  record.data = { ...next.data };
  return record;
}

/** How a read shows names and numbers (see `dnsReadForm` in assumed.ts). */
export interface ReadForm {
  numbersAsText: boolean;
  trailingDot: boolean;
}

/** The fields that hold a domain name, and get a trailing dot in that read form. */
const NAME_FIELDS = new Set(['target', 'mname', 'rname']);

/** A record as the API reads it: flat, `host` fully qualified. */
export function recordView(record: DnsRecord, form: ReadForm): Record<string, unknown> {
  const dot = (name: string) => (form.trailingDot ? `${name}.` : name);
  const view: Record<string, unknown> = { type: record.type, host: dot(record.host), ref: record.ref };
  for (const [key, value] of Object.entries(record.data)) {
    if (typeof value === 'number') view[key] = form.numbersAsText ? String(value) : value;
    else view[key] = NAME_FIELDS.has(key) ? dot(value) : value;
  }
  return view;
}
