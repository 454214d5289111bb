import { canonicalJson } from '../canonical-json';
import { checkBool, checkPositiveInt } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList, SecretFacet } from './definition';
import { secretFields } from './secret-fields';
import type { Identity } from './identity';
import {
  canonicalMailIdentity, canonicalMailPlacement, checkMailIdentity, checkMailPlacement, formatMailImportId, MAIL_IDENTITY_FIELDS, MAIL_PARENT,
  mailIdentity, MailPlacement, parseMailImportId,
} from './mail';

/** A mailbox on a package's mail domain (spec 4.9-4.11), found by local@domain. */
export type MailboxSpec = MailPlacement & {
  readonly kind: 'mailbox';
  readonly path: string;
  readonly send: boolean;
  readonly receive: boolean;
  /** Bumping it sets the password again (rotation). */
  readonly passwordVersion?: number;
  /** Name of an environment variable that holds the password, when not given as a value. */
  readonly passwordEnv?: string;
};

/** The mailbox's password: the carriers pass it in RESELLER_MAILBOX_PASSWORD. */
const MAILBOX_SECRET = {
  field: 'password', versionField: 'passwordVersion', envField: 'passwordEnv', environment: 'RESELLER_MAILBOX_PASSWORD',
  words: 'password', requiredToCreate: true,
} as const satisfies SecretFacet;

export const MAILBOX_FIELDS: readonly FieldDefinition[] = [
  ...MAIL_IDENTITY_FIELDS,
  { name: 'send', attribute: 'send', type: 'bool', role: 'setting', presence: 'default', defaultValue: true, readable: true,
    description: 'Whether the mailbox may send mail.' },
  { name: 'receive', attribute: 'receive', type: 'bool', role: 'setting', presence: 'default', defaultValue: true, readable: true,
    description: 'Whether the mailbox receives mail.' },
  ...secretFields(MAILBOX_SECRET, { value: 'The mailbox password', creates: 'the mailbox' }),
  { name: 'mailboxId', attribute: 'mailbox_id', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'domain', 'localPart'],
    description: 'Id of the mailbox in the API (e.g. "m123").' },
];

export function checkMailbox(raw: MailboxSpec, path: string = raw.path): Checked<MailboxSpec> {
  const p = new ProblemList(path);
  checkMailPlacement(p, raw);
  p.add('send', checkBool(raw.send));
  p.add('receive', checkBool(raw.receive));
  if (raw.passwordVersion !== undefined) p.add('passwordVersion', checkPositiveInt(raw.passwordVersion));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...canonicalMailPlacement(raw), send: raw.send ?? true, receive: raw.receive ?? true }, problems: [] };
}

export const mailboxDefinition = {
  kind: 'mailbox',
  label: 'mailbox',
  description: 'A mailbox on a hosting package\'s mail domain, found by local@domain. Its password is write-only.',
  order: 3,
  resourceType: 'reseller_mailbox',
  keyName: 'address',
  importIdHelp: 'the address local@domain',
  fields: MAILBOX_FIELDS,
  check: checkMailbox,
  identity: (spec: MailboxSpec, parent = ''): Identity => mailIdentity('mailbox', spec, parent),
  jsonSettings: ['send', 'receive'],
  settings: (spec: MailboxSpec): Record<string, string> => ({ send: canonicalJson(spec.send), receive: canonicalJson(spec.receive) }),
  checkIdentity: checkMailIdentity,
  canonicalIdentity: canonicalMailIdentity,
  parseImportId: (text: string) => parseMailImportId('mailbox', text),
  formatImportId: formatMailImportId,
  parent: MAIL_PARENT,
  lifecycle: { deletes: 'the mail stored in it' },
  secret: MAILBOX_SECRET,
  import: {
    construct: 'Mailbox',
    idPrefix: 'mailbox',
    props: [{ field: 'packageDomain', prop: 'package' }, 'localPart', 'domain', 'send', 'receive'],
    header: [
      'Mailboxes are declared without a password: adoption keeps the current one. Add one',
      '(a sensitive TerraformVariable with passwordVersion) only when you want to set it.',
    ],
  },
} satisfies KindDefinition<'mailbox', MailboxSpec>;
