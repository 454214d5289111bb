import { isIPv4, isIPv6 } from 'node:net';
import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { dnsReadForm, dnsWriteResult, zoneBody } from './assumed';
import { applyZoneDiff, ConflictPolicy, InsertPolicy, NewRecord, recordView, requireZone } from './backend';
import { DnsZone, WRITABLE_TYPES, WritableType } from './model';
import { requirePackage } from '../packages/backend';
import { EmulatorProfile, withAssumed } from '../../profile';
import { expectArray, expectBody, expectObject, expectString } from '../../validate';

/**
 * DNS records (api-notes "DNS records"): read every zone or one, write one atomic diff.
 * `zoneView` and `writeZone` serve any route that reads or writes one zone the same
 * way (a registered domain's zone, `/domain/{name}/dns`, is read and written like this).
 */
export function addDnsRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/dns', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    const out: Record<string, unknown> = Object.create(null);
    for (const zone of pkg.zones) out[zone.apex] = zoneView(zone, ctx.profile);
    return bare(out);
  });
  router.add('GET', '/package/:pkg/dns/:zone', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return bare(zoneView(requireZone(pkg, ctx.params.zone), ctx.profile));
  });
  router.add('POST', '/package/:pkg/dns/:zone', (ctx) => writeZone(ctx, () => requireZone(requirePackage(ctx.account, ctx.params.pkg), ctx.params.zone)));
}

/** A zone as the API reads it: `{"records": [...]}` in the profile's read form. */
export function zoneView(zone: DnsZone, profile: EmulatorProfile): Record<string, unknown> {
  const form = dnsReadForm(withAssumed(profile));
  return zoneBody(zone.records.map((r) => recordView(r, form)));
}

const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['reject', 'replace', 'ignore'];
const INSERT_POLICIES: readonly InsertPolicy[] = ['append', 'replace'];

/** The policies a route takes when a write leaves them out (see writeZone). */
export interface ZonePolicies {
  readonly conflictPolicy: ConflictPolicy;
  readonly insertPolicy: InsertPolicy;
}

/**
 * `{"conflictPolicy", "insertPolicy", "new": {"A": [...], ...}, "delete": ["<ref>"]}`.
 * Both policies are required (every public client of the package route sends them)
 * unless the route gives `defaults` for a write without them (a registered domain's
 * route: its certbot client sends none); a `new` type that is absent counts as `[]`.
 * NS (or any other key) in `new` is refused: NS is not writable.
 */
