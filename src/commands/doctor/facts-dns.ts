import type { RawAnswer } from './http';
import { assumedFact, DoctorArea, held, idOf, isId, isObject, Json, listOf, notHeld, notReadOnly, segment, unknowable, Verdict } from './fact';
import { mergedShapeOf, shapeOf } from './shapes';

/**
 * DNS records (api-notes "DNS records"): every zone of the first package
 * (GET /package/{id}/dns) and the first of its zones on its own
 * (GET /package/{id}/dns/{apex}). Two GETs.
 */
interface DnsSample {
  /** False when the account has no package to read the zones of. */
  readonly hasPackage: boolean;
  /** GET /package/{id}/dns; undefined when no answer arrived. */
  readonly all?: RawAnswer;
  /** GET /package/{id}/dns/{apex} of the first zone `all` lists; undefined when none was read. */
  readonly one?: RawAnswer;
}

/** A zone as the read of every zone gives it: its apex (lowercase, no dot) and records, undefined when its value has another form. */
interface ZoneRead {
  readonly apex: string;
  readonly records?: unknown[];
}

/** The fields a record of each type carries (api-notes), as the client reads them. */
const TYPE_FIELDS: Readonly<Record<string, { text?: string[]; names?: string[]; numbers?: string[] }>> = {
  A: { text: ['ip'] },
  AAAA: { text: ['ipv6'] },
  CNAME: { names: ['target'] },
  NS: { names: ['target'] },
  MX: { numbers: ['pri'], names: ['target'] },
  SRV: { numbers: ['pri', 'weight', 'port'], names: ['target'] },
  TXT: { text: ['txt'] },
  SOA: { names: ['mname'] },
};

const is2xx = (a: RawAnswer | undefined): boolean => a !== undefined && a.status >= 200 && a.status < 300;
const bareName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');
const typeOf = (record: Json) => (typeof record.type === 'string' ? record.type.trim().toUpperCase() : '');
const fieldsOf = (record: Json) => TYPE_FIELDS[typeOf(record)] ?? {};

/** The records of a zone's value: `{records: [...]}` or a bare list; undefined for another form. */
function recordsOfValue(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  return isObject(value) && Array.isArray(value.records) ? value.records : undefined;
}

/** The zones of the read of every zone; undefined when it did not answer 2xx with an object. */
function zonesOf(sample: DnsSample): ZoneRead[] | undefined {
  const body = is2xx(sample.all) ? sample.all?.body : undefined;
  if (!isObject(body)) return undefined;
  return Object.entries(body).map(([apex, value]) => ({ apex: bareName(apex), records: recordsOfValue(value) }));
}

/** Every record read, of whatever form. */
const rawRecordsOf = (sample: DnsSample): unknown[] => (zonesOf(sample) ?? []).flatMap((z) => z.records ?? []);

/** Every record read that is an object, with its zone's apex. */
function recordsOf(sample: DnsSample): Array<{ apex: string; record: Json }> {
  return (zonesOf(sample) ?? []).flatMap((z) => (z.records ?? []).filter(isObject).map((record) => ({ apex: z.apex, record })));
}

/** The common reasons a DNS fact cannot be checked, or undefined when records were read. */
function whyNoRecords(sample: DnsSample): Verdict | undefined {
  if (!sample.hasPackage) return unknowable('the account has no package');
  if (!sample.all) return unknowable('GET /package/{id}/dns did not answer');
  if (!is2xx(sample.all)) return unknowable(`GET /package/{id}/dns answered HTTP ${sample.all.status}`);
  if (rawRecordsOf(sample).length === 0) return unknowable('no record was read (the package\'s zones read as empty, or in another form)');
  return undefined;
}

