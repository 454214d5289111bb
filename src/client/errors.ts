/**
 * Typed errors of the reseller API client.
 *
 * Every error names the operation (`createMailbox`), the method and the path, and, when
 * the API sent one, its `{"error": {"message"}}` text. An error never carries the API
 * key (raw or base64), the Authorization header, a request body or a password: not in
 * its message, its properties, a `cause`, `util.inspect(error)` or `JSON.stringify(error)`.
 * The request layer copies only the few facts it needs out of a failed HTTP exchange; it
 * never attaches a network error, request options or response to these objects.
 */

export type HttpMethod = 'GET' | 'POST';

/** What every API error knows about the request that failed. */
export interface ApiErrorDetails {
  /** Client operation, e.g. "createMailbox". */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Request path relative to the base URL, e.g. "/package/1000001/email/example.com". */
  readonly path: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** The API's own error text (`{"error": {"message"}}`), when present. */
  readonly apiMessage?: string;
  /** How many HTTP attempts were made (1 when nothing was retried). */
  readonly attempts?: number;
}

/** Base class of every error the client raises about an API call. */
export class ApiError extends Error {
  /** HTTP status of the (last) response; undefined when no response arrived. */
  readonly status: number | undefined;
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The API's `{"error": {"message"}}` text, when the response had one. */
  readonly apiMessage: string | undefined;
  /** Number of HTTP attempts made before giving up. */
  readonly attempts: number;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    // Not enumerable, like Error's own `name`, so it is not repeated by util.inspect.
    Object.defineProperty(this, 'name', { value: new.target.name, writable: true, configurable: true, enumerable: false });
    this.status = details.status;
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
    this.apiMessage = details.apiMessage;
    this.attempts = details.attempts ?? 1;
  }

  /** `JSON.stringify(error)` gives the facts above and the message; nothing else. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      operation: this.operation,
      method: this.method,
      path: this.path,
      apiMessage: this.apiMessage,
      attempts: this.attempts,
    };
  }
}

/** 400: the API rejected the request as invalid (validation failure). */
export class BadRequestError extends ApiError {}
/** 401: the API key is missing, malformed or unknown. */
export class UnauthorizedError extends ApiError {}
/** 402: the account balance is too low for a charging call (ordering a cloud server). */
export class PaymentRequiredError extends ApiError {}
/** 404: unknown object, or unknown route (see `isUnknownRoute`). */
export class NotFoundError extends ApiError {}
/** 409: the object conflicts with an existing one (e.g. a name already on another package). */
export class ConflictError extends ApiError {}

/** 429: rate limited, after the client's own retries were used up. */
export class RateLimitedError extends ApiError {
  /** The delay the API asked for in its last `Retry-After` header, in ms, if any. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, details: ApiErrorDetails & { retryAfterMs?: number }) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

/** 5xx on a read (after retries, where the status is retryable). */
export class ServerError extends ApiError {}

/**
 * No usable response: connection refused or reset, DNS failure, or no answer within
 * the timeout. For a write this is only raised when the request provably never
 * reached the server (connection refused and similar); otherwise see
 * `WriteOutcomeUnknownError`.
 */
export class NetworkError extends ApiError {
  /** True when the request was given up because no answer arrived in time. */
  readonly timedOut: boolean;
  /** Node/axios error code, e.g. "ECONNREFUSED", "ETIMEDOUT". */
  readonly code: string | undefined;
  constructor(message: string, details: ApiErrorDetails & { timedOut: boolean; code?: string }) {
    super(message, details);
    this.timedOut = details.timedOut;
    this.code = details.code;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timedOut: this.timedOut, code: this.code };
  }
}

/** Why the outcome of a write is unknown. */
export type UnknownOutcomeReason = 'timeout' | 'connection-lost' | 'server-error' | 'unreadable-response';

/**
 * A write (POST) whose outcome is unknown: it timed out, the connection dropped after
 * the request was sent, or the server answered 5xx. It was NOT retried, because the
 * API has no idempotency keys: the write may or may not have happened, and the caller
 * must look the object up before trying again.
 */
export class WriteOutcomeUnknownError extends ApiError {
  readonly reason: UnknownOutcomeReason;
  readonly timedOut: boolean;
  readonly code: string | undefined;
  constructor(message: string, details: ApiErrorDetails & { reason: UnknownOutcomeReason; code?: string }) {
    super(message, details);
    this.reason = details.reason;
    this.timedOut = details.reason === 'timeout';
    this.code = details.code;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, timedOut: this.timedOut, code: this.code };
  }
}

/**
 * A successful response whose body is not what the operation expects. The message
 * names the operation and the offending place and type (`listPackages: expected an
 * array, got object`), never a value from the body (a body may echo a password).
 */
