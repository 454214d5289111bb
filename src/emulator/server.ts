import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ApiError, errorBody, noRoute, notFound, payloadTooLarge, unauthorized, forbidden } from './errors';
import { authenticate, keyDigest } from './auth';
import { BodyReadError, MAX_BODY_BYTES, parseBody, readBody, RawBody } from './body';
import { controlRouter, isLoopback, isLoopbackHost } from './control';
import { ApiContext, ControlContext, ControlTarget } from './context';
import { Faults, FaultRule } from './faults';
import { RequestLog, RequestLogEntry } from './request-log';
import { Reply, Router } from './router';
import { addApiRoutes } from './nouns';
import { Store } from './backend/store';
import { State } from './backend/model';
import { setDefaultKey } from './backend/accounts';
import { freshState } from './fixtures';
import { DataFile } from './persistence';
import { dumpState, EmulatorStateDump } from './snapshot';
import { matchPage, servePage } from './page';
import { EmulatorProfile } from './profile';

/**
 * The HTTP server and the request pipeline. For an API request:
 *
 *   read body (async) -> injected latency (async) -> everything else synchronously:
 *   injected status / 413 / 401 / route / reseller id / body parse / handler (a write
 *   runs in a store transaction, saved before the reply) -> reply, or drop the socket.
 *
 * GET / and GET /accounts/{id} are the control-panel page (src/emulator/page), served
 * before any of this, like the control API under /__emulator/.
 *
 * Nothing awaits after the state is first read, so concurrent requests cannot lose
 * each other's writes. Every error becomes a JSON error reply; an unexpected exception
 * is logged and answered 500 as a last resort (there should be none).
 */

export interface ServerConfig {
  host: string;
  port: number;
  apiKey: string;
  provisionDelayMs: number;
  /** Which fields and behaviours the API answers with (see profile.ts). */
  profile: EmulatorProfile;
  dataFile: string | undefined;
  quiet: boolean;
  /** Where request lines and internal errors are written (default: stderr). */
  log: (line: string) => void;
}

const CONTROL_PREFIX = '/__emulator';

export class EmulatorServer implements ControlTarget {
  readonly store: Store;
  readonly faults = new Faults();
  readonly requestLog = new RequestLog();
  provisionDelayMs: number;

  private readonly http: http.Server;
  /** The reseller API: every registered noun's routes (nouns/index.ts). */
  private readonly api: Router<ApiContext> = new Router<ApiContext>();
  private readonly control: Router<ControlContext> = controlRouter();
  private readonly dataFile: DataFile | null;
  private readonly keySha256: string;
  private readonly pendingSleeps = new Set<() => void>();
  private stopping: Promise<void> | null = null;

