import type { DnsRecord, DnsRecordInput, DnsZone } from '../client';
import { ConflictError, isMissingObject } from '../client';
import type { DnsZoneChange } from '../client';
import {
  canonicalRecordName, definitionOf, DNS_RECORD_TYPES, DnsRecordSpec, fullyQualified, Identity, keyValue, REGISTRATION_ZONE, splitRecordKey,
} from '../protocol';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { ReconcileError } from './errors';
import type { FieldDiff } from './diff';
import type { KindReconciler } from './kind';
import { Observed, observed } from './observed';
import { listedPackages } from './package';
import { packageIndex } from './package-index';
import { listedRegistrations, notHeld, registrationZoneList } from './domains';

/**
 * DNS records (api-notes "DNS records"). One read of a package's zones
 * (`GET /package/{id}/dns`) serves every record on them, through the context's list
 * cache; a record in a registered domain's own zone (a registration no package holds)
 * is read and written through `/domain/{name}/dns`, one read per registration. The API has no update and its write does not return the new ref, so a record
 * is found by its natural key (zone, owner, type, normalised value) and every write is
 * read back. The service's own records (SOA, NS) are never written: only the types the
 * kind declares are listed, and a delete sends refs of those alone.
 */

const WRITABLE: readonly string[] = DNS_RECORD_TYPES;

/** The name of a package's zones in the context's lists. */
const zonesList = (packageDomain: string) => `dns:${packageDomain}`;

async function readZonesIfPresent(ctx: ReconcileContext, packageDomain: string): Promise<DnsZone[] | undefined> {
  try {
    return await ctx.client.dns.listZones(packageDomain);
  } catch (err) {
    if (isMissingObject(err)) return undefined;
    throw err;
  }
}

/**
 * The package's zones; `after` > 0 asks for a read started after that tick (to confirm a write). Undefined: no such package.
 * Also the read of the `reseller_dns_records` data source (account.ts): one zone read per package per context.
 */
export function zonesOf(ctx: ReconcileContext, packageDomain: string, after = 0): Promise<DnsZone[] | undefined> {
  return ctx.lists.get(zonesList(packageDomain), () => readZonesIfPresent(ctx, packageDomain), after);
}

/**
 * Where a record's zone is read and written: a package's zones (by its primary domain),
 * or a registered domain's own zone (`domain`: the zone is its name).
 */
type Place = { readonly packageDomain: string; readonly domain?: undefined } | { readonly domain: string; readonly packageDomain?: undefined };

const placeOfSpec = (spec: DnsRecordSpec): Place => (spec.domain !== undefined ? { domain: spec.domain } : { packageDomain: spec.packageDomain as string });

/** The zones at a place, through the context's lists (undefined: no such package, or the account does not hold the domain). */
function zonesAt(ctx: ReconcileContext, place: Place, after = 0): Promise<DnsZone[] | undefined> {
  if (place.domain === undefined) return zonesOf(ctx, place.packageDomain, after);
  const domain = place.domain;
  return ctx.lists.get(registrationZoneList(domain), async () => {
    const zone = await ctx.client.domains.getZone(domain);
    return zone && [zone];
  }, after);
}

const listOfPlace = (place: Place) => (place.domain === undefined ? zonesList(place.packageDomain) : registrationZoneList(place.domain));

/** Sends one diff to the zone at a place. */
function changeZoneAt(ctx: ReconcileContext, place: Place, zone: string, change: DnsZoneChange): Promise<void> {
  return place.domain === undefined ? ctx.client.dns.changeZone(place.packageDomain, zone, change) : ctx.client.domains.changeZone(place.domain, change);
}

/** The place of a record's identity: its registration's zone, or the package that holds its zone. */
async function placeOfIdentity(ctx: ReconcileContext, id: Identity, zone: string): Promise<Place> {
  return id.placement === REGISTRATION_ZONE ? { domain: zone } : { packageDomain: await packageOfZone(ctx, id.placement, zone) };
}

/** The value part of a live record's natural key (MX `priority target`, SRV `priority weight port target`). */
function liveKeyValue(r: DnsRecord): string {
  return keyValue({ type: r.type as DnsRecordSpec['type'], value: r.value, priority: r.priority, weight: r.weight, port: r.port });
}

