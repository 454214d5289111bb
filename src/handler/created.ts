import { HandlerContext } from './context';
import { applyScope } from './journal';

/**
 * Packages this Terraform run created. A package the API created moments ago for us
 * has no mail yet, so the first `ensure` of a mailbox or forwarder on it creates
 * without reading the domain first (one request fewer per mail object). Nothing is
 * taken on trust: if a mail object of that name exists after all, the create is
 * refused (409) and the handler falls back to reading and adopting it.
 * Scoped to the run (see applyScope) and short-lived; `delete` forgets the package.
 */
const CREATED_TTL_MS = 10 * 60_000;

const name = (ctx: HandlerContext, domain: string) => `created-package:${ctx.accountScope}:${applyScope()}:${domain}`;

export function recordCreatedPackage(ctx: HandlerContext, domain: string, id: number): void {
  ctx.journal.write(name(ctx, domain), { id });
}

export function createdThisRun(ctx: HandlerContext, domain: string): boolean {
  const entry = ctx.journal.read<{ id?: number }>(name(ctx, domain), CREATED_TTL_MS);
  return !!entry && typeof entry.id === 'number';
}

export function forgetCreatedPackage(ctx: HandlerContext, domain: string): void {
  ctx.journal.remove(name(ctx, domain));
}
