import type * as http from 'node:http';

/**
 * One HTTP exchange: send a request, collect the whole response as text. The request
 * layer (request.ts) owns everything else: retries, deadlines, error mapping, parsing.
 *
 * Two implementations with the same behaviour:
 * - `NodeExchange` (default): node:http / node:https directly. It loads in a few
 *   milliseconds, which matters because every Terraform provisioner is a new process
 *   (axios and its dependencies took ~200 ms to load: more than Node itself).
 * - `AxiosExchange` (axios-exchange.ts): used when a proxy environment variable applies
 *   to the base URL (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, honouring NO_PROXY), so that
 *   proxied set-ups keep working exactly as they did; loaded only then.
 *
 * Reads reuse connections; writes use a fresh connection each, so that a reset on a
 * stale pooled socket can never turn a write into an "unknown outcome".
 */
export interface ExchangeRequest {
  method: 'GET' | 'POST';
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  /** Serialised body of a POST. */
  body?: string;
  /**
   * Deadline of the whole exchange, in ms (not just socket idle time: a slowly
   * trickled response is cut off too). Missing it rejects with code ETIMEDOUT.
   */
  timeoutMs: number;
  /** Longest response body accepted, in bytes. */
  maxBodyBytes: number;
  /** Ends the exchange at once, rejecting with code ABORT_ERR: a read its caller no longer wants (the provider asked to stop). */
  signal?: AbortSignal;
}

export interface ExchangeResponse {
  status: number;
  /** Header names lowercased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface Exchange {
  /** Resolves with any status; rejects with an error carrying `code` on a network failure. */
  send(request: ExchangeRequest): Promise<ExchangeResponse>;
  /** Frees pooled connections (the exchange stays usable). */
  close(): void;
}

/** An exchange failure with a Node-style `code` (the only fact the request layer copies). */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

type Protocol = 'http:' | 'https:';
type Transport = typeof import('node:http') | typeof import('node:https');

export class NodeExchange implements Exchange {
  // Created on first use: node:https (and TLS) is loaded only for https URLs.
  readonly #agents = new Map<string, http.Agent>();

  send(request: ExchangeRequest): Promise<ExchangeResponse> {
    const url = new URL(request.url);
    const protocol = url.protocol as Protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      return Promise.reject(new ExchangeError(`unsupported protocol ${url.protocol}`, 'ERR_BAD_OPTION_VALUE'));
    }
    const keepAlive = request.method === 'GET';
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    const transport: Transport = protocol === 'https:' ? require('node:https') : require('node:http');
    const headers: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br', 'User-Agent': 'cdktf-reseller-hosting', ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
    return new Promise<ExchangeResponse>((resolve, reject) => {
      let settled = false;
      let deadline: NodeJS.Timeout | undefined;
      const stopped = () => new ExchangeError('the request was stopped', 'ABORT_ERR');
      const onAbort = () => {
        const err = stopped();
        fail(err);
        req.destroy(err);
      };
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        request.signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      // Stopped before it started: nothing goes out.
      if (request.signal?.aborted) return fail(stopped());
      // (A request that cannot even be built throws here, and so rejects: no timer is left.)
      const req = transport.request(url, { method: request.method, headers, agent: this.#agent(protocol, keepAlive, transport) });
      request.signal?.addEventListener('abort', onAbort, { once: true });
      // A timer rather than an AbortSignal: the same effect, without loading the abort
      // machinery into every handler process.
      deadline = setTimeout(() => {
        const err = new ExchangeError(`no complete response within ${request.timeoutMs} ms`, 'ETIMEDOUT');
        fail(err);
        req.destroy(err);
      }, request.timeoutMs);
      req.on('error', fail);
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const responseHeaders = plainHeaders(res.headers);
        const encoding = (responseHeaders['content-encoding'] ?? '').trim().toLowerCase();
        const chunks: Buffer[] = [];
        let size = 0;
        let body: NodeJS.ReadableStream = res;
        if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate' || encoding === 'br') {
          /* eslint-disable-next-line @typescript-eslint/no-require-imports */
          const zlib: typeof import('node:zlib') = require('node:zlib');
          const decoder =
            encoding === 'br'
              ? zlib.createBrotliDecompress()
              : encoding === 'deflate'
                ? zlib.createInflate()
                : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
          decoder.on('error', (err) => {
            res.destroy();
            fail(new ExchangeError(`cannot decode the ${encoding} response body: ${err.message}`, 'ERR_BAD_RESPONSE'));
          });
          body = res.pipe(decoder);
        }
        res.on('error', fail);
        res.on('aborted', () => fail(new ExchangeError('the connection closed before the response ended', 'ECONNRESET')));
        res.on('close', () => {
          if (!res.complete) fail(new ExchangeError('the connection closed before the response ended', 'ECONNRESET'));
        });
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBodyBytes) {
            res.destroy();
            fail(new ExchangeError(`response body larger than ${request.maxBodyBytes} bytes`, 'ERR_BAD_RESPONSE'));
            return;
          }
          chunks.push(chunk);
        });
        body.on('end', () => {
          if (settled) return;
          // A body cut short (the server closed mid-response) is a network failure, not a response.
          if (!res.complete) return fail(new ExchangeError('the connection closed before the response ended', 'ECONNRESET'));
          settled = true;
          clearTimeout(deadline);
          request.signal?.removeEventListener('abort', onAbort);
          resolve({ status, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(request.body);
    });
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }

  #agent(protocol: Protocol, keepAlive: boolean, transport: Transport): http.Agent {
    const key = `${protocol}${keepAlive ? 'keep-alive' : 'fresh'}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent = new transport.Agent({ keepAlive });
      this.#agents.set(key, agent);
    }
    return agent;
  }
}

/** Whether a proxy environment variable applies to `baseUrl` (the rules of proxy-from-env, which axios follows). */
export function proxyApplies(baseUrl: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const get = (key: string) => env[key.toLowerCase()] || env[key.toUpperCase()] || '';
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  const proto = url.protocol.replace(/:$/, '');
  if (!(get(`${proto}_proxy`) || get('all_proxy'))) return false;
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(url.port) || (proto === 'https' ? 443 : 80);
  const noProxy = get('no_proxy').toLowerCase();
  if (!noProxy) return true;
  if (noProxy === '*') return false;
  return noProxy.split(/[,\s]/).every((entry) => {
    if (!entry) return true;
    const m = /^(.+):(\d+)$/.exec(entry);
    let host = m ? m[1] : entry;
    const entryPort = m ? Number(m[2]) : 0;
    if (entryPort && entryPort !== port) return true;
    if (!/^[.*]/.test(host)) return hostname !== host;
    if (host.startsWith('*')) host = host.slice(1);
    return !hostname.endsWith(host);
  });
}

export function plainHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === null || typeof headers !== 'object') return out;
  const source =
    typeof (headers as { toJSON?: unknown }).toJSON === 'function'
      ? ((headers as { toJSON: () => Record<string, unknown> }).toJSON() as Record<string, unknown>)
      : (headers as Record<string, unknown>);
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value === null) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}
