/**
 * Small hand-written guards for response bodies. Each one returns the checked (and
 * normalised) value or throws `ShapeMismatch`, which the request layer turns into a
 * `ResponseShapeError` naming the operation. Messages name a place in the body and a
 * JSON type, never a value (a response may echo a password).
 *
 * `where` is the place being checked: '' for the whole body, else a path such as
 * `[3].configuration.CpuCores`.
 */

export class ShapeMismatch extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

export type Json = unknown;
export type JsonObject = Record<string, unknown>;

/** JSON type of a value, for messages: "object", "array", "null", "string", "nothing" (missing), ... */
export function typeOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function fail(where: string, expectation: string, value: unknown): never {
  throw new ShapeMismatch(
    where ? `expected ${where} to be ${expectation}, got ${typeOf(value)}` : `expected ${expectation}, got ${typeOf(value)}`,
  );
}

export function at(where: string, key: string | number): string {
  if (typeof key === 'number') return `${where}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (where ? `${where}.${key}` : key) : `${where}[${JSON.stringify(key)}]`;
}

function isPlainObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function object(value: unknown, where: string): JsonObject {
  if (!isPlainObject(value)) fail(where, 'an object', value);
  return value;
}

/**
 * An object used as a map. An empty JSON array is accepted as an empty map: PHP
 * back ends encode an empty associative array as `[]`.
 */
export function map(value: unknown, where: string): JsonObject {
  if (Array.isArray(value) && value.length === 0) return {};
  if (!isPlainObject(value)) fail(where, 'an object', value);
  return value;
}

export function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(where, 'an array', value);
  return value;
}

export function arrayOf<T>(value: unknown, where: string, item: (v: unknown, where: string) => T): T[] {
  return array(value, where).map((v, i) => item(v, at(where, i)));
}

export function string(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'a string', value);
  return value;
}

/** A string; `fallback` when missing or null. */
export function optString(value: unknown, where: string, fallback = ''): string {
  return value === undefined || value === null ? fallback : string(value, where);
}

/**
 * Text sent as a string or as a number (PHP back ends and clients mix them freely);
 * a number becomes its decimal text. `fallback` when missing or null.
 */
export function optText(value: unknown, where: string, fallback = ''): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return optString(value, where, fallback);
}

export function stringOrNull(value: unknown, where: string): string | null {
  return value === undefined || value === null ? null : string(value, where);
}

/** A finite number, or a string holding one. */
export function number(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return fail(where, 'a number', value);
}

export function optNumber(value: unknown, where: string, fallback = 0): number {
  return value === undefined || value === null || value === '' ? fallback : number(value, where);
}

/** An object id: a non-negative integer, or a string of digits (the API uses both). */
export function id(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) return Number(value);
  return fail(where, 'an id (number or digit string)', value);
}

/** A boolean sent as a boolean, 1/0, or "true"/"false"/"1"/"0". */
export function boolean(value: unknown, where: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return fail(where, 'a boolean (true/false, 1/0 or "true"/"false")', value);
}

export function optBoolean(value: unknown, where: string, fallback: boolean): boolean {
  return value === undefined || value === null ? fallback : boolean(value, where);
}

export function stringArray(value: unknown, where: string): string[] {
  return arrayOf(value, where, string);
}
