import { attributePath, Diagnostic, warning } from '../diagnostics';
import type { TfObject } from '../wire/values';
import type { ObservedValues, ResourceField, ResourceKind } from './kind';
import type { PendingRecord } from './private-state';

/**
 * Set fields whose elements the service applies after an apply asked for them (a field's
 * `pending` facet: free certificates, issued minutes later and only once DNS points at
 * the service). How a plan tells "still being issued" from "removed in the control panel":
 * the apply records, in the resource's private state, each element it asked for and did
 * not see applied, with the time (private-state.ts). A refresh then counts a recorded
 * element that is not read back as present (pending, not drift) while its time lasts;
 * one that is read back leaves the record, so that its later absence is a difference
 * at once; one whose time is up counts as missing, and the next apply asks again.
 * Without a record (an import, the carriers) an element not read back is missing.
 */

const pendingFields = (kind: ResourceKind): ResourceField[] => kind.fields.filter((f) => f.pending && f.type === 'set(string)');

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const live = (field: ResourceField, record: PendingRecord, now: number) => {
  const hours = field.pending!.pendingHours;
  return Object.entries(record[field.attribute] ?? {}).filter(([, at]) => now - at < hours * 3_600_000);
};

/**
 * The refreshed object with the elements still pending counted as present, and the
 * record that remains: elements read back, no longer declared, or whose time is up leave it.
 */
export function withPending(kind: ResourceKind, state: TfObject, observed: ObservedValues, record: PendingRecord, now: number): { observed: ObservedValues; record: PendingRecord } {
  const fields = pendingFields(kind);
  if (!fields.length) return { observed, record: {} };
  const values: Record<string, unknown> = { ...observed.values };
  const next: Record<string, Record<string, number>> = {};
  for (const field of fields) {
    if (!(field.name in values)) continue; // not verifiable: nothing to say
    const seen = strings(values[field.name]);
    const declared = strings(state[field.attribute]);
    const waiting = live(field, record, now).filter(([element]) => declared.includes(element) && !seen.includes(element));
    if (waiting.length) next[field.attribute] = Object.fromEntries(waiting);
    values[field.name] = [...seen, ...waiting.map(([element]) => element)];
  }
  return { observed: { ...observed, values }, record: next };
}

/** The record after an apply: what it left pending, asked for now. */
export function pendingAfterApply(kind: ResourceKind, observed: ObservedValues, now: number): PendingRecord {
  const out: Record<string, Record<string, number>> = {};
  for (const field of pendingFields(kind)) {
    const left = observed.pending?.[field.name] ?? [];
    if (left.length) out[field.attribute] = Object.fromEntries(left.map((element) => [element, now]));
  }
  return out;
}

/** A plan's warning about each pending field's elements still waiting (with what they wait for, and why they may wait for ever). */
export function pendingDiagnostics(kind: ResourceKind, planned: TfObject, record: PendingRecord, now: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const field of pendingFields(kind)) {
    const declared = strings(planned[field.attribute]);
    const waiting = live(field, record, now).filter(([element]) => declared.includes(element));
    if (!waiting.length) continue;
    const { pendingHours, waitsFor, why } = field.pending!;
    const since = waiting.map(([element, at]) => `${element} (asked for ${new Date(at).toISOString()})`).join(', ');
    out.push(warning(
      `${field.attribute}: ${waiting.map(([e]) => e).join(', ')} still pending (${waitsFor})`,
      `${since}: not applied yet; ${why}. Until then it counts as present, not as a difference, for up to ${pendingHours} hours after it was asked for; ` +
        'after that the plan shows it missing and the next apply asks for it again.',
      attributePath(field.attribute),
    ));
  }
  return out;
}
