import { inspect } from 'node:util';
import { ApiError, HttpMethod, ResponseShapeError, errorForFailure, errorForStatus } from './errors';
import { Exchange, NodeExchange, proxyApplies } from './exchange';
import { postRejectedWithoutEffect } from './assumptions';
import { Semaphore } from './semaphore';
import { ShapeMismatch, typeOf } from './shape';

/**
 * The request layer: one HTTP exchange per attempt (exchange.ts), bearer auth, a
 * per-request deadline, bounded concurrency, retries with capped exponential backoff and
 * full jitter, error mapping to the typed errors of `errors.ts`, and response-shape checks.
 *
 * Retry policy (see `decideRetry`):
 * - GET: retried on network errors (refused, reset, DNS, timeout) and on 429, 502, 503, 504.
 * - POST: retried ONLY on 429 and on connection errors that prove the request never
 *   reached the server (ECONNREFUSED, DNS look-up failure). A POST whose outcome
 *   is unknown (timeout, connection dropped after sending, any 5xx) is never retried and
 *   raises `WriteOutcomeUnknownError`: the API has no idempotency keys.
 * - Delay before retry n (0-based): `Retry-After` when the response has one (seconds or an
 *   HTTP date, capped at `maxRetryAfterMs`), else random(0, min(maxRetryDelayMs, base * 2^n)).
 * - At most `maxRetries` retries (so `maxRetries + 1` attempts).
 */

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  maxConcurrency: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  maxRetryAfterMs: number;
  /** One line per attempt, and the same facts as fields (no body, no header, no key). */
  log?: (line: string, attempt?: AttemptRecord) => void;
  /** The User-Agent header: who is calling the API (default `cdktf-reseller-hosting`). */
  userAgent?: string;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  /** Ends reads in flight at once when aborted; a write in flight is left to finish, so that its outcome is known. */
  stop?: AbortSignal;
}

/** One HTTP attempt, as logged: never a body, a header or the key. */
export interface AttemptRecord {
  readonly method: HttpMethod;
  readonly path: string;
  /** The HTTP status, or the failure (`timeout`, `ECONNREFUSED`, ...). */
  readonly status: number | string;
  readonly durationMs: number;
  /** 1 for the first attempt. */
  readonly attempt: number;
}

/** What a response parser may look at besides the body. */
export interface ResponseInfo {
  status: number;
  /** Response headers, names lowercased. */
  headers: Readonly<Record<string, string>>;
}

export interface CallSpec<T> {
  /** Client operation name used in errors and shape messages, e.g. "createMailbox". */
  operation: string;
  method: HttpMethod;
  /** Path relative to the base URL, segments already encoded. Must not hold secrets. */
  path: string;
  /** JSON body of a POST. Never logged, never copied into an error. */
  body?: unknown;
  /**
   * Checks and converts the body: the bare JSON of a GET, the unwrapped `result` of a
   * POST. Throws `ShapeMismatch` (see shape.ts) on a surprise.
   */
  parse: (data: unknown, response: ResponseInfo) => T;
  /** Strings to blank out of the API's error text (e.g. a password the body carried). */
  secrets?: readonly string[];
}

/**
 * Codes of failures that prove the request never reached the server: the connection
 * was refused, or the host name did not resolve. (Writes use a fresh connection each,
 * so a refusal cannot come from a reused socket.) Unreachable-host errors are not
 * listed: they are rare enough that treating them as "unknown outcome" costs little.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
/** Codes of local misconfiguration: nothing was sent, and retrying cannot help. */
const CONFIG_ERRORS = new Set(['ERR_INVALID_URL', 'ERR_BAD_OPTION', 'ERR_BAD_OPTION_VALUE', 'ERR_NOT_SUPPORT', 'ERR_DEPRECATED']);
/** Statuses on which a GET is retried. */
const RETRYABLE_GET_STATUS = new Set([429, 502, 503, 504]);
const MAX_API_MESSAGE = 500;
const MAX_BODY_BYTES = 32 * 1024 * 1024;

type Outcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; text: string; ms: number }
  | { kind: 'failure'; code: string | undefined; timedOut: boolean; ms: number };

