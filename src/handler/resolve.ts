import type { PackageType, UserList } from '../client';
import { StackUserRef } from '../protocol';
import { HandlerContext } from './context';
import { HandlerError } from './errors';

const LIST_CACHE_MS = 5 * 60_000;

/**
 * Package types rarely change, and every package needs its type resolved: keep the list
 * for a few minutes across handler processes. A stale entry is harmless: the API
 * rejects an unknown type id, and the caller then calls again with `fresh`.
 */
export async function packageTypes(ctx: HandlerContext, fresh = false): Promise<PackageType[]> {
  const name = `package-types:${ctx.accountScope}`;
  const cached = fresh ? undefined : ctx.journal.read<PackageType[]>(name, LIST_CACHE_MS);
  if (cached) return cached;
  const types = await ctx.client.listPackageTypes();
  ctx.journal.write(name, types);
  return types;
}

/** A package type by numeric id or by name (case-insensitive), or a clear error listing the choices. */
export async function resolvePackageType(ctx: HandlerContext, path: string, wanted: string | number): Promise<PackageType> {
  const find = (types: PackageType[]) =>
    types.find((t) =>
      typeof wanted === 'number' || /^[0-9]+$/.test(String(wanted))
        ? t.id === Number(wanted)
        : t.label.toLowerCase() === String(wanted).trim().toLowerCase(),
    );
  const found = find(await packageTypes(ctx)) ?? find(await packageTypes(ctx, true));
  if (found) return found;
  const choices = (await packageTypes(ctx)).map((t) => `${t.label} (${t.id})`).join(', ');
  throw new HandlerError(`${path}: packageType "${wanted}" is not a package type of this account; available: ${choices}`);
}

/** A control-panel user ref, from `stack-user:N` (checked to exist) or `{ email }`. */
export async function resolveUser(ctx: HandlerContext, path: string, field: string, ref: StackUserRef): Promise<string> {
  const users: UserList = await ctx.client.listUsers();
  if (typeof ref === 'string') {
    if (users.contact[ref]) return ref;
    throw new HandlerError(`${path}: ${field} "${ref}" is not a control-panel user of this account`);
  }
  const wanted = ref.email.trim().toLowerCase();
  const match = Object.entries(users.contact).find(([, c]) => c.email.trim().toLowerCase() === wanted);
  if (match) return match[0];
  throw new HandlerError(
    `${path}: ${field} { email: "${ref.email}" } matches no control-panel user of this account; ` +
      'create the user in the control panel or use a stack-user:<id> reference',
  );
}
