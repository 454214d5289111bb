/**
 * The API's error model (api-notes "Conventions"): every error is answered with
 * `{"error": {"message": "..."}}` and a status. Handlers throw ApiError; the server
 * turns it into a response, so no handler writes to the socket itself.
 *
 * Statuses the notes mark as documented live here; the two that are only assumed
 * (400 for validation, 409 for conflicts) live in assumed.ts, and each noun's own
 * in nouns/<noun>/assumed.ts.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error: { message: string };
}

export function errorBody(message: string): ErrorBody {
  return { error: { message } };
}

/** 401: bad or missing key (docs). */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, message);
}

/** 402: not enough account balance for a charging call (docs). */
export function paymentRequired(message: string): ApiError {
  return new ApiError(402, message);
}

/** 404: unknown object, or an object of another account (which must look the same). */
export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}

/** 404 for an unknown route or method, with the documented "No route handler" text. */
export function noRoute(method: string, path: string): ApiError {
  return new ApiError(404, `No route handler for ${method} ${path}`);
}

/** 413: request body over the size limit (emulator choice: 1 MiB). */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(413, `request body is larger than ${limit} bytes`);
}

/** 403: control API called from a non-loopback address. */
export function forbidden(message: string): ApiError {
  return new ApiError(403, message);
}
