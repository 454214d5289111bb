import http from 'node:http';
import https from 'node:https';
import type { AxiosInstance } from 'axios';
import { Exchange, ExchangeError, ExchangeRequest, ExchangeResponse, plainHeaders } from './exchange';

/**
 * The exchange through axios, for base URLs that a proxy environment variable applies
 * to: axios honours HTTP_PROXY / HTTPS_PROXY / ALL_PROXY / NO_PROXY (see exchange.ts).
 * Loaded only in that case: axios and its dependencies take longer to load than Node
 * itself takes to start.
 */
export class AxiosExchange implements Exchange {
  readonly #http: AxiosInstance;
  readonly #readAgents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  readonly #writeAgents = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

  constructor() {
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    const axios = (require('axios') as typeof import('axios')).default;
    this.#http = axios.create({
      maxRedirects: 0,
      responseType: 'text',
      responseEncoding: 'utf8',
      // We serialise and parse JSON ourselves, so a non-JSON body is a clear shape error.
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
      // Every status is a response to interpret, not an axios error.
      validateStatus: () => true,
      transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
    });
  }

  async send(request: ExchangeRequest): Promise<ExchangeResponse> {
    const agents = request.method === 'GET' ? this.#readAgents : this.#writeAgents;
    // axios' own timeout is a socket idle timer; this guard bounds the whole exchange.
    const controller = new AbortController();
    let deadlinePassed = false;
    const guard = setTimeout(() => {
      deadlinePassed = true;
      controller.abort();
    }, request.timeoutMs);
    // The caller's stop ends it too (ABORT_ERR, below).
    const stop = () => controller.abort();
    if (request.signal?.aborted) stop();
    request.signal?.addEventListener('abort', stop, { once: true });
    try {
      const response = await this.#http.request<string>({
        method: request.method,
        url: request.url,
        data: request.body,
        headers: request.headers,
        timeout: request.timeoutMs,
        maxContentLength: request.maxBodyBytes,
        maxBodyLength: request.maxBodyBytes,
        signal: controller.signal,
        httpAgent: agents.http,
        httpsAgent: agents.https,
      });
      return { status: response.status, headers: plainHeaders(response.headers), text: typeof response.data === 'string' ? response.data : '' };
    } catch (error) {
      // Only the code leaves here: an axios error holds the request config, headers and body.
      const code = (error as { code?: unknown } | null)?.code;
      throw new ExchangeError('axios request failed', deadlinePassed ? 'ETIMEDOUT' : request.signal?.aborted ? 'ABORT_ERR' : typeof code === 'string' ? code : 'ERR_NETWORK');
    } finally {
      request.signal?.removeEventListener('abort', stop);
      clearTimeout(guard);
    }
  }

  close(): void {
    for (const agent of [this.#readAgents.http, this.#readAgents.https, this.#writeAgents.http, this.#writeAgents.https]) agent.destroy();
  }
}
