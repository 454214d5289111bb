import type { PackageType, UserList } from '../client';
import { isMissingObject, isValidationError } from '../client';
import { StackUserRef } from '../protocol';
import type { ReconcileContext } from './context';
import type { AccountProblem } from './kind';
import { UnknownReference } from './errors';

/**
 * Package types and control-panel users rarely change, and every package needs both
 * resolved (a type name to its id, an owner's e-mail to its `stack-user:N`). Each
 * handler is its own process, so without a shared cache an apply of N packages reads
 * the user list N times, and that list grows with the account (its grant map names
 * every package): N requests and O(N^2) bytes. These caches are kept in the context's store (the handler's journal):
 *
 * - scoped to one Terraform run (`ctx.runScope`: for the carriers, the Terraform process), so a change
 *   made in the control panel is seen by the next apply, and for at most LIST_CACHE_MS;
 * - verified: a name or reference missing from a cached list is looked up again
 *   before it is reported as unknown; before a write that changes a package's type or
 *   owner the references are resolved afresh; and when the API rejects a create made
 *   with cached references, they are resolved afresh and the create is made again if
 *   they changed (see `retryWithFreshRefs`). A stale entry costs a request, never a wrong
 *   or a skipped write.
 */
const LIST_CACHE_MS = 10 * 60_000;

/**
 * Reads a list through the journal cache (or afresh, refreshing the cache). In a pass
 * that reads each list once (drift: ctx.oneReadPerList), through the context's lists.
 */
async function cachedList<T>(ctx: ReconcileContext, list: string, fresh: boolean, read: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
  if (ctx.oneReadPerList) return { value: await ctx.lists.get(list, read), cached: false };
  return ctx.store.fill(`${list}:${ctx.accountScope}:${ctx.runScope}`, LIST_CACHE_MS, read, fresh);
}

/**
 * A package type by numeric id or by name (case-insensitive); when the account has no
 * such type, the rule the value breaks, listing the choices.
 */
export async function findPackageType(ctx: ReconcileContext, wanted: string | number, fresh = false): Promise<{ type: PackageType } | { rule: string }> {
  const find = (types: PackageType[]) => resolveTypeIn(types, wanted);
  let types = await cachedList(ctx, 'package-types', fresh, () => ctx.client.packageTypes.list());
  let found = find(types.value);
  if (!found && types.cached) {
    types = await cachedList(ctx, 'package-types', true, () => ctx.client.packageTypes.list());
    found = find(types.value);
  }
  if (found) return { type: found };
  const choices = types.value.map((t) => `${t.label} (${t.id})`).join(', ');
  return { rule: `"${wanted}" is not a package type of this account; available: ${choices}` };
}

/** A package type by numeric id or by name (case-insensitive), or a clear error listing the choices. */
export async function resolvePackageType(ctx: ReconcileContext, path: string, wanted: string | number, fresh = false): Promise<PackageType> {
  const found = await findPackageType(ctx, wanted, fresh);
  if ('type' in found) return found.type;
  const problem = `packageType ${found.rule}`;
  throw new UnknownReference(`${path}: ${problem}`, problem, 'packageType');
}

/** The name of a package type id (its id when the account does not list it), from the same cached list. */
export async function packageTypeLabel(ctx: ReconcileContext, id: number): Promise<string | number> {
  const types = await cachedList(ctx, 'package-types', false, () => ctx.client.packageTypes.list());
  return types.value.find((t) => t.id === id)?.label ?? id;
}

/** `stack-user:N` -> contact e-mail: all the handler needs of the user list (not its growing grant map). */
type UserDirectory = Record<string, string>;

async function userDirectory(ctx: ReconcileContext, fresh: boolean): Promise<{ value: UserDirectory; cached: boolean }> {
  const directory = (users: UserList): UserDirectory => Object.fromEntries(Object.entries(users.contact).map(([ref, c]) => [ref, c.email]));
  // A pass that reads each list once shares the user list that stack users are listed from.
  if (ctx.oneReadPerList) return { value: directory(await ctx.lists.get(USERS, () => ctx.client.users.list())), cached: false };
  return cachedList(ctx, 'user-directory', fresh, async () => directory(await ctx.client.users.list()));
}

