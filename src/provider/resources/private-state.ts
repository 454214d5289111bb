import { isUnknown, TfObject, TfValue } from '../wire/values';
import type { ResourceKind } from './kind';

/**
 * The resource's private data (stored by Terraform with the state, never shown): the
 * values of settings the API cannot change after create (`fixedAfterCreate`) as last
 * applied or imported. A plan compares them with the configuration: a configuration
 * that still says what was applied while the live value differs is a change made in
 * the control panel (shown, with a warning); any other difference is a change the
 * user asked for that the API cannot make (a plan-time error).
 */

const PREFIX = 'reseller:applied:';

function fixedFields(kind: ResourceKind) {
  return kind.fields.filter((f) => f.fixedAfterCreate && f.role === 'setting');
}

/** Private data recording the fixed settings of `state`; empty for kinds without any. */
export function appliedPrivate(kind: ResourceKind, state: TfObject | null): Buffer {
  const fields = fixedFields(kind);
  if (!state || !fields.length) return Buffer.alloc(0);
  const values: Record<string, TfValue> = {};
  for (const field of fields) {
    const value = state[field.attribute];
    if (value !== undefined && !isUnknown(value)) values[field.attribute] = value;
  }
  return Buffer.from(PREFIX + JSON.stringify(values));
}

/** The fixed settings recorded in private data, or undefined when none are. */
export function appliedFixedValues(priv: Buffer | undefined): Readonly<Record<string, TfValue>> | undefined {
  if (!priv?.length) return undefined;
  const text = priv.toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  try {
    return JSON.parse(text.slice(PREFIX.length)) as Record<string, TfValue>;
  } catch {
    return undefined;
  }
}
