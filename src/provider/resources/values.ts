import { isUnknown, TfObject, TfValue, UNKNOWN } from '../wire/values';
import type { ResourceField, ResourceKind } from './kind';

/**
 * Between a resource's Terraform value (snake_case attributes, nulls, unknowns) and
 * the kind's spec values (camelCase, absent when null).
 */

export interface SpecValues {
  /** camelCase field -> value, for every known non-null attribute. */
  readonly values: Record<string, unknown>;
  /** camelCase fields whose value is not known yet (known after apply). */
  readonly unknown: ReadonlySet<string>;
}

/** Unknowns nested in a list or map make the whole field unknown for checking. */
function hasUnknown(value: TfValue): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasUnknown);
  return false;
}

export function specValuesOf(kind: ResourceKind, object: TfObject, include: (field: ResourceField) => boolean = () => true): SpecValues {
  const values: Record<string, unknown> = {};
  const unknown = new Set<string>();
  for (const field of kind.fields) {
    if (!include(field)) continue;
    const value = object[field.attribute];
    if (value === null || value === undefined) continue;
    if (hasUnknown(value)) unknown.add(field.name);
    else values[field.name] = value;
  }
  return { values, unknown };
}

/** An empty value of the resource: every attribute null. */
export function nullObject(kind: ResourceKind): TfObject {
  const out: TfObject = { id: null };
  for (const field of kind.fields) out[field.attribute] = null;
  if (kind.timeouts) out.timeouts = null;
  return out;
}

/** A spec/observed value in attribute form (numbers stay numbers, lists are copied). */
export function attributeValue(value: unknown): TfValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(attributeValue);
  if (typeof value === 'object') {
    const out: TfObject = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = attributeValue(v);
    return out;
  }
  return value as TfValue;
}

/** Equality of attribute values; lists compare as sets (every list attribute here is a set of names). */
export function sameValue(a: TfValue | undefined, b: TfValue | undefined): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    // The common case, a list compared with itself or its copy: the same elements in the same order.
    if (a.every((v, i) => v === b[i])) return true;
    const key = (v: TfValue) => JSON.stringify(v);
    const sortedB = b.map(key).sort();
    return a.map(key).sort().every((v, i) => v === sortedB[i]);
  }
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => sameValue(a[k], (b as TfObject)[k]));
  }
  return a === b;
}

export { UNKNOWN };
