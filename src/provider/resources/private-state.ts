import { isUnknown, TfObject, TfValue } from '../wire/values';
import type { ResourceKind } from './kind';

/**
 * The resource's private data (stored by Terraform with the state, never shown):
 * - the values of settings the API cannot change after create (`fixedAfterCreate`) as
 *   last applied or imported. A plan compares them with the configuration: a
 *   configuration that still says what was applied while the live value differs is a
 *   change made in the control panel (shown, with a warning); any other difference is a
 *   change the user asked for that the API cannot make (a plan-time error);
 * - for a set field with a `pending` facet (free certificates), the elements an apply
 *   asked for and the service has not applied yet, each with the time it was asked for
 *   (epoch ms), under the reserved key `#pending` (no attribute name starts with `#`).
 *   A refresh counts such an element as present until it is read back (then it is
 *   dropped from the record: from then on, its absence is drift) or its time is up.
 */

const PREFIX = 'reseller:applied:';
const PENDING = '#pending';

/** Attribute -> element -> when it was asked for (epoch ms). */
export type PendingRecord = Readonly<Record<string, Readonly<Record<string, number>>>>;

function fixedFields(kind: ResourceKind) {
  return kind.fields.filter((f) => f.fixedAfterCreate && f.role === 'setting');
}

/** Private data recording the fixed settings of `state` and the pending elements; empty when there is neither. */
export function appliedPrivate(kind: ResourceKind, state: TfObject | null, pending: PendingRecord = {}): Buffer {
  const fields = fixedFields(kind);
  const waiting = Object.fromEntries(Object.entries(pending).filter(([, elements]) => Object.keys(elements).length > 0));
  if (!state || (!fields.length && !Object.keys(waiting).length)) return Buffer.alloc(0);
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = state[field.attribute];
    if (value !== undefined && !isUnknown(value)) values[field.attribute] = value;
  }
  if (Object.keys(waiting).length) values[PENDING] = waiting;
  return Buffer.from(PREFIX + JSON.stringify(values));
}

function parsed(priv: Buffer | undefined): Record<string, unknown> | undefined {
  if (!priv?.length) return undefined;
  const text = priv.toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  try {
    const value = JSON.parse(text.slice(PREFIX.length)) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The fixed settings recorded in private data, or undefined when none are. */
export function appliedFixedValues(priv: Buffer | undefined): Readonly<Record<string, TfValue>> | undefined {
  const values = parsed(priv);
  if (!values) return undefined;
  const { [PENDING]: _pending, ...fixed } = values;
  return fixed as Record<string, TfValue>;
}

/** The pending elements recorded in private data (empty when none). */
export function pendingRecord(priv: Buffer | undefined): PendingRecord {
  const raw = parsed(priv)?.[PENDING];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, Record<string, number>> = {};
  for (const [attribute, elements] of Object.entries(raw as Record<string, unknown>)) {
    if (elements === null || typeof elements !== 'object' || Array.isArray(elements)) continue;
    const kept = Object.entries(elements as Record<string, unknown>).filter(([, at]) => typeof at === 'number' && Number.isFinite(at));
    if (kept.length) out[attribute] = Object.fromEntries(kept) as Record<string, number>;
  }
  return out;
}
