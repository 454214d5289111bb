import { ApiError } from '../../errors';
import { DnsRecordType } from './model';

/**
 * The DNS noun's assumed behaviours: everything api-notes.md marks `assumed`, or
 * that no public source shows and the emulator had to choose, behind one function
 * each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

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
 * in `addRecord` of backend.ts: an identical record added twice is kept twice;
 * api-notes: "no public source shows the API refusing it; look before adding".)
 */
export function unknownDeleteRef(_ref: number): void {
  // ignored
}

