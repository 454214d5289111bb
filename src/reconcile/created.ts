import type { ReconcileContext } from './context';

/**
 * Packages this Terraform run created. A package the API created moments ago for us
 * has no mail yet, so the first `ensure` of a mailbox or forwarder on it creates
 * without reading the domain first (one request fewer per mail object). Nothing is
 * taken on trust: if a mail object of that name exists after all, the create is
 * refused (409) and the handler falls back to reading and adopting it.
 * Scoped to the run (ctx.runScope) and short-lived; `delete` forgets the package.
 */
const CREATED_TTL_MS = 10 * 60_000;

const name = (ctx: ReconcileContext, domain: string) => `created-package:${ctx.accountScope}:${ctx.runScope}:${domain}`;

export function recordCreatedPackage(ctx: ReconcileContext, domain: string, id: number): void {
  ctx.store.write(name(ctx, domain), { id });
}

export function createdThisRun(ctx: ReconcileContext, domain: string): boolean {
  const entry = ctx.store.read<{ id?: number }>(name(ctx, domain), CREATED_TTL_MS);
  return !!entry && typeof entry.id === 'number';
}

export function forgetCreatedPackage(ctx: ReconcileContext, domain: string): void {
  ctx.store.remove(name(ctx, domain));
}