/** "MX pri (1 of 3)": each field that some records of a type get wrong, out of the records of that type. */
function tally(records: readonly Json[], wrong: (record: Json) => string[]): string[] {
  const ofType = new Map<string, number>();
  const bad = new Map<string, { type: string; n: number }>();
  for (const record of records) {
    const type = typeOf(record) || '(no type)';
    ofType.set(type, (ofType.get(type) ?? 0) + 1);
    for (const field of wrong(record)) {
      const label = `${type} ${field}`;
      bad.set(label, { type, n: (bad.get(label)?.n ?? 0) + 1 });
    }
  }
  return [...bad].map(([label, { type, n }]) => `${label} (${n} of ${ofType.get(type)})`);
}

const present = (v: unknown) => v !== undefined && v !== null;
const numberForm = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? 'number' : typeof v === 'string' && /^\s*[0-9]+\s*$/.test(v) ? 'string' : undefined);

export const DNS: DoctorArea<DnsSample> = {
  async read(api) {
    const id = listOf(api.packageList).map(idOf).find((p) => p !== undefined);
    if (!id) return { hasPackage: false };
    const all = await api.answer(`/package/${segment(id)}/dns`);
    const sample: DnsSample = { hasPackage: true, all };
    const zones = zonesOf(sample) ?? [];
    const records = rawRecordsOf(sample);
    api.found('dns zones', zones.length, zones.length ? shapeOf(all?.body) : undefined);
    api.found('dns records', records.length, mergedShapeOf(records));
    const first = zones.length && isObject(all?.body) ? Object.keys(all.body)[0] : undefined;
    return first === undefined ? sample : { ...sample, one: await api.answer(`/package/${segment(id)}/dns/${segment(first)}`) };
  },

  facts: [
    {
      fact: 'dns record entry', basis: 'documented', assumptions: [],
      says: 'a zone read lists each record flat: type, host, a ref (a number; null for the SOA) and its type\'s fields (A ip, AAAA ipv6, CNAME and NS target, MX pri and target, SRV pri, weight, port and target, TXT txt, SOA mname)',
      check(sample) {
        const why = whyNoRecords(sample);
        if (why) return why;
        const notObjects = rawRecordsOf(sample).filter((r) => !isObject(r)).length;
        if (notObjects) return notHeld(`${notObjects} of ${rawRecordsOf(sample).length} record(s) are not objects`);
        const records = recordsOf(sample).map((r) => r.record);
        const bad = tally(records, (record) => {
          const { text = [], names = [], numbers = [] } = fieldsOf(record);
          const wrong = [...text, ...names].filter((f) => typeof record[f] !== 'string');
          wrong.push(...numbers.filter((f) => !present(record[f])));
          if (typeof record.type !== 'string') wrong.push('type');
          if (typeof record.host !== 'string') wrong.push('host');
          if (!(isId(record.ref) || (!present(record.ref) && typeOf(record) === 'SOA'))) wrong.push('ref');
          return wrong;
        });
        return bad.length ? notHeld(`missing or of another type: ${bad.join(', ')}`) : held(`${records.length} record(s) read`);
      },
    },

    assumedFact('recordListOfZoneValue',
      'GET /package/{id}/dns answers an object keyed by zone apex whose values are {records: [...]} (or a bare list), and GET /package/{id}/dns/{apex} answers one zone in the same form',
      (sample) => {
        if (!sample.hasPackage) return unknowable('the account has no package');
        if (!sample.all) return unknowable('GET /package/{id}/dns did not answer');
        if (!is2xx(sample.all)) return unknowable(`GET /package/{id}/dns answered HTTP ${sample.all.status}`);
        const body = sample.all.body;
        if (!isObject(body)) return notHeld(`the read of every zone is ${Array.isArray(body) ? 'a list' : typeof body}, not an object keyed by zone`);
        const zones = zonesOf(sample) ?? [];
        if (zones.length === 0) return unknowable('the package has no zone');
        const odd = zones.filter((z) => !z.records).length;
        if (odd) return notHeld(`${odd} of ${zones.length} zone value(s) in the read of every zone are neither {records: [...]} nor a list`);
        const one = sample.one;
        if (!one) return unknowable('GET /package/{id}/dns/{zone} did not answer');
        if (one.status === 404) return notHeld('GET /package/{id}/dns/{zone} answered HTTP 404 for a zone the read of every zone lists');
        if (!is2xx(one)) return unknowable(`GET /package/{id}/dns/{zone} answered HTTP ${one.status}`);
        const records = recordsOfValue(one.body);
        if (!records) return notHeld('the read of one zone is neither {records: [...]} nor a list');
        const listed = zones[0].records?.length ?? 0;
        const same = records.length === listed ? `the same ${listed}` : `${records.length} (the read of every zone listed ${listed}: changed between the reads?)`;
        return held(`${zones.length} zone(s) read as ${formOf(body)}; the read of one zone answers ${Array.isArray(one.body) ? 'a bare list' : '{records: [...]}'} with ${same} record(s)`);
      }),

    assumedFact('dnsNameOfRead',
      'a record\'s host is its fully qualified name (the zone\'s apex or a name under it), maybe with a trailing dot or capitals; targets are names likewise',
      (sample) => {
        const why = whyNoRecords(sample);
        if (why) return why;
        const read = recordsOf(sample);
        if (read.length === 0) return unknowable('no record read is an object');
        const hosts = read.filter(({ record }) => typeof record.host === 'string');
        const outside = hosts.filter(({ apex, record }) => {
          const host = bareName(record.host as string);
          return host !== apex && !host.endsWith(`.${apex}`);
        }).length;
        if (hosts.length < read.length) return notHeld(`${read.length - hosts.length} of ${read.length} record(s) have no host string`);
        if (outside) return notHeld(`${outside} of ${hosts.length} host(s) are not the zone's apex nor under it (relative names such as "www" or "@"?)`);
        const targets = read.flatMap(({ record }) => (fieldsOf(record).names ?? []).map((f) => record[f]));
        const badTargets = targets.filter((t) => typeof t !== 'string' || bareName(t) === '').length;
        if (badTargets) return notHeld(`${badTargets} of ${targets.length} target name(s) are missing or not names`);
        const dotted = (names: unknown[]) => names.filter((n) => (n as string).trim().endsWith('.')).length;
        const capitals = (names: unknown[]) => names.filter((n) => /[A-Z]/.test(n as string)).length;
        const hostNames = hosts.map(({ record }) => record.host);
        return held(`${hosts.length} host(s) fully qualified (${dotted(hostNames)} with a trailing dot, ${capitals(hostNames)} with capitals); `
          + `${targets.length} target name(s) (${dotted(targets)} with a trailing dot)`);
      }),

    assumedFact('dnsNumberOfRead', 'pri, weight and port of MX and SRV records read as JSON numbers or as strings of digits', (sample) => {
      const why = whyNoRecords(sample);
      if (why) return why;
      const values = recordsOf(sample).flatMap(({ record }) => (fieldsOf(record).numbers ?? []).map((f) => record[f]));
      if (values.length === 0) return unknowable('no MX or SRV record was read');
      const forms = values.map(numberForm);
      const bad = forms.filter((f) => f === undefined).length;
      if (bad) return notHeld(`${bad} of ${values.length} number(s) are missing or neither a JSON number nor a string of digits`);
      const strings = forms.filter((f) => f === 'string').length;
      return held(`${values.length} number(s) read: ${values.length - strings} as JSON numbers, ${strings} as strings`);
    }),

    notReadOnly('acceptDnsWriteResult', 'a zone write answers {"result": …}, whose content the client never reads',
      'only the answer to a write (POST /package/{id}/dns/{zone}) shows it'),
  ],
};

/** How a read gives its zones: "{records: [...]}" values, bare lists, or both. */
function formOf(zones: Json): string {
  const values = Object.values(zones);
  const lists = values.filter(Array.isArray).length;
  if (lists === 0) return '{records: [...]}';
  return lists === values.length ? 'bare lists' : 'both {records: [...]} and bare lists';
}
