import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Small helpers shared by the emulator's modules. Kept free of state so that every
 * other module can import them without creating cycles.
 */

/** sha256 hex of a UTF-8 string: the only form in which keys and passwords are kept. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests (so a key check leaks no timing). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * ISO 8601 with an explicit offset and no milliseconds ("2024-01-15T09:30:00+00:00"),
 * the form spec 2.2 shows for `createdAt` ("timestamp with offset").
 */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Money is kept in integer cents so that charges never accumulate float error. */
export function centsToAmount(cents: number): number {
  return Math.round(cents) / 100;
}

export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** A plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
