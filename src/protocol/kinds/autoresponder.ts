import { canonicalJson } from '../canonical-json';
import { canonicalEmail, checkEmailAddress } from '../names';
import { checkBool, describeValue } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';
import {
  canonicalMailIdentity, canonicalMailPlacement, checkMailIdentity, checkMailPlacement, formatMailImportId, MAIL_IDENTITY_FIELDS, MAIL_PARENT,
  mailIdentity, MailPlacement, parseMailImportId,
} from './mail';

/**
 * An autoresponder (api-notes "Autoresponders"): the automatic reply of one address on
 * a package's mail domain, found by local@domain like the other mail kinds. It lives
 * in the `responder` list of the domain's mail read and is changed through the same
 * endpoint (`new.responder`, an update keyed by its `r…` id, `delete`). The address
 * needs neither a mailbox nor a forwarder: the API's sources do not ask for one, and
 * an address that only replies ("this address is no longer monitored") is a use of it.
 */
export type AutoresponderSpec = MailPlacement & {
  readonly kind: 'autoresponder';
  readonly path: string;
  readonly subject: string;
  /** The reply's body (the API's `content`). */
  readonly content: string;
  /** `text/plain` or `text/html` (the API's `type`). */
  readonly contentType: AutoresponderContentType;
  readonly enabled: boolean;
  /** When it starts replying: a canonical timestamp (see canonicalTimestamp), or null (at once). */
  readonly startTime: string | null;
  /** When it stops replying: a canonical timestamp, or null (never). */
  readonly endTime: string | null;
  /** An address the incoming mail is forwarded to as well, or null. */
  readonly forwardTo: string | null;
};

export const AUTORESPONDER_CONTENT_TYPES = ['text/plain', 'text/html'] as const;
/** The content type of an autoresponder's body: `text/plain` or `text/html`. */
export type AutoresponderContentType = (typeof AUTORESPONDER_CONTENT_TYPES)[number];

/**
 * Limits this library sets (no public source states the API's): a subject of at most
 * 255 characters (a mail header line) and a body of at most 16,384 characters, so that
 * a mistake such as a whole file pasted in is a plan-time error, not a failing apply.
 */
export const AUTORESPONDER_LIMITS = { subject: 255, content: 16_384 } as const;

export const AUTORESPONDER_FIELDS: readonly FieldDefinition[] = [
  ...MAIL_IDENTITY_FIELDS,
  { name: 'subject', attribute: 'subject', type: 'string', role: 'setting', presence: 'required', readable: true,
    description: `Subject of the reply (1 to ${AUTORESPONDER_LIMITS.subject} characters).` },
  { name: 'content', attribute: 'content', type: 'string', role: 'setting', presence: 'required', readable: true, words: 'body', longText: true,
    description: `Body of the reply (1 to ${AUTORESPONDER_LIMITS.content} characters), text or HTML as content_type says.` },
  { name: 'contentType', attribute: 'content_type', type: 'string', role: 'setting', presence: 'default', defaultValue: 'text/plain', readable: true, words: 'content type',
    description: 'Content type of the body: "text/plain" or "text/html".' },
  { name: 'enabled', attribute: 'enabled', type: 'bool', role: 'setting', presence: 'default', defaultValue: true, readable: true,
    description: 'Whether it replies (between start_time and end_time, when set).' },
  { name: 'startTime', attribute: 'start_time', type: 'string', role: 'setting', presence: 'default', defaultValue: null, readable: true, words: 'start time',
    description: 'When it starts replying: an ISO 8601 timestamp with a zone ("2026-12-24T09:00:00Z", "2026-12-24T10:00+01:00"), kept as UTC "YYYY-MM-DDTHH:MM:SSZ"; null: at once.' },
  { name: 'endTime', attribute: 'end_time', type: 'string', role: 'setting', presence: 'default', defaultValue: null, readable: true, words: 'end time',
    description: 'When it stops replying, after start_time: an ISO 8601 timestamp with a zone, kept as UTC "YYYY-MM-DDTHH:MM:SSZ"; null: never.' },
  { name: 'forwardTo', attribute: 'forward_to', type: 'string', role: 'setting', presence: 'default', defaultValue: null, readable: true, words: 'forward to',
    description: 'An e-mail address the incoming mail is also forwarded to; null: none.' },
  { name: 'autoresponderId', attribute: 'autoresponder_id', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'domain', 'localPart'],
    description: 'Id of the autoresponder in the API (e.g. "r123").' },
];

const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(Z|z|[+-][0-9]{2}:?[0-9]{2})$/;

/**
 * The canonical form of a timestamp: UTC, whole seconds, `YYYY-MM-DDTHH:MM:SSZ`. Any
 * ISO 8601 date and time with a zone (`Z` or an offset), with or without seconds,
 * reads as the same instant in this form, so a value the API reads back in another
 * form (milliseconds, an offset) compares equal to the declared one. Undefined when the
 * text is not such a timestamp (see checkTimestamp).
 */