/** Transport shared by the noun modules. Holds the key privately; inspecting it shows no secret. */
export class Transport {
  readonly #options: TransportOptions;
  readonly #exchange: Exchange;
  readonly #authorization: string;
  readonly #redact: readonly string[];
  readonly #semaphore: Semaphore;

  constructor(options: TransportOptions) {
    this.#options = options;
    const token = Buffer.from(options.apiKey, 'utf8').toString('base64');
    this.#authorization = `Bearer ${token}`;
    // Everything that must never appear in an error text or a log line.
    this.#redact = [options.apiKey, token, Buffer.from(`${options.apiKey}\n`, 'utf8').toString('base64')];
    this.#semaphore = new Semaphore(options.maxConcurrency);
    // Reads reuse connections; writes use a fresh connection each (see exchange.ts).
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    this.#exchange = proxyApplies(options.baseUrl) ? new (require('./axios-exchange') as typeof import('./axios-exchange')).AxiosExchange() : new NodeExchange();
  }

  /** Requests in flight right now (for tests and diagnostics). */
  get inFlight(): number {
    return this.#semaphore.active;
  }

  /** Frees pooled connections. The transport still works afterwards (new connections). */
  close(): void {
    this.#exchange.close();
  }

  [inspect.custom](): string {
    return `Transport { baseUrl: ${JSON.stringify(redactUrl(this.#options.baseUrl))} }`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: redactUrl(this.#options.baseUrl) };
  }

  /** Performs one API operation, with retries, and returns the parsed result. */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    const { operation, method, path } = spec;
    const maxAttempts = this.#options.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(spec);
      const label = outcome.kind === 'response' ? String(outcome.status) : outcome.timedOut ? 'timeout' : (outcome.code ?? 'network error');
      const is2xx = outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
      const retryAfterMs = outcome.kind === 'response' ? parseRetryAfter(outcome.headers['retry-after'], this.#options.now()) : undefined;
      const retryable = !is2xx && decideRetry(method, outcome);
      let delay: number | undefined;
      if (retryable && attempt < maxAttempts) {
        delay =
          retryAfterMs !== undefined
            ? Math.min(retryAfterMs, this.#options.maxRetryAfterMs)
            : backoffDelay(attempt - 1, this.#options.retryBaseDelayMs, this.#options.maxRetryDelayMs, this.#options.random);
      }
      this.#log(
        `${method} ${path} -> ${label} (${Math.round(outcome.ms)} ms)` +
          (delay !== undefined ? `; retry ${attempt} of ${this.#options.maxRetries} in ${Math.round(delay)} ms` : ''),
        { method, path, status: outcome.kind === 'response' ? outcome.status : label, durationMs: Math.round(outcome.ms), attempt },
      );
      if (delay !== undefined) {
        await this.#options.sleep(delay);
        continue;
      }

      if (outcome.kind === 'failure') {
        throw errorForFailure({
          operation,
          method,
          path,
          attempts: attempt,
          code: outcome.code,
          timedOut: outcome.timedOut,
          neverSent: outcome.code !== undefined && (NEVER_SENT.has(outcome.code) || CONFIG_ERRORS.has(outcome.code)),
          timeoutMs: this.#options.timeoutMs,
        });
      }
      if (!is2xx) {
        throw errorForStatus({
          operation,
          method,
          path,
          status: outcome.status,
          attempts: attempt,
          apiMessage: this.#apiMessage(outcome.text, spec.secrets),
          retryAfterMs,
        });
      }
      return this.#parse(spec, outcome.status, outcome.headers, outcome.text);
    }
  }

  async #attempt(spec: CallSpec<unknown>): Promise<Outcome> {
    const release = await this.#semaphore.acquire();
    const started = performance.now();
    try {
      const response = await this.#exchange.send({
        method: spec.method,
        url: `${this.#options.baseUrl}${spec.path}`,
        body: spec.method === 'POST' ? JSON.stringify(spec.body ?? {}) : undefined,
        headers: {
          Authorization: this.#authorization,
          Accept: 'application/json',
          ...(this.#options.userAgent ? { 'User-Agent': this.#options.userAgent } : {}),
          ...(spec.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        },
        // Bounds the whole exchange, not just idle time (see exchange.ts).
        timeoutMs: this.#options.timeoutMs,
        maxBodyBytes: MAX_BODY_BYTES,
        ...(spec.method === 'GET' && this.#options.stop ? { signal: this.#options.stop } : {}),
      });
      return { kind: 'response', status: response.status, headers: response.headers, text: response.text, ms: performance.now() - started };
    } catch (error) {
      // Copy only the code: a network error may hold request options, headers and body.
      const code = errorCode(error);
      const timedOut = code === 'ETIMEDOUT' || code === 'ECONNABORTED';
      return { kind: 'failure', code: timedOut ? 'ETIMEDOUT' : code, timedOut, ms: performance.now() - started };
    } finally {
      release();
    }
  }

  #parse<T>(spec: CallSpec<T>, status: number, headers: Record<string, string>, text: string): T {
    const { operation, method, path } = spec;
    const shapeError = (detail: string) =>
      new ResponseShapeError(
        `${operation}: ${detail} (${method} ${path} -> ${status})` +
          (method === 'POST' ? '; the write probably happened: look the object up before trying again' : ''),
        { operation, method, path, status, detail },
      );
    let data: unknown;
    if (text.trim() === '') throw shapeError('expected a JSON body, got an empty body');
    try {
      data = JSON.parse(text);
    } catch {
      throw shapeError(`expected a JSON body, got ${headers['content-type'] ? `"${headers['content-type'].split(';')[0]}"` : 'non-JSON'} text`);
    }
    if (method === 'POST') {
      // POST responses are wrapped: {"result": X}.
      if (data === null || typeof data !== 'object' || Array.isArray(data) || !('result' in data)) {
        throw shapeError(`expected an object with a "result" member, got ${typeOf(data)}`);
      }
      data = (data as { result: unknown }).result;
    }
    try {
      return spec.parse(data, { status, headers });
    } catch (error) {
      if (error instanceof ShapeMismatch) throw shapeError(error.detail);
      if (error instanceof ApiError) throw error;
      throw shapeError(`unexpected response (${error instanceof Error ? error.name : 'error'})`);
    }
  }