/**
 * For a check when planning (KindReconciler.checkAccount): the rule a `stack-user:N`
 * reference breaks when the account has no such user. The API numbers users itself, so
 * no plan can create that one; an e-mail reference is not checked, because the same
 * plan may create that user.
 */
export async function userRefProblems(ctx: ReconcileContext, field: string, ref: StackUserRef | undefined): Promise<AccountProblem[]> {
  if (typeof ref !== 'string' || (await findUser(ctx, ref))) return [];
  return [{ field, rule: unknownUserRule(ref) }];
}

/** The rule a `stack-user:N` reference the account lacks breaks. */
const unknownUserRule = (ref: string) => `"${ref}" is not a control-panel user of this account`;

/** The `stack-user:N` that `ref` (a number or an e-mail) names, or undefined; a miss in a cached list is looked up afresh first. */
async function findUser(ctx: ReconcileContext, ref: StackUserRef, fresh = false): Promise<string | undefined> {
  const find = (users: UserDirectory): string | undefined => {
    if (typeof ref === 'string') return users[ref] !== undefined ? ref : undefined;
    const wanted = ref.email.trim().toLowerCase();
    return Object.keys(users).find((u) => users[u].trim().toLowerCase() === wanted);
  };
  let users = await userDirectory(ctx, fresh);
  let found = find(users.value);
  if (!found && users.cached) {
    users = await userDirectory(ctx, true);
    found = find(users.value);
  }
  return found;
}

/** The context's list name of the account's control-panel users (with their contact records). */
export const USERS = 'users';

/** A control-panel user ref, from `stack-user:N` (checked to exist) or `{ email }`. */
export async function resolveUser(ctx: ReconcileContext, path: string, field: string, ref: StackUserRef, fresh = false): Promise<string> {
  const found = await findUser(ctx, ref, fresh);
  if (found) return found;
  if (typeof ref === 'string') {
    const problem = `${field} ${unknownUserRule(ref)}`;
    throw new UnknownReference(`${path}: ${problem}`, problem, field);
  }
  throw new UnknownReference(
    `${path}: ${field} { email: "${ref.email}" } matches no control-panel user of this account; ` +
      'create the user in the control panel or use a stack-user:<id> reference',
    `${field} { email: "${ref.email}" } is not a control-panel user of this account`,
    field,
  );
}

/** Whether a write was refused as invalid (400) or as naming an object that does not exist (404). */
export function isRejection(err: unknown): boolean {
  return isValidationError(err) || isMissingObject(err);
}

/**
 * Runs a write made with references resolved from the caches. When the API rejects it
 * and resolving afresh gives different references, the write is made once more with
 * those; otherwise the rejection stands. Returns the references the write succeeded with.
 */
export async function retryWithFreshRefs<R>(
  refs: R,
  write: (refs: R) => Promise<void>,
  refresh: () => Promise<R>,
  same: (a: R, b: R) => boolean,
  note?: (line: string) => void,
): Promise<R> {
  try {
    await write(refs);
    return refs;
  } catch (err) {
    if (!isRejection(err)) throw err;
    const fresh = await refresh();
    if (same(fresh, refs)) throw err;
    note?.('the API refused a reference taken from the cached lists of this apply; resolved it afresh, writing again');
    await write(fresh);
    return fresh;
  }
}

/** A package type by numeric id or by name (case-insensitive), in a list already read. */
function resolveTypeIn(types: readonly PackageType[], wanted: string | number): PackageType | undefined {
  const byId = typeof wanted === 'number' || /^[0-9]+$/.test(String(wanted));
  return types.find((t) => (byId ? t.id === Number(wanted) : t.label.toLowerCase() === String(wanted).trim().toLowerCase()));
}
