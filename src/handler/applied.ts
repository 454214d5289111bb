import { createHash } from 'node:crypto';
import { canonicalJson, ObjectSpec, settingsOf } from '../protocol';
import { HandlerContext } from './context';

/**
 * `ensure` applies the full desired state, settings included; the settings resource's
 * `update` runs right after it in the same apply with the same object id. Recording
 * what `ensure` applied lets that `update` skip its reads entirely. The record is keyed
 * by the Terraform object id (a fresh UUID per object instance), so it can never
 * vouch for another object, and it expires after an hour.
 */
const APPLIED_TTL_MS = 60 * 60_000;

export function settingsHash(spec: ObjectSpec): string {
  return createHash('sha256').update(canonicalJson({ kind: spec.kind, settings: settingsOf(spec) })).digest('hex');
}

export function recordApplied(ctx: HandlerContext, spec: ObjectSpec, extra: Record<string, unknown> = {}): void {
  if (ctx.objectId) ctx.journal.write(appliedName(ctx), { settings: settingsHash(spec), ...extra });
}

export function appliedRecord(ctx: HandlerContext): { settings: string; passwordVersion?: number } | undefined {
  return ctx.objectId ? ctx.journal.read(appliedName(ctx), APPLIED_TTL_MS) : undefined;
}

export function alreadyApplied(ctx: HandlerContext, spec: ObjectSpec): boolean {
  return appliedRecord(ctx)?.settings === settingsHash(spec);
}

function appliedName(ctx: HandlerContext): string {
  return `applied:${ctx.accountScope}:${ctx.objectId}`;
}