export function writeZone(ctx: ApiContext, zoneOf: () => DnsZone, defaults?: ZonePolicies) {
  const body = expectBody(ctx.body);
  const zone = zoneOf(); // after the body check: a bad body is 400 whatever the path names
  const given = (value: unknown) => value !== undefined || !defaults;
  const conflictPolicy = given(body.conflictPolicy) ? oneOf(body.conflictPolicy, 'conflictPolicy', CONFLICT_POLICIES) : defaults!.conflictPolicy;
  const insertPolicy = given(body.insertPolicy) ? oneOf(body.insertPolicy, 'insertPolicy', INSERT_POLICIES) : defaults!.insertPolicy;
  const adds = body.new === undefined || body.new === null ? [] : readNew(body.new, zone.apex);
  const deletes = body.delete === undefined || body.delete === null ? [] : readDeletes(body.delete);
  if (body.new === undefined && body.delete === undefined) throw validationError('request body must have new and/or delete');
  applyZoneDiff(ctx.state, zone, { conflictPolicy, insertPolicy, adds, deletes });
  return wrapped(withAssumed(ctx.profile) ? dnsWriteResult() : null);
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw validationError(`${path} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }
  return value as T;
}

function readNew(value: unknown, apex: string): NewRecord[] {
  const byType = expectObject(value, 'new');
  const unknown = Object.keys(byType).find((k) => !(WRITABLE_TYPES as readonly string[]).includes(k));
  if (unknown !== undefined) {
    const why = unknown === 'NS' ? 'NS records are not writable' : `"${unknown}" is not a record type`;
    throw validationError(`new.${unknown}: ${why} (new takes ${WRITABLE_TYPES.join(', ')})`);
  }
  const adds: NewRecord[] = [];
  for (const type of WRITABLE_TYPES) {
    if (byType[type] === undefined || byType[type] === null) continue;
    expectArray(byType[type], `new.${type}`).forEach((entry, i) => adds.push(readRecordEntry(type, entry, apex, `new.${type}[${i}]`)));
  }
  return adds;
}

/** `delete`: refs as strings (what clients send) or numbers. */
function readDeletes(value: unknown): number[] {
  return expectArray(value, 'delete').map((ref, i) => {
    const text = typeof ref === 'number' ? String(ref) : ref;
    if (typeof text !== 'string' || !/^[0-9]{1,15}$/.test(text)) throw validationError(`delete[${i}] must be a record ref (digits)`);
    return Number(text);
  });
}

/**
 * One record of `new` (or of a control-panel edit): `host` relative to the zone (`@`,
 * `www`, `_dmarc`, `*`), and the type's fields (api-notes). Returns it fully qualified.
 */
export function readRecordEntry(type: WritableType, value: unknown, apex: string, path: string, hostDefault?: string): NewRecord {
  const entry = expectObject(value, path);
  const host = entry.host === undefined && hostDefault !== undefined ? hostDefault : absoluteHost(entry.host, apex, `${path}.host`);
  return { type, host, data: readRecordData(type, entry, path) };
}

function readRecordData(type: WritableType, entry: Record<string, unknown>, path: string): Record<string, string | number> {
  const at = (key: string) => `${path}.${key}`;
  switch (type) {
    case 'A': {
      const ip = expectString(entry.ip, at('ip'));
      if (!isIPv4(ip)) throw validationError(`${at('ip')} must be an IPv4 address (got "${ip}")`);
      return { ip };
    }
    case 'AAAA': {
      const ipv6 = expectString(entry.ipv6, at('ipv6'));
      if (!isIPv6(ipv6)) throw validationError(`${at('ipv6')} must be an IPv6 address (got "${ipv6}")`);
      return { ipv6: ipv6.toLowerCase() };
    }
    case 'CNAME':
      return { target: targetName(entry.target, at('target')) };
    case 'MX':
      return { pri: uint16(entry.pri, at('pri')), target: targetName(entry.target, at('target')) };
    case 'TXT': {
      const txt = expectString(entry.txt, at('txt'), { min: 1, max: 4096 });
      if (/[\x00-\x08\x0a-\x1f\x7f]/.test(txt)) throw validationError(`${at('txt')} must not contain control characters`);
      return { txt };
    }
    case 'SRV':
      return {
        pri: uint16(entry.pri, at('pri')),
        weight: uint16(entry.weight, at('weight')),
        port: uint16(entry.port, at('port')),
        target: targetName(entry.target, at('target')),
      };
  }
}

const HOST_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A relative owner name -> fully qualified: `@` is the apex, `*` may lead. A trailing dot (absolute) is refused. */
function absoluteHost(value: unknown, apex: string, path: string): string {
  const host = expectString(value, path, { min: 1, max: 253 }).toLowerCase();
  if (host === '@') return apex;
  if (host.endsWith('.')) throw validationError(`${path} must be relative to the zone (e.g. "www" or "@"), not "${value as string}"`);
  const labels = host.split('.');
  const ok = labels.every((label, i) => (i === 0 && label === '*') || HOST_LABEL.test(label));
  if (!ok) throw validationError(`${path} "${value as string}" is not a valid relative name (labels of letters, digits, "-" or "_"; "*" first)`);
  const fqdn = `${host}.${apex}`;
  if (fqdn.length > 253) throw validationError(`${path}: ${fqdn} is longer than 253 characters`);
  return fqdn;
}

/** A target name: absolute, a trailing dot allowed (and dropped). */
function targetName(value: unknown, path: string): string {
  const name = expectString(value, path, { min: 1, max: 254 }).toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length > 253 || labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l))) {
    throw validationError(`${path} "${value as string}" is not a valid host name`);
  }
  return name;
}

/** 0-65535, as a number or a numeric string. */
function uint16(value: unknown, path: string): number {
  const n = typeof value === 'string' && /^[0-9]{1,5}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535) throw validationError(`${path} must be an integer from 0 to 65535`);
  return n;
}
