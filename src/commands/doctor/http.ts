/**
 * The doctor's own read of the API: raw GETs that return the status, the headers and
 * the parsed body as the service sent them, so that live shapes can be compared with
 * what the client assumes (the typed client normalises them away). Reads only: this
 * module has no way to send anything but GET.
 *
 * The key travels as the client sends it (`Authorization: Bearer base64(key)`); it is
 * never part of a result or an error message.
 */

export interface RawAnswer {
  readonly status: number;
  /** Lowercased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when it was not JSON. */
  readonly body: unknown;
}

export interface RawReader {
  /** GET `path` with the key (or without one: `auth: false`). Throws `Unreachable` when no HTTP answer arrives. */
  get(path: string, options?: { readonly auth?: boolean }): Promise<RawAnswer>;
}

/** No HTTP answer: refused, unknown host, timeout. The message names the cause, never the key. */
export class Unreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Unreachable';
  }
}

/** The bearer token the service expects: the general API key, base64-encoded. */
export function bearerOf(apiKey: string): string {
  return `Bearer ${Buffer.from(apiKey, 'utf8').toString('base64')}`;
}

export function rawReader(baseUrl: string, apiKey: string | undefined, timeoutMs = 15_000): RawReader {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async get(path, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.auth !== false && apiKey) headers.authorization = bearerOf(apiKey);
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, { method: 'GET', headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        throw new Unreachable(causeOf(err));
      }
      const text = await response.text().catch(() => '');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        out[name.toLowerCase()] = value;
      });
      return { status: response.status, headers: out, body };
    },
  };
}

/** fetch wraps the network error in `cause`: name the code (ECONNREFUSED, ENOTFOUND) or the timeout. */
function causeOf(err: unknown): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') return 'no answer within the time limit';
  const cause = error?.cause;
  if (cause?.code) return cause.code;
  return cause?.message ?? error?.message ?? String(err);
}
