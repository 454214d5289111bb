import type { ContactRecord } from '../client';
import { describeObject, Identity, STACK_USER_REF, StackUserSpec, userKey } from '../protocol';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { FieldDiff, describeDiffs } from './diff';
import type { KindReconciler } from './kind';
import { Observed, observed } from './observed';
import { USERS } from './refs';

/**
 * A control-panel user, found by the e-mail of its contact record (case-insensitive).
 * Created with the API's new-user operation, adopted when one with that e-mail exists,
 * deleted on destroy. Its name is set at creation: the API has no operation to change
 * it, so a difference is reported, never "updated".
 */
interface LiveUser {
  ref: string;
  contact: ContactRecord;
}

/** The user with this identity key (lowercase e-mail, or `stack-user:N`), read afresh. */
export async function findUser(ctx: ReconcileContext, key: string, cached = false): Promise<LiveUser | undefined> {
  const users = cached ? await ctx.lists.get(USERS, () => ctx.client.users.list()) : await ctx.client.users.list();
  if (STACK_USER_REF.test(key)) return users.contact[key] ? { ref: key, contact: users.contact[key] } : undefined;
  const matches = Object.entries(users.contact).filter(([, c]) => userKey(c.email) === key);
  matches.sort(([a], [b]) => Number(a.split(':')[1]) - Number(b.split(':')[1]));
  return matches.length ? { ref: matches[0][0], contact: matches[0][1] } : undefined;
}

const email = (spec: StackUserSpec) => spec.email;

export function diffStackUser(spec: StackUserSpec, live: { personName?: string }): FieldDiff[] {
  if (spec.personName === undefined || live.personName === undefined) return [];
  return spec.personName.trim() === live.personName.trim() ? [] : [{ field: 'personName', declared: spec.personName, live: live.personName }];
}

export function reportFixed(ctx: ReconcileContext, spec: StackUserSpec, live: LiveUser): string {
  const diffs = diffStackUser(spec, { personName: live.contact.person_name });
  if (diffs.length) {
    ctx.warn(`${spec.path}: stack user ${email(spec)} differs from its declaration (${describeDiffs(diffs)}); the API cannot change a user's name after creation: change it in the control panel`);
  }
  return live.ref;
}

export async function ensureStackUser(ctx: ReconcileContext, spec: StackUserSpec): Promise<void> {
  const key = userKey(spec.email);
  let live = await findUser(ctx, key);
  if (live) {
    reportFixed(ctx, spec, live);
    ctx.info(`adopted stack user ${live.contact.email} (${live.ref})`);
    return;
  }
  await converge(ctx, {
    what: `${spec.path}: create stack user ${email(spec)}`,
    conflictMayBeOurs: true,
    log: (l) => ctx.warn(l),
    isDone: async () => (live = await findUser(ctx, key)) !== undefined,
    write: async () => {
      await ctx.client.users.create({ email: spec.email, ...(spec.personName !== undefined ? { personName: spec.personName } : {}) });
    },
  });
  ctx.info(`created stack user ${email(spec)} (${live!.ref})`);
}

export async function deleteStackUser(ctx: ReconcileContext, id: Identity): Promise<void> {
  const live = await findUser(ctx, id.key);
  if (!live) {
    ctx.info(`${describeObject(id)} is already absent`);
    return;
  }
  await converge(ctx, {
    what: `delete ${describeObject(id)}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await findUser(ctx, id.key)) === undefined,
    write: () => ctx.client.users.delete(live.ref),
  });
  ctx.info(`deleted ${describeObject(id)} (${live.ref})`);
}

function observedUser(live: LiveUser, id: Identity = { kind: 'stack-user', key: '', placement: '', parent: '' }): Observed {
  const fields: Record<string, unknown> = { email: live.contact.email };
  if (live.contact.person_name !== undefined) fields.personName = live.contact.person_name;
  return observed({ ...id, key: userKey(live.contact.email) }, live.ref, fields, { userRef: live.ref }, live.contact.person_name === undefined ? ['personName'] : []);
}

async function observeStackUser(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const live = await findUser(ctx, id.key, true);
  return live && observedUser(live, id);
}

/** Every user of the account, by ref number (the order findUser prefers). */
async function listStackUsers(ctx: ReconcileContext): Promise<Observed[]> {
  const users = await ctx.lists.get(USERS, () => ctx.client.users.list());
  return Object.entries(users.contact)
    .filter(([ref]) => STACK_USER_REF.test(ref))
    .sort(([a], [b]) => Number(a.split(':')[1]) - Number(b.split(':')[1]))
    .map(([ref, contact]) => observedUser({ ref, contact }));
}

async function diffObservedStackUser(_ctx: ReconcileContext, spec: StackUserSpec, live: Observed): Promise<FieldDiff[]> {
  return diffStackUser(spec, { personName: live.fields.personName as string | undefined });
}

export const stackUserReconciler = {
  observe: observeStackUser,
  list: listStackUsers,
  diff: diffObservedStackUser,
  ensure: ensureStackUser,
  remove: deleteStackUser,
  entries: (o) => [{ id: o.liveId, detail: o.fields.personName === undefined ? '' : String(o.fields.personName) }],
} satisfies KindReconciler<'stack-user'>;
