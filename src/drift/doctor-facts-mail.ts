import {
  assumedFact, badFields, documentedFields, DoctorArea, held, idOf, isObject, isString, Json, listOf, notHeld, notReadOnly, segment, unknowable,
} from './doctor-fact';
import { shapeOf } from './doctor-shapes';

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
    notReadOnly('acceptMailboxUpdateResult', 'a mailbox update answers with the mailbox envelope',
      'only the answer to a write (updating a mailbox) shows it'),
  ],
};
