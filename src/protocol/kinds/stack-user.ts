import { canonicalJson } from '../canonical-json';
import { canonicalEmail, checkEmailAddress, STACK_USER_REF } from '../names';
import { checkOptionalString } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';

/**
 * A control-panel user (spec 2.1, 2.2; api-notes "Control-panel users"), found by the
 * e-mail of its contact record, case-insensitively. Its contact fields are set when
 * it is created: the API has no operation to change them, so a difference is reported
 * (drift) and never presented as an update.
 */
export type StackUserSpec = {
  readonly kind: 'stack-user';
  readonly path: string;
  readonly email: string;
  readonly personName?: string;
};

export const STACK_USER_FIELDS: readonly FieldDefinition[] = [
  { name: 'email', attribute: 'email', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: 'E-mail of the user\'s contact record (its natural key, case-insensitive).' },
  { name: 'personName', attribute: 'person_name', type: 'string', role: 'setting', presence: 'optional', readable: true, fixedAfterCreate: true, words: 'person name',
    description: 'Name of the person; set when the user is created (the API cannot change it later).' },
  { name: 'userRef', attribute: 'user_ref', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['email'],
    description: 'The user\'s identifier, "stack-user:N".' },
];

/** The identity key of an e-mail: compared case-insensitively. */
export const userKey = (email: string) => canonicalEmail(email.trim()).toLowerCase();

export function checkStackUser(raw: StackUserSpec, path: string = raw.path): Checked<StackUserSpec> {
  const p = new ProblemList(path);
  p.add('email', checkEmailAddress(raw.email));
  p.add('personName', checkOptionalString(raw.personName, 255));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...raw, email: canonicalEmail(raw.email.trim()) }, problems: [] };
}

export const stackUserDefinition = {
  kind: 'stack-user',
  label: 'stack user',
  description: 'A control-panel user, found by the e-mail of its contact record.',
  order: 1,
  resourceType: 'reseller_stack_user',
  keyName: 'e-mail',
  importIdHelp: 'the e-mail, or stack-user:N',
  fields: STACK_USER_FIELDS,
  check: checkStackUser,
  identity: (spec: StackUserSpec, parent = ''): Identity => ({ kind: 'stack-user', key: userKey(spec.email), placement: '', parent }),
  jsonSettings: ['personName'],
  settings: (spec: StackUserSpec): Record<string, string> => ({ personName: canonicalJson(spec.personName ?? null) }),
  checkIdentity(id: Identity): string[] {
    const problem = STACK_USER_REF.test(id.key) ? undefined : checkEmailAddress(id.key);
    return problem ? [`email ${problem}`] : [];
  },
  canonicalIdentity: (id: Identity): Identity => ({ ...id, key: STACK_USER_REF.test(id.key) ? id.key : userKey(id.key), placement: '' }),
  /**
   * `terraform import` id: the e-mail, or `stack-user:N` (then the key is the ref, and
   * observe looks the user up by it; the adapter keeps the e-mail it reads back).
   */
  parseImportId(text: string): Identity | string {
    if (STACK_USER_REF.test(text)) return { kind: 'stack-user', key: text, placement: '', parent: '' };
    const problem = checkEmailAddress(text);
    return problem ? `import id ${problem} (expected ${stackUserDefinition.importIdHelp})` : { kind: 'stack-user', key: userKey(text), placement: '', parent: '' };
  },
  formatImportId: (id: Identity): string => id.key,
  /**
   * A control-panel user is a customer's login, which often exists without any stack
   * declaring it (and packages refer to it): drift does not list undeclared users.
   */
  reportsUnmanaged: false,
  import: {
    construct: 'StackUser',
    idPrefix: 'user',
    // Many accounts have users no stack should own (a customer's login): declared on request only.
    byDefault: false,
    formerFlag: 'users',
    section: ['---- Control-panel users ----', 'Names are set when a user is created: the API cannot change them later.'],
    props: ['email', 'personName'],
    notes: (live) => ({ after: live.liveId }),
  },
} satisfies KindDefinition<'stack-user', StackUserSpec>;