/** Whether a live record is one this kind manages (the SOA has no ref; NS records are the service's). */
const manageable = (r: DnsRecord) => r.ref !== null && WRITABLE.includes(r.type);

/** The records of a zone that have the natural key `key` (or the ref, for an import by `zone/#ref`). */
function matching(zone: DnsZone | undefined, key: string): DnsRecord[] {
  if (!zone) return [];
  const parts = splitRecordKey(key);
  if ('ref' in parts) return zone.records.filter((r) => manageable(r) && String(r.ref) === parts.ref);
  return zone.records.filter((r) => manageable(r) && r.host === parts.fqdn && r.type === parts.type && liveKeyValue(r) === parts.value);
}

function observedRecord(place: Place, zone: string, r: DnsRecord, parent = ''): Observed {
  const where = place.domain === undefined ? { packageDomain: place.packageDomain } : { domain: place.domain };
  const fields: Record<string, unknown> = { ...where, zone, name: canonicalRecordName(r.host, zone), type: r.type, value: r.value };
  if (r.type === 'MX' || r.type === 'SRV') fields.priority = r.priority;
  if (r.type === 'SRV') Object.assign(fields, { weight: r.weight, port: r.port });
  const placement = place.domain === undefined ? place.packageDomain : REGISTRATION_ZONE;
  const identity: Identity = { kind: 'dns-record', key: `${zone}/${r.host}/${r.type}/${liveKeyValue(r)}`, placement, parent };
  return observed(identity, String(r.ref), fields, { ref: String(r.ref), fqdn: r.host });
}

/**
 * The primary domain of the package whose zone `zone` is. An import id names the zone
 * only, so its placement defaults to the zone; the account's package list (shared with
 * every other read of the run) finds the package that holds the name.
 */
async function packageOfZone(ctx: ReconcileContext, placement: string, zone: string): Promise<string> {
  if (placement !== zone) return placement;
  const holder = packageIndex(await listedPackages(ctx)).byName.get(zone);
  return holder ? holder.name.toLowerCase() : placement;
}

/**
 * A CNAME is the only record at its name (RFC 1034): a CNAME at the declared CNAME's
 * name with another target is the declared record, changed in the control panel. Other
 * types may have several records at one name, so a changed one cannot be told from a
 * sibling: it is reported missing (created again), the changed one left alone.
 */
function changedCname(zone: DnsZone | undefined, key: string): DnsRecord | undefined {
  const parts = splitRecordKey(key);
  if ('ref' in parts || parts.type !== 'CNAME' || !zone) return undefined;
  return zone.records.find((r) => manageable(r) && r.type === 'CNAME' && r.host === parts.fqdn);
}

async function observeRecord(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const { zone } = splitRecordKey(id.key);
  const place = await placeOfIdentity(ctx, id, zone);
  const live = (await zonesAt(ctx, place))?.find((z) => z.name === zone);
  const found = matching(live, id.key)[0] ?? changedCname(live, id.key);
  return found && observedRecord(place, zone, found, id.parent);
}

/**
 * Every record the kind can manage: of every package's zones (one zone read per
 * package), and of the own zone of every registered domain no package holds (one read
 * per such registration; a registration's name on a package is that package's zone).
 */
async function listRecords(ctx: ReconcileContext): Promise<Observed[]> {
  const listed = await listedPackages(ctx);
  const held = packageIndex(listed).byName;
  const places: Place[] = [
    ...[...new Set(listed.map((p) => p.name.toLowerCase()))].map((packageDomain) => ({ packageDomain })),
    ...(await listedRegistrations(ctx)).filter((r) => !held.has(r.name)).map((r) => ({ domain: r.name })),
  ];
  const out: Observed[][] = new Array(places.length);
  let next = 0;
  const worker = async () => {
    while (next < places.length) {
      const i = next++;
      const zones = (await zonesAt(ctx, places[i])) ?? [];
      out[i] = zones.flatMap((z) => z.records.filter(manageable).map((r) => observedRecord(places[i], z.name, r)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.readsAtOnce, places.length) }, worker));
  return out.flat();
}

function inputOf(spec: DnsRecordSpec): DnsRecordInput {
  return { type: spec.type, host: spec.name, value: spec.value, priority: spec.priority, weight: spec.weight, port: spec.port };
}

