import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A port-0 HTTP server whose every answer is scripted by the test. It records each
 * request (method, URL, headers, body) and the highest number of requests in flight.
 */

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Return nothing after answering with `res`, or 'hang' (never answer) or 'destroy' (drop the connection). */
export type Script = (req: RecordedRequest, res: http.ServerResponse, n: number) => void | 'hang' | 'destroy' | Promise<void | 'hang' | 'destroy'>;

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Highest number of requests being handled at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function apiError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { message } }, headers);
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startScriptedServer(script: Script, port = 0): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      res.on('finish', finish);
      res.on('close', finish);
      Promise.resolve(script(recorded, res, requests.length)).then(
        (action) => {
          if (action === 'destroy') req.socket.destroy();
          // 'hang': leave the request open until the client gives up or close() runs.
        },
        (err: unknown) => {
          if (!res.headersSent) apiError(res, 500, `script failed: ${String(err)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
