import { createHash } from 'node:crypto';
import { canonicalJson, ObjectSpec, settingsOf } from '../protocol';
import { HandlerContext } from './context';

/**
 * `ensure` applies the full desired state, settings and password included; the
 * settings (and password) resources run right after it in the same apply with the
 * same object id. Recording what `ensure` applied lets those steps skip their requests.
 * - Only `ensure` records: anything else reconciles for real.
 * - A record is keyed by the Terraform object id (a fresh UUID per object instance),
 *   so it can never vouch for another object; it expires after an hour.
 * - A record is used once: a later `terraform apply -replace=<settings resource>`
 *   (or drift repair) must reconcile against the live account, not trust the note.
 */
const APPLIED_TTL_MS = 60 * 60_000;

export function settingsHash(spec: ObjectSpec): string {
  return createHash('sha256').update(canonicalJson({ kind: spec.kind, settings: settingsOf(spec) })).digest('hex');
}

export function recordApplied(ctx: HandlerContext, spec: ObjectSpec, extra: { passwordVersion?: number } = {}): void {
  if (!ctx.objectId || ctx.command !== 'ensure') return;
  ctx.journal.write(entryName(ctx, 'settings'), settingsHash(spec));
  if (extra.passwordVersion !== undefined) ctx.journal.write(entryName(ctx, 'password'), extra.passwordVersion);
}

/** True (once) when `ensure` just applied exactly these settings to this object. */
export function alreadyApplied(ctx: HandlerContext, spec: ObjectSpec): boolean {
  return consume(ctx, 'settings') === settingsHash(spec);
}

/** The password version `ensure` set when it created this mailbox, if any (once). */
export function appliedRecord(ctx: HandlerContext): { passwordVersion?: number } | undefined {
  const passwordVersion = consume(ctx, 'password');
  return passwordVersion === undefined ? undefined : { passwordVersion: passwordVersion as number };
}

function consume(ctx: HandlerContext, part: 'settings' | 'password'): unknown {
  if (!ctx.objectId) return undefined;
  const name = entryName(ctx, part);
  const value = ctx.journal.read<unknown>(name, APPLIED_TTL_MS);
  if (value === undefined || value === null) return undefined;
  ctx.journal.write(name, null);
  return value;
}

function entryName(ctx: HandlerContext, part: string): string {
  return `applied-${part}:${ctx.accountScope}:${ctx.objectId}`;
}
