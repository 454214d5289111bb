import type { RawAnswer } from './http';
import { assumedFact, DoctorArea, documentedFields, held, isObject, isString, notHeld, notReadOnly, segment, unknowable, Verdict } from './fact';
import { mergedShapeOf } from './shapes';

/**
 * Registered domain names (api-notes "Domain names (registrations)"): the list
 * (GET /domain) and the nameservers of the first registration
 * (GET /domain/{name}/nameservers). Two GETs.
 */
interface DomainsSample {
  /** GET /domain; undefined when no answer arrived. */
  readonly list?: RawAnswer;
  /** GET /domain/{name}/nameservers of the first registration listed; undefined when none was read. */
  readonly nameservers?: RawAnswer;
}

const is2xx = (a: RawAnswer | undefined): boolean => a !== undefined && a.status >= 200 && a.status < 300;
const entriesOf = (sample: DomainsSample): unknown[] | undefined => (is2xx(sample.list) && Array.isArray(sample.list?.body) ? sample.list.body : undefined);
const HOST = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)+\.?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Why no registration can show a fact, or undefined when some were listed. */
function whyNoEntries(sample: DomainsSample): Verdict | undefined {
  if (!sample.list) return unknowable('GET /domain did not answer');
  if (!is2xx(sample.list)) return unknowable(`GET /domain answered HTTP ${sample.list.status}`);
  const entries = entriesOf(sample);
  if (!entries) return notHeld('GET /domain is not a list');
  return entries.length === 0 ? unknowable('the account holds no registered domain name') : undefined;
}

export const DOMAINS: DoctorArea<DomainsSample> = {
  async read(api) {
    const list = await api.answer('/domain');
    const sample: DomainsSample = { list };
    const entries = entriesOf(sample) ?? [];
    api.found('registered domains', entries.length, entries.length ? mergedShapeOf(entries) : undefined);
    const first = entries.map((e) => (isObject(e) && isString(e.name) ? e.name : undefined)).find((n) => n !== undefined);
    return first === undefined ? sample : { ...sample, nameservers: await api.answer(`/domain/${segment(first)}/nameservers`) };
  },

  facts: [
    documentedFields<DomainsSample>('domain list entry', 'GET /domain lists each registration with its name', entriesOf, 'registered domain(s)', { name: isString }),

    assumedFact('nameserversOfRead',
      'GET /domain/{name}/nameservers answers the registration\'s nameservers as a bare list of host names or as {"result": [...]}',
      (sample) => {
        const why = whyNoEntries(sample);
        if (why) return why;
        const answer = sample.nameservers;
        if (!answer) return unknowable('GET /domain/{name}/nameservers did not answer');
        if (!is2xx(answer)) return notHeld(`GET /domain/{name}/nameservers answered HTTP ${answer.status} for a listed registration`);
        const body = answer.body;
        const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.result) ? body.result : undefined;
        if (!list) return notHeld('the read is neither a list nor {"result": [...]}');
        const bad = list.filter((n) => !isString(n) || !HOST.test(n.trim())).length;
        if (bad) return notHeld(`${bad} of ${list.length} entries are not host names`);
        return held(`${list.length} nameserver(s) read as ${Array.isArray(body) ? 'a bare list' : '{"result": [...]}'}`);
      }),

    assumedFact('registrationDateOfRead',
      'expiryDate and deadDate of GET /domain are ISO 8601 dates, with or without a time and offset',
      (sample) => {
        const why = whyNoEntries(sample);
        if (why) return why;
        const dates = (entriesOf(sample) ?? []).filter(isObject).flatMap((e) => [e.expiryDate, e.deadDate]);
        const absent = dates.filter((d) => d === undefined || d === null).length;
        const present = dates.filter((d) => d !== undefined && d !== null);
        if (present.length === 0) return unknowable('no registration lists an expiryDate or a deadDate');
        const bad = present.filter((d) => !isString(d) || !DATE.test(d.trim())).length;
        if (bad) return notHeld(`${bad} of ${present.length} date(s) are not ISO 8601 dates (the client reads them as unknown)`);
        const withTime = present.filter((d) => /[T ]/.test((d as string).trim())).length;
        return held(`${present.length} date(s) read (${withTime} with a time, ${present.length - withTime} without)${absent ? `; ${absent} absent` : ''}`);
      }),

    assumedFact('renewalConstraintOfRead', 'renewalConstraint of GET /domain is text, or null for none', (sample) => {
      const why = whyNoEntries(sample);
      if (why) return why;
      const values = (entriesOf(sample) ?? []).filter(isObject).map((e) => e.renewalConstraint);
      const other = values.filter((v) => v !== undefined && v !== null && !isString(v)).length;
      if (other) return notHeld(`${other} of ${values.length} renewalConstraint value(s) are neither text nor null (the client keeps their JSON text)`);
      const text = values.filter(isString).length;
      return held(`${values.length} registration(s): ${text} with a renewal constraint, ${values.length - text} without`);
    }),

    notReadOnly('nameserverChangeBody', 'a nameserver change sends both ns and old-ns, an empty list where nothing is added or removed',
      'only the answer to a write (POST /domain/{name}/nameservers) shows it'),
  ],
};
