import { checkEmailAddress, checkStackUserRef, userKey } from '../../protocol';
import { list, Observed } from '../../reconcile';
import type { TfObject } from '../wire/values';
import { ArgumentProblem, computed, DataSource, listOf, lookup, optional, ReadResult, stringArg } from './data-source';
import { kindAttribute, kindAttributes, kindValues } from './from-kind';

/** reseller_stack_user and reseller_stack_users. */

const userValues = (o: Observed): TfObject => kindValues(o);

export function userDataSources(): DataSource[] {
  const fields = kindAttributes('stack-user');
  const keyed = new Set(['email', 'user_ref']);
  const single: DataSource = {
    typeName: 'reseller_stack_user',
    description: 'Reads a control-panel user the configuration does not manage, found by the e-mail of its contact record (case-insensitive) or its `user_ref`. A user that does not exist fails the plan.',
    attributes: [
      computed('id', 'string', 'The user\'s reference (`stack-user:N`).'),
      kindAttribute('stack-user', 'email', lookup),
      kindAttribute('stack-user', 'userRef', lookup),
      ...fields.filter((a) => !keyed.has(a.name)),
    ],
    oneOf: ['email', 'user_ref'],
    check(args) {
      const email = stringArg(args, 'email');
      const ref = stringArg(args, 'user_ref');
      const out: ArgumentProblem[] = [];
      const e = email === undefined ? undefined : checkEmailAddress(email);
      if (e) out.push({ attribute: 'email', message: e });
      const r = ref === undefined ? undefined : checkStackUserRef(ref);
      if (r) out.push({ attribute: 'user_ref', message: r });
      return out;
    },
    async read(args, ctx): Promise<ReadResult> {
      const all = await list(ctx(), 'stack-user');
      const email = stringArg(args, 'email');
      const ref = stringArg(args, 'user_ref');
      const found = email !== undefined
        ? all.filter((o) => userKey(String(o.fields.email)) === userKey(email)).sort((a, b) => refNumber(a) - refNumber(b))[0]
        : all.find((o) => o.computed.userRef === ref);
      if (!found) {
        return email !== undefined
          ? { notFound: { attribute: 'email', value: email, what: 'control-panel user', existing: all.map((o) => String(o.fields.email)) } }
          : { notFound: { attribute: 'user_ref', value: String(ref), what: 'control-panel user', existing: all.map((o) => String(o.computed.userRef)) } };
      }
      return { values: { ...userValues(found), id: String(found.computed.userRef) } };
    },
  };
  const plural: DataSource = {
    typeName: 'reseller_stack_users',
    description: 'Lists the control-panel users of the account, optionally those whose e-mail ends in a suffix. No match is an empty list.',
    attributes: [
      optional('email_suffix', 'string', 'Only users whose e-mail ends in this suffix (e.g. "@example.com"), case-insensitive.'),
      computed('users', listOf(fields), 'The matching users, by reference number.'),
      computed('emails', ['list', 'string'], 'The e-mails of the matching users, in the same order.'),
    ],
    async read(args, ctx): Promise<ReadResult> {
      const suffix = stringArg(args, 'email_suffix')?.toLowerCase();
      const all = (await list(ctx(), 'stack-user'))
        .filter((o) => suffix === undefined || String(o.fields.email).toLowerCase().endsWith(suffix))
        .sort((a, b) => refNumber(a) - refNumber(b));
      return { values: { users: all.map(userValues), emails: all.map((o) => String(o.fields.email)) } };
    },
  };
  return [single, plural];
}

const refNumber = (o: Observed) => Number(String(o.computed.userRef).split(':')[1]);