  /** The API's `{"error": {"message"}}` text, trimmed, with every secret blanked out. */
  #apiMessage(text: string, secrets: readonly string[] = []): string | undefined {
    let message: string | undefined;
    try {
      const body = JSON.parse(text) as unknown;
      const error = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
      if (typeof error === 'string') message = error;
      else if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
        message = (error as { message: string }).message;
      }
    } catch {
      return undefined;
    }
    if (message === undefined) return undefined;
    // Also the JSON-escaped form, in case the API echoes part of the request body.
    const all = [...this.#redact, ...secrets].flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
    message = redact(message, all).replace(/\s+/g, ' ').trim();
    return message.length > MAX_API_MESSAGE ? `${message.slice(0, MAX_API_MESSAGE)}…` : message || undefined;
  }

  #log(line: string, record: AttemptRecord): void {
    if (!this.#options.log) return;
    try {
      this.#options.log(redact(line, this.#redact), { ...record, path: redact(record.path, this.#redact) });
    } catch {
      // A failing logger must not fail the request.
    }
  }
}

/** Whether a failed attempt may be repeated: see the policy at the top of this file. */
function decideRetry(method: HttpMethod, outcome: Outcome): boolean {
  if (outcome.kind === 'response') {
    if (method === 'GET') return RETRYABLE_GET_STATUS.has(outcome.status);
    return postRejectedWithoutEffect(outcome.status);
  }
  const code = outcome.code;
  if (code !== undefined && CONFIG_ERRORS.has(code)) return false;
  if (method === 'GET') return true;
  return code !== undefined && NEVER_SENT.has(code);
}

/** Full jitter: random(0, min(cap, base * 2^retryIndex)). */
export function backoffDelay(retryIndex: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** retryIndex);
  return Math.max(0, Math.min(ceiling, random() * ceiling));
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== null && typeof cause === 'object' && typeof (cause as { code?: unknown }).code === 'string') {
    return (cause as { code: string }).code;
  }
  return undefined;
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out;
}

/** A base URL for display: user-info (`user:pass@`), query and fragment removed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

/** What every noun module works with: the transport and the `/reseller/{id}` path prefix. */
export interface ApiContext {
  readonly transport: Transport;
  /** `/reseller/<encoded reseller id>`, e.g. `/reseller/*`. */
  readonly resellerPath: string;
}
