import { STACK_USER_REF } from '../protocol/names';

/**
 * Checks and normalises ids and names the caller passes in, before anything is sent.
 * A bad argument is a programming error: it throws a TypeError naming the operation.
 */

/** A package, package-type or cloud server id given as a number or a digit string. */
export function toId(value: string | number, operation: string, what: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value.trim())) return Number(value.trim());
  throw new TypeError(`${operation}: ${what} must be a non-negative integer or a string of digits, got ${describeArg(value)}`);
}

/**
 * A `/package/{…}` path segment: the package id, or one of its domain names (the API
 * accepts either in the path).
 */
export function packageSegment(ref: string | number, operation: string): string {
  if (typeof ref === 'number' || /^[0-9]+$/.test(String(ref).trim())) return String(toId(ref, operation, 'package id'));
  return pathSegment(ref, operation, 'package id or domain');
}

/** One non-empty path segment, percent-encoded. */
export function pathSegment(value: string, operation: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value !== value.trim()) {
    throw new TypeError(`${operation}: ${what} must be a non-empty string without surrounding spaces, got ${describeArg(value)}`);
  }
  return encodeURIComponent(value);
}

/** A control-panel user identifier `stack-user:<n>`. */
export function toUserRef(ref: string, operation: string): string {
  if (typeof ref !== 'string' || !STACK_USER_REF.test(ref)) {
    throw new TypeError(`${operation}: user must look like "stack-user:<number>", got ${describeArg(ref)}`);
  }
  return ref;
}

export function nonEmptyString(value: unknown, operation: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${operation}: ${what} must be a non-empty string, got ${describeArg(value)}`);
  }
  return value;
}

export function stringList(value: unknown, operation: string, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new TypeError(`${operation}: ${what} must be an array of non-empty strings`);
  }
  return [...value];
}

export function booleanArg(value: unknown, operation: string, what: string): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${operation}: ${what} must be a boolean, got ${describeArg(value)}`);
  return value;
}

/** Short description of a bad argument for a message (never used for passwords). */
function describeArg(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
