import { isPlainObject } from './util';

/**
 * Structural checks of stored data: what the data file loader holds each member of a
 * loaded state against (persistence.ts), so that the emulator never runs on a file whose
 * shape it does not understand (which would surface later as 500s). Each noun states
 * the checks of its own members with these (`check` of its slices, nouns/registry.ts).
 */

export type Check = (v: unknown) => boolean;

export const int: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v);
export const str: Check = (v) => typeof v === 'string';
export const bool: Check = (v) => typeof v === 'boolean';
export const nullable = (c: Check): Check => (v) => v === null || c(v);
export const arrayOf = (c: Check): Check => (v) => Array.isArray(v) && v.every(c);
export const isOneOf = (values: readonly unknown[]): Check => (v) => values.includes(v);
/** A sha256 digest in lowercase hex: how keys and passwords are kept. */
export const hex64: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
/** An object whose every value is a string. */
export const stringMap: Check = (v) => isPlainObject(v) && Object.values(v).every(str);

/** A plain object whose members pass their checks (other members are not looked at). */
export function fields(v: unknown, spec: Readonly<Record<string, Check>>): boolean {
  return isPlainObject(v) && Object.entries(spec).every(([k, c]) => c(v[k]));
}

/** `fields` as a Check. */
export const object = (spec: Readonly<Record<string, Check>>): Check => (v) => fields(v, spec);
