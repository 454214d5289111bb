import {
  assumedFact, badFields, documentedFields, DoctorArea, held, idOf, isObject, isString, Json, listOf, notHeld, notReadOnly, segment, unknowable,
} from './fact';
import { shapeOf } from './shapes';

/**
 * Mail: GET /package/{id}/email/{domain} of the packages' domains in order, until a
 * mailbox, a forwarder and a domain without forwarders have been seen, at most
 * MAX_MAIL_READS of them.
 */
interface MailSample {
  /** The mail reads that answered 2xx with an object. */
  readonly reads: Json[];
}

const MAX_MAIL_READS = 10;

const forwardersOf = (s: MailSample): unknown[] => s.reads.flatMap((m) => listOf(m.forward));
const mailboxesOf = (s: MailSample): unknown[] => s.reads.flatMap((m) => listOf(m.mailbox));
const respondersOf = (s: MailSample): unknown[] => s.reads.flatMap((m) => listOf(m.responder));
/** A responder time the client reads as an instant: none, an ISO 8601 date and time, or seconds since 1970. */
const isResponderTime = (v: unknown) => v === undefined || v === null || v === '' || typeof v === 'number' ||
  (typeof v === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}/.test(v));
const isBoolish = (v: unknown) => typeof v === 'boolean' || v === 'true' || v === 'false' || v === 0 || v === 1;

export const MAIL: DoctorArea<MailSample> = {
  async read(api) {
    const reads: Json[] = [];
    let mailboxes = 0;
    let forwarders = 0;
    let withoutForwarders = 0;
    outer: for (const pkg of listOf(api.packageList)) {
      const id = idOf(pkg);
      const names = isObject(pkg) ? pkg.names : undefined;
      if (!id || !Array.isArray(names)) continue;
      for (const domain of names) {
        if (typeof domain !== 'string') continue;
        if (reads.length >= MAX_MAIL_READS || (mailboxes && forwarders && withoutForwarders)) break outer;
        const read = await api.body(`/package/${segment(id)}/email/${segment(domain)}`);
        if (!isObject(read)) continue;
        reads.push(read);
        mailboxes += listOf(read.mailbox).length;
        const f = listOf(read.forward).length;
        forwarders += f;
        if (f === 0) withoutForwarders += 1;
      }
    }
    const sample = { reads };
    const first = (entries: unknown[]) => (entries.length ? shapeOf(entries[0]) : undefined);
    api.found('mail domains read', reads.length, reads.length ? shapeOf(reads[0]) : undefined);
    api.found('mailboxes', mailboxes, first(mailboxesOf(sample)));
    api.found('forwarders', forwarders, first(forwardersOf(sample)));
    api.found('autoresponders', respondersOf(sample).length, first(respondersOf(sample)));
    return sample;
  },

  facts: [
    documentedFields<MailSample>('mailbox entry', 'a mail read lists each mailbox with id, local, send and receive',
      mailboxesOf, 'mailbox(es)', { id: isString, local: isString, send: isBoolish, receive: isBoolish }),

    assumedFact('parseForwarderEntry', 'a mail read lists each forwarder as {id: "f…", local, remote}', (sample) => {
      const entries = forwardersOf(sample);
      if (entries.length === 0) return unknowable('no forwarder was read (the account has none, or none on the domains read)');
      const bad = badFields(entries, { id: (v) => typeof v === 'string' && v.startsWith('f'), local: isString, remote: isString });
      return bad.length ? notHeld(`missing or of another form: ${bad.join(', ')}`) : held(`${entries.length} forwarder(s) read`);
    }),

    assumedFact('forwardListOfMailRead',
      'a mail read lists forward: [] when the domain has no forwarder (the client reads a missing forward as none)', ({ reads }) => {
        const without = reads.filter((m) => !Array.isArray(m.forward) || m.forward.length === 0);
        if (without.length === 0) return unknowable('no domain without forwarders was read');
        const listed = without.filter((m) => Array.isArray(m.forward)).length;
        if (listed) return held(`${listed} of ${without.length} domain(s) without forwarders list forward: []`);
        return unknowable(`${without.length} domain(s) without forwarders leave forward out: whether that always means none cannot be shown`);
      }),

    notReadOnly('parseForwarderCreateResult', 'creating a forwarder answers with the mailbox envelope {result, name}',
      'only the answer to a write (creating a forwarder) shows it'),
    notReadOnly('mailboxUpdateBody',
      'a mailbox update is keyed by its id, {update: {"m…": {password}}} (as a production webmail password driver sends it), with send and receive as "true"/"false" in the same keyed object',
      'only a write (updating a mailbox) shows whether the API takes this body'),
    assumedFact('responderListOfMailRead', 'a mail read lists responder: [] when the domain has no autoresponder (the client reads a missing one as none)', ({ reads }) => {
      if (reads.length === 0) return unknowable('no mail domain was read');
      const listed = reads.filter((m) => Array.isArray(m.responder)).length;
      if (listed === reads.length) return held(`${listed} domain(s) list responder`);
      return unknowable(`${reads.length - listed} of ${reads.length} domain(s) leave responder out: whether that always means none cannot be shown`);
    }),

    assumedFact('responderTimeOfRead', 'an autoresponder\'s startTime and endTime read as null, an ISO 8601 date and time, or seconds since 1970', (sample) => {
      const entries = respondersOf(sample);
      if (entries.length === 0) return unknowable('no autoresponder was read');
      const bad = badFields(entries, { startTime: isResponderTime, endTime: isResponderTime });
      return bad.length ? notHeld(`of another form: ${bad.join(', ')}`) : held(`${entries.length} autoresponder(s) read`);
    }),

    notReadOnly('responderTimeForWrite', 'an autoresponder\'s start and end time are written as UTC "YYYY-MM-DDTHH:MM:SSZ" (none: null)',
      'only a write (creating or updating an autoresponder) shows whether the API takes this form'),
    notReadOnly('responderDeleteBody', 'an autoresponder is deleted by its r… id in the mail endpoint\'s flat delete array',
      'only a write (deleting an autoresponder) shows it'),
    notReadOnly('acceptMailboxUpdateResult', 'a mailbox update answers with the mailbox envelope',
      'only the answer to a write (updating a mailbox) shows it'),
  ],
};
