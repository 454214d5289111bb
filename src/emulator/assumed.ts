import { ApiError } from './errors';

/**
 * The assumed behaviours every API noun shares: the error statuses of a failed
 * validation and of a uniqueness clash. The behaviours of one noun live in its own
 * `nouns/<noun>/assumed.ts`, one function each, so a correction is a one-place change.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/** ASSUMED (api-notes "Conventions"): a request that fails validation is answered 400. */
export function validationError(message: string): ApiError {
  return new ApiError(400, message);
}

/**
 * ASSUMED (api-notes "Conventions", "Packages"): a domain name already on another
 * package is 409 and the message names the `ConflictingObject` error class. The
 * emulator uses the same answer for other uniqueness clashes (host names, e-mails).
 */
export function conflictingObjectError(message: string): ApiError {
  return new ApiError(409, `ConflictingObject: ${message}`);
}
