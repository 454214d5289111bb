import { validationError } from './assumed';
import { isPlainObject } from './util';
import { canonicalDomain, checkDomainName } from '../protocol/names';

/**
 * Field validators for request bodies. Each takes the value and the field's path in
 * the body (e.g. "new.mailbox.send") and either returns the typed value or throws a
 * validation error whose message names the field, so a client sees exactly what was
 * wrong. Fields a route does not know are ignored, like the PHP API does.
 */

export function expectObject(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw validationError(`${path} must be an object`);
  return value;
}

/** The request body of a route that needs one: a JSON (or form) object. */
export function expectBody(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw validationError('request body must be a JSON object');
  return value;
}

export function expectString(value: unknown, path: string, opts: { min?: number; max?: number } = {}): string {
  if (typeof value !== 'string') throw validationError(`${path} must be a string`);
  const { min = 0, max = Infinity } = opts;
  if (value.length < min) throw validationError(min === 1 ? `${path} must not be empty` : `${path} must be at least ${min} characters`);
  if (value.length > max) throw validationError(`${path} must be at most ${max} characters`);
  return value;
}

/**
 * An optional text field as PHP clients send it: a string, or a number (PHP sends
 * numbers for strings freely; 20i's own live test sends one as `person_name`), which
 * becomes its decimal text. Missing or null -> undefined.
 */
export function readText(value: unknown, path: string, opts: { max?: number } = {}): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return expectString(text, path, opts);
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw validationError(`${path} must be an array`);
  return value;
}

/**
 * A boolean. Form-encoded bodies carry only strings, so there (and only there)
 * "true"/"false"/"1"/"0" are accepted too.
 */
export function expectBoolean(value: unknown, path: string, form: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (form && typeof value === 'string') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  throw validationError(`${path} must be a boolean`);
}

/**
 * A numeric id given as a JSON number or a string of digits (api-notes: ids are
 * numbers in real output but strings in some docs; accept both, normalise).
 */
export function parseId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) return Number(value);
  return undefined;
}

export function expectId(value: unknown, path: string): number {
  const id = parseId(value);
  if (id === undefined) throw validationError(`${path} must be a numeric id (number or string of digits)`);
  return id;
}

/** A domain name, returned in canonical form (lowercase, IDNA). */
export function expectDomain(value: unknown, path: string): string {
  const problem = checkDomainName(value);
  if (problem) throw validationError(`${path}: ${problem}`);
  return canonicalDomain(value as string);
}

/** An array of domain names, canonical and distinct. */
export function expectDomainList(value: unknown, path: string): string[] {
  const out: string[] = [];
  expectArray(value, path).forEach((item, i) => {
    const name = expectDomain(item, `${path}[${i}]`);
    if (out.includes(name)) throw validationError(`${path}[${i}]: "${name}" is listed twice`);
    out.push(name);
  });
  return out;
}

/** `stack-user:<digits>` -> the numeric id. */
export function expectUserRef(value: unknown, path: string): number {
  if (typeof value !== 'string' || !/^stack-user:[0-9]{1,15}$/.test(value)) {
    throw validationError(`${path} must look like "stack-user:<number>"`);
  }
  return Number(value.slice('stack-user:'.length));
}