export class ResponseShapeError extends ApiError {
  /** What was wrong, e.g. `expected [3].id to be an id (number or digit string), got boolean`. */
  readonly detail: string;
  /** True for writes: the API answered 2xx, so the write probably happened. */
  readonly writeMayHaveHappened: boolean;
  constructor(message: string, details: ApiErrorDetails & { detail: string }) {
    super(message, details);
    this.detail = details.detail;
    this.writeMayHaveHappened = details.method === 'POST';
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), detail: this.detail, writeMayHaveHappened: this.writeMayHaveHappened };
  }
}

/** A look-up by e-mail matched more than one control-panel user. */
export class AmbiguousUserError extends Error {
  readonly email: string;
  readonly refs: readonly string[];
  constructor(email: string, refs: readonly string[]) {
    super(`${refs.length} control-panel users have the e-mail ${email} (${refs.join(', ')}); use a stack-user reference instead`);
    Object.defineProperty(this, 'name', { value: 'AmbiguousUserError', writable: true, configurable: true, enumerable: false });
    this.email = email;
    this.refs = refs;
  }
}

/** `200 OK`, `409 Conflict`, ... */
export function statusText(status: number): string {
  // Required here, not at the top: a handler run that makes no request never loads node:http.
  /* eslint-disable-next-line @typescript-eslint/no-require-imports */
  const text = (require('node:http') as typeof import('node:http')).STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

const WRITE_OUTCOME_ADVICE =
  'The write may or may not have happened; look the object up before trying again.';

/** Builds the typed error for an HTTP error status (the request layer decides retries first). */
export function errorForStatus(details: ApiErrorDetails & { status: number; retryAfterMs?: number }): ApiError {
  const { operation, method, path, status, apiMessage, attempts = 1 } = details;
  const head = `${operation} ${method} ${path}`;
  const what = `${statusText(status)}${apiMessage ? `: ${apiMessage}` : ''}`;
  const tries = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
  if (method === 'POST' && status >= 500) {
    return new WriteOutcomeUnknownError(`${head}: outcome unknown: the server answered ${what}. ${WRITE_OUTCOME_ADVICE}`, {
      ...details,
      reason: 'server-error',
    });
  }
  const message = `${head} failed: ${what}${tries}`;
  switch (status) {
    case 400:
      return new BadRequestError(message, details);
    case 401:
      return new UnauthorizedError(message, details);
    case 402:
      return new PaymentRequiredError(message, details);
    case 404:
      return new NotFoundError(message, details);
    case 409:
      return new ConflictError(message, details);
    case 429:
      return new RateLimitedError(message, details);
    default:
      return status >= 500 ? new ServerError(message, details) : new ApiError(message, details);
  }
}

/** Builds the error for a request that got no usable response. */
export function errorForFailure(
  details: ApiErrorDetails & { code: string | undefined; timedOut: boolean; neverSent: boolean; timeoutMs: number },
): ApiError {
  const { operation, method, path, code, timedOut, neverSent, timeoutMs, attempts = 1 } = details;
  const head = `${operation} ${method} ${path}`;
  const what = timedOut ? `no response within ${timeoutMs} ms (timed out)` : describeFailureCode(code);
  if (method === 'POST' && !neverSent) {
    const reason: UnknownOutcomeReason = timedOut
      ? 'timeout'
      : code === 'ERR_BAD_RESPONSE'
        ? 'unreadable-response'
        : 'connection-lost';
    return new WriteOutcomeUnknownError(`${head}: outcome unknown: ${what}. ${WRITE_OUTCOME_ADVICE}`, {
      ...details,
      reason,
      code,
    });
  }
  const tries = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
  return new NetworkError(`${head} failed: ${what}${tries}`, { ...details, timedOut, code });
}

function describeFailureCode(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'the connection was closed before a response arrived (ECONNRESET)';
    case 'EPIPE':
      return 'the connection was closed while sending (EPIPE)';
    case 'ENOTFOUND':
      return 'host name not found (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'host name look-up failed temporarily (EAI_AGAIN)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `host unreachable (${code})`;
    case 'ERR_BAD_RESPONSE':
      return 'the response could not be read (ERR_BAD_RESPONSE)';
    case undefined:
      return 'network error';
    default:
      return `network error (${code})`;
  }
}

/** True for a 404 that means "no such route" (the API's "No route handler"), not "no such object". */
export function isUnknownRoute(error: unknown): boolean {
  return error instanceof NotFoundError && /no route handler/i.test(error.apiMessage ?? '');
}

/** True for a 404 about a missing object (not an unknown route). */
export function isMissingObject(error: unknown): boolean {
  return error instanceof NotFoundError && !isUnknownRoute(error);
}
