/** Small value checks shared by the kind definitions (each returns the broken rule or undefined). */

/** A short rendering of a bad value for a message (never used for secrets). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(value);
  }
}

export function checkBool(value: unknown): string | undefined {
  return value === undefined || typeof value === 'boolean' ? undefined : `must be true or false, not ${describeValue(value)}`;
}

export function checkOptionalString(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return `must be a string, not ${describeValue(value)}`;
  return value.length > max ? `is ${value.length} characters long; at most ${max} are allowed` : undefined;
}

export function checkPackageTypeRef(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return undefined;
  return `must be a package type name (non-empty string) or a positive integer id, not ${describeValue(value)}`;
}

export function checkPositiveInt(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? undefined
    : `must be a positive integer, not ${describeValue(value)}`;
}
