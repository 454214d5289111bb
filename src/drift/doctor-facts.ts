/**
 * What the client assumes about the API's answers, as facts the doctor can hold up
 * against one live account. Each `assumed` fact is named after the function of
 * src/client/assumptions.ts that embodies it (api-notes marks it assumed: no public
 * source shows it); each `documented` fact is a field the client requires. A fact is
 * `held` when the account's answers show it, `not held` when they contradict it, and
 * `not verifiable` when this account cannot show it (no such object, a member left
 * out, or a write would be needed: the doctor never writes).
 */
export type FactStatus = 'held' | 'not held' | 'not verifiable';

/** The raw answers the doctor read: one object of each kind, plus the lists. */
export interface AccountSample {
  /** GET /package. */
  readonly packageList?: unknown;
  /** GET /package/{id} of one package. */
  readonly packageDetail?: unknown;
  /** GET /package/{id}/email/{domain} of a few domains. */
  readonly mailReads: readonly unknown[];
  /** GET /reseller/{id}/susers. */
  readonly users?: unknown;
  /** GET /cloud_server. */
  readonly servers?: unknown;
  /** Headers (lowercased) of GET /cloud_server/{id} of one server. */
  readonly serverHeaders?: Readonly<Record<string, string>>;
}

export interface FactResult {
  /** The client function that holds the assumption (assumed), or the field read (documented). */
  readonly fact: string;
  readonly basis: 'assumed' | 'documented';
  readonly says: string;
  readonly status: FactStatus;
  /** Why, in words that name fields and counts only. */
  readonly detail: string;
}

interface Fact {
  readonly fact: string;
  readonly basis: 'assumed' | 'documented';
  readonly says: string;
  check(sample: AccountSample): { status: FactStatus; detail: string };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^[0-9]+$/.test(v));
const held = (detail: string) => ({ status: 'held' as const, detail });
const notHeld = (detail: string) => ({ status: 'not held' as const, detail });
const unknowable = (detail: string) => ({ status: 'not verifiable' as const, detail });

const packagesOf = (s: AccountSample): Json[] | undefined => (Array.isArray(s.packageList) ? s.packageList.filter(isObject) : undefined);
const mailOf = (s: AccountSample): Json[] => s.mailReads.filter(isObject);
const forwardersOf = (s: AccountSample): unknown[] => mailOf(s).flatMap((m) => (Array.isArray(m.forward) ? m.forward : []));
const mailboxesOf = (s: AccountSample): unknown[] => mailOf(s).flatMap((m) => (Array.isArray(m.mailbox) ? m.mailbox : []));

/** A write the doctor does not make: the live tier exercises it. */
const needsWrite = (fact: string, says: string): Fact => ({
  fact, basis: 'assumed', says,
  check: () => unknowable('shows only in the answer to a write; the doctor never writes (the live tier, npm run test:live, exercises it)'),
});

/** Fields of `entries` that are missing or of the wrong type, as "field (n of m)". */
function badFields(entries: readonly unknown[], fields: Record<string, (v: unknown) => boolean>): string[] {
  const out: string[] = [];
  for (const [field, ok] of Object.entries(fields)) {
    const bad = entries.filter((e) => !isObject(e) || !ok(e[field])).length;
    if (bad) out.push(`${field} (${bad} of ${entries.length})`);
  }
  return out;
}

function documentedFields(fact: string, says: string, entriesOf: (s: AccountSample) => unknown[] | undefined, what: string,
  fields: Record<string, (v: unknown) => boolean>): Fact {
  return {
    fact, basis: 'documented', says,
    check(sample) {
      const entries = entriesOf(sample);
      if (!entries || entries.length === 0) return unknowable(`the account has no ${what}`);
      const bad = badFields(entries, fields);
      return bad.length ? notHeld(`missing or of another type: ${bad.join(', ')}`) : held(`${entries.length} ${what} read`);
    },
  };
}

const isString = (v: unknown) => typeof v === 'string';
const isBoolish = (v: unknown) => typeof v === 'boolean' || v === 'true' || v === 'false' || v === 0 || v === 1;