export function canonicalTimestamp(text: string): string | undefined {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number);
  const s = Number(m[6] ?? 0);
  if (mo < 1 || mo > 12 || d < 1 || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  if (m[7] && !/^0+$/.test(m[7])) return undefined;
  const zone = m[8].toUpperCase() === 'Z' ? 0 : (m[8][0] === '-' ? -1 : 1) * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(-2)));
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - zone * 60_000;
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

export function checkTimestamp(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string' || canonicalTimestamp(value) === undefined) {
    return `must be an ISO 8601 date and time with a zone, in whole seconds ("2026-12-24T09:00:00Z", "2026-12-24T10:00+01:00"), or null, not ${describeValue(value)}`;
  }
  return undefined;
}

function checkText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return `must be a string, not ${describeValue(value)}`;
  if (value.trim() === '') return 'must not be empty';
  return value.length > max ? `is ${value.length} characters long; at most ${max} are allowed` : undefined;
}

const orNull = <T>(value: T | null | undefined): T | null => (value === undefined || value === '' ? null : value);

export function checkAutoresponder(raw: AutoresponderSpec, path: string = raw.path): Checked<AutoresponderSpec> {
  const p = new ProblemList(path);
  checkMailPlacement(p, raw);
  p.add('subject', checkText(raw.subject, AUTORESPONDER_LIMITS.subject));
  if (typeof raw.subject === 'string' && /[\r\n]/.test(raw.subject)) p.add('subject', 'must be one line (no line breaks)');
  p.add('content', checkText(raw.content, AUTORESPONDER_LIMITS.content));
  const contentType = raw.contentType ?? 'text/plain';
  if (!(AUTORESPONDER_CONTENT_TYPES as readonly unknown[]).includes(contentType)) {
    p.add('contentType', `must be "text/plain" or "text/html", not ${describeValue(contentType)}`);
  }
  p.add('enabled', checkBool(raw.enabled));
  const startTime = orNull(raw.startTime);
  const endTime = orNull(raw.endTime);
  p.add('startTime', checkTimestamp(startTime));
  p.add('endTime', checkTimestamp(endTime));
  const forwardTo = orNull(raw.forwardTo);
  if (forwardTo !== null) p.add('forwardTo', checkEmailAddress(forwardTo));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const start = startTime === null ? null : canonicalTimestamp(startTime)!;
  const end = endTime === null ? null : canonicalTimestamp(endTime)!;
  // Canonical timestamps of the same form compare as text.
  if (start !== null && end !== null && end <= start) p.add('endTime', `(${end}) must be after the start time (${start})`);
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return {
    spec: {
      ...canonicalMailPlacement(raw), contentType: contentType as AutoresponderContentType, enabled: raw.enabled ?? true,
      startTime: start, endTime: end, forwardTo: forwardTo === null ? null : canonicalEmail(forwardTo),
    },
    problems: [],
  };
}

export const autoresponderDefinition = {
  kind: 'autoresponder',
  label: 'autoresponder',
  description: 'An automatic reply of one address on a hosting package\'s mail domain, found by local@domain; the address needs no mailbox.',
  order: 6,
  resourceType: 'reseller_autoresponder',
  keyName: 'address',
  importIdHelp: 'the address local@domain',
  fields: AUTORESPONDER_FIELDS,
  check: checkAutoresponder,
  identity: (spec: AutoresponderSpec, parent = ''): Identity => mailIdentity('autoresponder', spec, parent),
  jsonSettings: ['enabled', 'startTime', 'endTime', 'forwardTo'],
  settings: (spec: AutoresponderSpec): Record<string, string> => ({
    subject: spec.subject, content: spec.content, contentType: spec.contentType, enabled: canonicalJson(spec.enabled),
    startTime: canonicalJson(spec.startTime), endTime: canonicalJson(spec.endTime), forwardTo: canonicalJson(spec.forwardTo),
  }),
  checkIdentity: checkMailIdentity,
  canonicalIdentity: canonicalMailIdentity,
  parseImportId: (text: string) => parseMailImportId('autoresponder', text),
  formatImportId: formatMailImportId,
  parent: MAIL_PARENT,
  dataSources: { plural: 'reseller_autoresponders' },
  import: {
    construct: 'Autoresponder',
    idPrefix: 'reply',
    props: [{ field: 'packageDomain', prop: 'package' }, 'localPart', 'domain', 'subject', 'content', 'contentType', 'enabled', 'startTime', 'endTime', 'forwardTo'],
    multiline: true,
    // Declared when --kinds names it (like DNS records and users): an account's replies are
    // often someone's holiday, not configuration a stack should own.
    byDefault: false,
  },
} satisfies KindDefinition<'autoresponder', AutoresponderSpec>;