  /** Loads (or creates) the state; throws EmulatorDataError for an unusable data file. */
  constructor(private readonly config: ServerConfig) {
    addApiRoutes(this.api);
    this.provisionDelayMs = config.provisionDelayMs;
    this.keySha256 = keyDigest(config.apiKey);
    this.dataFile = config.dataFile ? new DataFile(config.dataFile) : null;
    let initial: State;
    if (this.dataFile) {
      this.dataFile.lock();
      try {
        initial = this.dataFile.load() ?? freshState(this.keySha256);
        // The configured key always opens the default account (also after a key change).
        setDefaultKey(initial, this.keySha256);
        this.dataFile.save(initial);
      } catch (err) {
        this.dataFile.unlock();
        throw err;
      }
    } else {
      initial = freshState(this.keySha256);
    }
    this.store = new Store(initial, this.dataFile);
    this.http = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.internalError(res, err));
    });
    // Malformed HTTP never reaches a handler: answer 400 and close.
    this.http.on('clientError', (_err, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => {
        this.dataFile?.unlock();
        reject(new Error(`cannot listen on ${this.config.host}:${this.config.port}: ${err.message}`));
      };
      this.http.once('error', onError);
      this.http.listen(this.config.port, this.config.host, () => {
        this.http.off('error', onError);
        resolve((this.http.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting, cuts open connections (keep-alive ones too), releases the data file. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = new Promise<void>((resolve) => {
        this.wakeSleepers();
        this.http.close(() => resolve());
        this.http.closeAllConnections();
      }).finally(() => this.dataFile?.unlock());
    }
    return this.stopping;
  }

  /**
   * Removes every fault rule and wakes the requests a latency fault is holding: they are
   * performed before the control API answers (handleControl), so a harness that clears
   * faults (after killing a client mid-request, say) then sees every write the server received.
   */
  clearFaults(): number {
    this.faults.clear();
    return this.wakeSleepers();
  }

  /** Ends every latency wait now (each wake removes itself from the set); returns how many there were. */
  private wakeSleepers(): number {
    const count = this.pendingSleeps.size;
    for (const wake of this.pendingSleeps) wake();
    return count;
  }

  reset(): void {
    this.store.replace(freshState(this.keySha256));
    this.faults.clear();
    this.requestLog.clear();
  }

  snapshot(): EmulatorStateDump {
    return dumpState(this.store.state, Date.now(), this.provisionDelayMs);
  }

  // -------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const query = rawUrl.indexOf('?');
    const pathname = query < 0 ? rawUrl : rawUrl.slice(0, query);

    if (pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      return this.handleControl(req, res, method, pathname, new URLSearchParams(query < 0 ? '' : rawUrl.slice(query + 1)));
    }
    // The read-only control-panel page (GET / and /accounts/{id}, loopback only): not an API request.
    const page = matchPage(method, pathname);
    if (page) {
      if (this.stopping) {
        res.destroy();
        return;
      }
      return servePage(req, res, page, () => this.snapshot());
    }

    const entry: RequestLogEntry = {
      time: new Date().toISOString(),
      method,
      path: pathname,
      status: 0,
      durationMs: 0,
      requestBytes: 0,
      responseBytes: 0,
      account: null,
      fault: null,
    };
    const finish = (status: number, responseBytes: number) => {
      entry.status = status;
      entry.responseBytes = responseBytes;
      entry.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      this.requestLog.add(entry);
      if (!this.config.quiet) {
        const fault = entry.fault ? ` [fault: ${entry.fault}]` : '';
        this.config.log(`${method} ${pathname} ${status} ${entry.durationMs.toFixed(1)}ms${fault}`);
      }
    };

    let raw: RawBody;
    try {
      raw = await readBody(req);
    } catch (err) {
      // Aborted by the client (logged 499), or far over the size limit (413): nobody to answer.
      res.destroy();
      return finish(err instanceof BodyReadError ? err.status : 499, 0);
    }
    entry.requestBytes = raw.bytes;

    const fault = this.faults.pick(method, pathname);
    if (fault) entry.fault = fault.status !== undefined ? 'status' : fault.dropAfterCommit ? 'drop' : 'latency';
    if (fault?.latencyMs) await this.sleep(fault.latencyMs);
    if (this.stopping) {
      res.destroy();
      return;
    }

    // ---- synchronous from here: read state, change it, save it, in one turn ----
    const reply = this.dispatchApi(req, method, pathname, raw, fault, entry);
    if (fault?.dropAfterCommit) {
      // The request was performed (and saved); the client never hears about it.
      req.socket.destroy();
      return finish(reply.status, 0);
    }
    const bytes = this.send(res, reply);
    finish(reply.status, bytes);
  }

  private dispatchApi(
    req: http.IncomingMessage,
    method: string,
    pathname: string,
    raw: RawBody,
    fault: FaultRule | undefined,
    entry: RequestLogEntry,
  ): Reply {
    try {
      const auth = authenticate(this.store.state, req.headers.authorization);
      entry.account = auth.account ? auth.account.id : null;
      if (fault?.status !== undefined) {
        const headers: Record<string, string> = {};
        if (fault.retryAfterS !== undefined) headers['Retry-After'] = String(fault.retryAfterS);
        return { status: fault.status, body: errorBody(`injected fault: status ${fault.status}`), headers };
      }
      if (raw.data === null) throw payloadTooLarge(MAX_BODY_BYTES);
      if (!auth.account) throw unauthorized(auth.message);
      const match = this.api.match(method, pathname);
      if (!match) throw noRoute(method, pathname);
      const reseller = match.params.reseller;
      if (reseller !== undefined && reseller !== '*' && reseller !== String(auth.account.id)) {
        throw notFound(`reseller ${reseller} not found`);
      }
      const { value, form } = parseBody(raw.data, req.headers['content-type']);
      const accountId = auth.account.id;
      const run = (state: State) => {
        // The account object of the state being changed (same object outside a rollback).
        const account = state.accounts.find((a) => a.id === accountId);
        if (!account) throw unauthorized('invalid API key');
        const ctx: ApiContext = {
          state,
          account,
          params: match.params,
          body: value,
          form,
          nowMs: Date.now(),
          provisionDelayMs: this.provisionDelayMs,
          profile: this.config.profile,
          tolerate: (name) => {
            if (!entry.tolerated?.includes(name)) entry.tolerated = [...(entry.tolerated ?? []), name];
          },
        };
        return match.handler(ctx);
      };
      return method === 'GET' ? run(this.store.state) : this.store.transact(run);
    } catch (err) {
      return this.errorReply(err);
    }
  }

  private async handleControl(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    method: string,
    pathname: string,
    query: URLSearchParams,
  ): Promise<void> {
    let raw: RawBody;
    try {
      raw = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    if (this.stopping) {
      res.destroy();
      return;
    }
    let reply: Reply;
    try {
      if (!isLoopback(req.socket.remoteAddress)) throw forbidden('the control API answers loopback clients only');
      if (!isLoopbackHost(req.headers.host)) throw forbidden('the control API answers requests addressed to a loopback name only (Host: localhost or 127.0.0.1)');
      if (raw.data === null) throw payloadTooLarge(MAX_BODY_BYTES);
      const match = this.control.match(method, pathname);
      if (!match) throw noRoute(method, pathname);
      const { value } = parseBody(raw.data, req.headers['content-type']);
      reply = match.handler({ emu: this, body: value, query, params: match.params });
    } catch (err) {
      reply = this.errorReply(err);
    }
    // What the call set in motion (requests clearFaults released) happens before its answer.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.send(res, reply);
  }

  private errorReply(err: unknown): Reply {
    if (err instanceof ApiError) return { status: err.status, body: errorBody(err.message), headers: { ...err.headers } };
    this.config.log(`emulator: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    return { status: 500, body: errorBody('internal emulator error (see the emulator log)') };
  }

  /** Writes a JSON reply; returns the body's size in bytes. */
  private send(res: http.ServerResponse, reply: Reply): number {
    const text = JSON.stringify(reply.body);
    const bytes = Buffer.byteLength(text);
    if (res.headersSent || res.destroyed) return 0;
    res.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(bytes),
      ...reply.headers,
    });
    res.end(text);
    return bytes;
  }

  private internalError(res: http.ServerResponse, err: unknown): void {
    try {
      this.send(res, this.errorReply(err));
    } catch {
      res.destroy();
    }
  }

  /** A delay that ends early when the server stops (so stop() never waits on it) or its faults are cleared. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pendingSleeps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pendingSleeps.add(wake);
    });
  }
}