export const FACTS: readonly Fact[] = [
  documentedFields('package list entry', 'GET /package lists each package with id, name, names and typeRef',
    packagesOf, 'package(s)', { id: isId, name: isString, names: Array.isArray, typeRef: isId }),
  documentedFields('mailbox entry', 'a mail read lists each mailbox with id, local, send and receive',
    mailboxesOf, 'mailbox(es)', { id: isString, local: isString, send: isBoolish, receive: isBoolish }),
  {
    fact: 'user list', basis: 'documented', says: 'GET /reseller/{id}/susers has a contact map and a grant_map',
    check(sample) {
      const users = sample.users;
      if (!isObject(users)) return unknowable('the user list was not read');
      // PHP sends an empty map as [].
      const missing = ['contact', 'grant_map'].filter((m) => !isObject(users[m]) && !Array.isArray(users[m]));
      return missing.length ? notHeld(`missing: ${missing.join(', ')}`) : held('contact and grant_map present');
    },
  },
  {
    fact: 'labelFromPackageLabels', basis: 'assumed',
    says: 'a package list entry\'s packageLabels is [] without a label, else its first element is the label (a string, or an object with a label or name string)',
    check(sample) {
      const packages = packagesOf(sample);
      if (!packages || packages.length === 0) return unknowable('the account has no package');
      const notArray = packages.filter((p) => !Array.isArray(p.packageLabels)).length;
      if (notArray) return notHeld(`packageLabels is not a list in ${notArray} of ${packages.length} package(s)`);
      const labelled = packages.map((p) => p.packageLabels as unknown[]).filter((l) => l.length > 0);
      if (labelled.length === 0) return unknowable(`every one of ${packages.length} package(s) lists packageLabels: [] (a labelled package would show whether labels are listed here)`);
      const readable = (first: unknown) => typeof first === 'string' || (isObject(first) && (typeof first.label === 'string' || typeof first.name === 'string'));
      const bad = labelled.filter((l) => !readable(l[0])).length;
      return bad ? notHeld(`${bad} of ${labelled.length} non-empty packageLabels have another form`) : held(`${labelled.length} labelled package(s) read`);
    },
  },
  {
    fact: 'labelFromPackageDetail', basis: 'assumed', says: 'GET /package/{id} carries the package\'s label as a label string',
    check(sample) {
      if (!isObject(sample.packageDetail)) return unknowable('the account has no package');
      const { label } = sample.packageDetail;
      if (label === undefined) return unknowable('the detail has no label member: the client writes a label but reports it as not verifiable');
      return typeof label === 'string' || label === null ? held('label is a string') : notHeld(`label is a ${typeof label}`);
    },
  },
  {
    fact: 'enabledFromPackageDetail', basis: 'assumed', says: 'GET /package/{id} says whether the package is enabled: a boolean status, else enabled',
    check(sample) {
      if (!isObject(sample.packageDetail)) return unknowable('the account has no package');
      const { status, enabled } = sample.packageDetail;
      if (status !== undefined && status !== null) return typeof status === 'boolean' ? held('status is a boolean') : notHeld(`status is a ${typeof status}`);
      if (typeof enabled === 'boolean') return held('no status; enabled is a boolean');
      return notHeld('neither status nor enabled is a boolean');
    },
  },
  {
    fact: 'typeRefFromPackageDetail', basis: 'assumed', says: 'GET /package/{id} names its package type as typeRef, else web.typeRef',
    check(sample) {
      const detail = sample.packageDetail;
      if (!isObject(detail)) return unknowable('the account has no package');
      if (isId(detail.typeRef)) return held('typeRef is an id');
      if (isObject(detail.web) && isId(detail.web.typeRef)) return held('web.typeRef is an id');
      return notHeld('neither typeRef nor web.typeRef is an id');
    },
  },
  {
    fact: 'parseForwarderEntry', basis: 'assumed', says: 'a mail read lists each forwarder as {id: "f…", local, remote}',
    check(sample) {
      const entries = forwardersOf(sample);
      if (entries.length === 0) return unknowable('no forwarder was read (the account has none, or none on the domains read)');
      const bad = badFields(entries, { id: (v) => typeof v === 'string' && v.startsWith('f'), local: isString, remote: isString });
      return bad.length ? notHeld(`missing or of another form: ${bad.join(', ')}`) : held(`${entries.length} forwarder(s) read`);
    },
  },
  {
    fact: 'forwardListOfMailRead', basis: 'assumed', says: 'a mail read lists forward: [] when the domain has no forwarder (the client reads a missing forward as none)',
    check(sample) {
      const without = mailOf(sample).filter((m) => !Array.isArray(m.forward) || m.forward.length === 0);
      if (without.length === 0) return unknowable('no domain without forwarders was read');
      const listed = without.filter((m) => Array.isArray(m.forward)).length;
      if (listed) return held(`${listed} of ${without.length} domain(s) without forwarders list forward: []`);
      return unknowable(`${without.length} domain(s) without forwarders leave forward out: whether that always means none cannot be shown`);
    },
  },
  {
    fact: 'brandFromHeaders', basis: 'assumed', says: 'GET /cloud_server/{id} of a branded server returns the brand as X-Brand-Name and X-Brand-Logo headers',
    check(sample) {
      if (!sample.serverHeaders) return unknowable('the account has no cloud server');
      const h = sample.serverHeaders;
      if (h['x-brand-name'] !== undefined || h['x-brand-logo'] !== undefined) return held('the brand headers are present');
      return unknowable('the server read sends no brand headers (it may not be branded)');
    },
  },
  needsWrite('postRejectedWithoutEffect', 'a 429 answer means the API did nothing, so even a write may be sent again'),
  needsWrite('isDuplicateError', 'creating an object (or a name) that already exists is answered 409'),
  needsWrite('isValidationError', 'a request the API finds invalid is answered 400'),
  needsWrite('parseForwarderCreateResult', 'creating a forwarder answers with the mailbox envelope {result, name}'),
  needsWrite('mailboxUpdateBody', 'a mailbox update is {update: {mailbox: [{id, send, receive, password}]}} with "true"/"false" flags'),
  needsWrite('acceptMailboxUpdateResult', 'a mailbox update answers with the mailbox envelope'),
];

export function checkFacts(sample: AccountSample): FactResult[] {
  return FACTS.map((f) => ({ fact: f.fact, basis: f.basis, says: f.says, ...f.check(sample) }));
}