/** A write to the zones at a place: with shared lists, reads scheduled meanwhile wait for it (ListCache). */
function writeZone(ctx: ReconcileContext, place: Place, write: () => Promise<void>): Promise<void> {
  return ctx.lists.shared ? ctx.lists.writing(listOfPlace(place), write) : write();
}

/** The zone of `spec` as the account shows it now, or the error that names what is missing. */
async function freshZone(ctx: ReconcileContext, spec: DnsRecordSpec): Promise<DnsZone> {
  const place = placeOfSpec(spec);
  const zones = await zonesAt(ctx, place, ctx.lists.tick());
  if (place.domain !== undefined) {
    const zone = zones?.[0];
    if (!zone) throw new ReconcileError(`${spec.path}: domain ${(await notHeld(ctx, place.domain)) ?? `${place.domain}'s zone could not be read`}`, 'domain');
    return zone;
  }
  if (!zones) {
    throw new ReconcileError(`${spec.path}: package ${spec.packageDomain} does not exist in the account (deleted outside Terraform?); run 'reseller-hosting drift --fix'`);
  }
  const zone = zones.find((z) => z.name === spec.zone);
  if (!zone) {
    throw new ReconcileError(
      `${spec.path}: zone ${spec.zone} is not a zone of package ${spec.packageDomain} (its zones: ${zones.map((z) => z.name).join(', ') || 'none'}); ` +
        'a zone is one of the package\'s apex domain names',
      'zone',
    );
  }
  return zone;
}

const describe = (spec: DnsRecordSpec) => `${spec.type} ${fullyQualified(spec.name, spec.zone)} ${keyValue(spec)}`;

/**
 * Adopts an identical record, or adds it. `previous`: the record it replaces (in the
 * same zone), deleted in the same POST, so the zone never holds neither or both; gone
 * already (deleted in the control panel), a plain create.
 */
async function ensureRecord(ctx: ReconcileContext, spec: DnsRecordSpec, previous?: Identity): Promise<void> {
  const key = definitionOf('dns-record').identity(spec).key;
  const found = () => matching(zone, key).length > 0;
  let zone = await freshZone(ctx, spec);
  let replacing = previous ? matching(zone, previous.key)[0]?.ref?.toString() : undefined;
  if (found() && !replacing) {
    ctx.info(`adopted DNS record ${describe(spec)}`);
    return;
  }
  // The declared CNAME changed in the control panel: replaced in the same POST.
  replacing ??= found() ? undefined : (changedCname(zone, key)?.ref ?? undefined)?.toString();
  try {
    await converge(ctx, {
      what: `${spec.path}: add DNS record ${describe(spec)}`,
      log: (l) => ctx.warn(l),
      isDone: async () => {
        const tick = ctx.lists.tick();
        zone = await freshZone(ctx, spec);
        const done = found() && !(replacing && zone.records.some((r) => String(r.ref) === replacing));
        if (done) ctx.confirmed?.set(listOfPlace(placeOfSpec(spec)), tick);
        return done;
      },
      write: () => writeZone(ctx, placeOfSpec(spec), () => changeZoneAt(ctx, placeOfSpec(spec), spec.zone, {
        add: found() ? [] : [inputOf(spec)],
        delete: replacing && zone.records.some((r) => String(r.ref) === replacing) ? [replacing] : [],
        conflictPolicy: spec.replaceConflicting ? 'replace' : 'reject',
      })),
    });
  } catch (err) {
    if (err instanceof ConflictError) {
      throw new ReconcileError(
        `${spec.path}: zone ${spec.zone} refused the ${spec.type} record at ${fullyQualified(spec.name, spec.zone)}: ${err.message} ` +
          '(a CNAME may not share its name with other records; replace_conflicting = true (replaceConflicting) replaces them in the same write)',
      );
    }
    throw err;
  }
  ctx.info(`${replacing ? 'replaced' : 'created'} DNS record ${describe(spec)}`);
}

/**
 * The record `previous` changed within its zone (definition: `replacesInOneWrite`): one
 * POST adds the declared record and deletes the previous one's ref. Gone already (deleted
 * in the control panel): a plain create. In another zone (a carrier's record moved to
 * another zone or package): the declared one added, then the previous one deleted.
 */
async function replaceRecord(ctx: ReconcileContext, previous: Identity, spec: DnsRecordSpec): Promise<void> {
  const placement = spec.domain !== undefined ? REGISTRATION_ZONE : spec.packageDomain;
  const sameZone = splitRecordKey(previous.key).zone === spec.zone && (!previous.placement || previous.placement === placement);
  if (sameZone) return ensureRecord(ctx, spec, previous);
  await ensureRecord(ctx, spec);
  await removeRecord(ctx, previous);
}

async function removeRecord(ctx: ReconcileContext, id: Identity): Promise<void> {
  const { zone } = splitRecordKey(id.key);
  const place = await placeOfIdentity(ctx, id, zone);
  const live = async (after: number) => matching((await zonesAt(ctx, place, after))?.find((z) => z.name === zone), id.key);
  const refs = (await live(ctx.lists.tick())).map((r) => String(r.ref));
  if (refs.length === 0) {
    ctx.info(`DNS record ${id.key} is already absent`);
    return;
  }
  await converge(ctx, {
    what: `delete DNS record ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await live(ctx.lists.tick())).length === 0,
    write: () => writeZone(ctx, place, () => changeZoneAt(ctx, place, zone, { delete: refs })),
  });
  ctx.info(`deleted DNS record ${id.key}`);
}

async function whyRecordMissing(ctx: ReconcileContext, id: Identity): Promise<string | undefined> {
  const { zone } = splitRecordKey(id.key);
  if (id.placement === REGISTRATION_ZONE) return notHeld(ctx, zone);
  const packageDomain = await packageOfZone(ctx, id.placement, zone);
  if (!packageIndex(await listedPackages(ctx)).byPrimary.get(packageDomain)) return `its package ${packageDomain} does not exist`;
  const zones = await zonesOf(ctx, packageDomain);
  return zones && !zones.some((z) => z.name === zone) ? `${zone} is not a zone of package ${packageDomain}` : undefined;
}

/**
 * The declared fields that differ from the observed record. Observed by its natural key,
 * none do; a declared CNAME changed in the control panel (changedCname) differs in its value.
 */
function diffRecord(spec: DnsRecordSpec, live: Observed): FieldDiff[] {
  const fields = ['zone', 'domain', 'name', 'type', 'value', 'priority', 'weight', 'port'] as const;
  return fields
    .filter((f) => (spec[f] ?? undefined) !== (live.fields[f] ?? undefined))
    .map((f) => ({ field: f, declared: spec[f], live: live.fields[f] }));
}

/**
 * A record in a registered domain's own zone: the account must hold the domain, and no
 * package may hold it (then its zone is that package's: one zone, declared one way, with
 * `package`, so that every read finds the record under one identity).
 */
async function checkRecordAccount(ctx: ReconcileContext, spec: DnsRecordSpec, checked: (field: string) => boolean) {
  if (spec.domain === undefined || !checked('domain')) return { problems: [] };
  const rule = await notHeld(ctx, spec.domain);
  if (rule) return { problems: [{ field: 'domain', rule }] };
  const holder = packageIndex(await listedPackages(ctx)).byName.get(spec.domain);
  if (!holder) return { problems: [] };
  return {
    problems: [{
      field: 'domain',
      rule: `"${spec.domain}" is a name of package ${holder.name.toLowerCase()}, whose zone is the registration's: declare the record with package = "${holder.name.toLowerCase()}" instead`,
    }],
  };
}

export const dnsRecordReconciler = {
  confirmList: (spec) => listOfPlace(placeOfSpec(spec)),
  observe: observeRecord,
  list: listRecords,
  diff: async (_ctx, spec, live) => diffRecord(spec, live),
  ensure: (ctx, spec) => ensureRecord(ctx, spec),
  replace: replaceRecord,
  remove: removeRecord,
  whyMissing: whyRecordMissing,
  checkAccount: checkRecordAccount,
  entries: (o) => [{ id: o.liveId, detail: `${String(o.fields.type)} ${String(o.computed.fqdn)} ${String(o.fields.value)}` }],
  // A record is a test's when its owner name is (the zone's apex, or a name in it); shown as `owner TYPE value`, unique in an account.
  sweepNames(o) {
    const owner = String(o.computed.fqdn);
    return { shown: `${owner} ${String(o.fields.type)} ${o.identity.key.split('/').slice(3).join('/')}`, names: [owner] };
  },
} satisfies KindReconciler<'dns-record'>;
