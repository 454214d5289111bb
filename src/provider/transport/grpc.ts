import * as http2 from 'node:http2';

/**
 * The least of a gRPC server that go-plugin's client needs, on `node:http2`: unary
 * calls only (every tfplugin6 RPC, go-plugin's controller and health check are unary),
 * no compression (Terraform sends none), on a Unix socket, with or without mutual TLS.
 *
 * Why not grpc-js: it is most of the provider's bundle (slower start, 3 starts per
 * plan) and its per-call machinery (interceptors, metadata, stream wrappers) was the
 * largest share of the plugin's CPU in a no-change plan of 3,000 resources. gRPC over
 * HTTP/2 for unary calls is small: a POST whose body is length-prefixed messages
 * (1 byte "compressed" flag, 4 bytes big-endian length, the message), answered with
 * `content-type: application/grpc`, the framed response and the trailers
 * `grpc-status` / `grpc-message` (see grpc's PROTOCOL-HTTP2.md).
 */

/** gRPC status codes this server answers with. */
export const GrpcStatus = { OK: 0, INTERNAL: 13, UNIMPLEMENTED: 12 } as const;

/** One unary method: the request bytes in, the response bytes out (or a thrown error: INTERNAL). */
export type UnaryMethod = (request: Buffer) => Promise<Buffer>;

export interface GrpcServerOptions {
  /** `/package.Service/Method` -> its handler. Any other path is answered UNIMPLEMENTED. */
  readonly methods: ReadonlyMap<string, UnaryMethod>;
  /** Mutual TLS: the server's key and certificate, and the only client certificate it accepts. */
  readonly tls?: { readonly keyPem: string; readonly certPem: string; readonly clientCertPem: string };
  /** A method failed (its error is also the call's status message). */
  readonly onError: (path: string, err: unknown) => void;
}

export interface GrpcServer {
  /** Stops accepting connections, lets calls in progress finish (at most `graceMs`), then closes every connection. */
  close(graceMs: number): Promise<void>;
}

const GRPC_CONTENT_TYPE = 'application/grpc';
/** HTTP/2 flow-control window and largest frame: the most HTTP/2 allows (2^24 - 1), so a large state is not sent in small steps. */
const WINDOW = (1 << 24) - 1;

/** Percent-encodes a status message as gRPC requires: UTF-8 bytes outside printable ASCII, and `%`. */
export function encodeGrpcMessage(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The messages of a request body (unary: exactly one). Undefined when the framing is broken or compressed. */
export function unframe(body: Buffer): Buffer | undefined {
  if (body.length < 5 || body[0] !== 0) return undefined;
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) return undefined;
  return body.subarray(5);
}

/** One message framed for a gRPC body. */
export function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/** Starts listening on the Unix socket `path`. */
export async function listenGrpc(path: string, options: GrpcServerOptions): Promise<GrpcServer> {
  // Large messages (a plan's state, a big schema): no session memory cap of ours.
  const settings = { maxSessionMemory: 1024, settings: { initialWindowSize: WINDOW, maxFrameSize: WINDOW, maxHeaderListSize: 1 << 20 } };
  const server = options.tls
    ? http2.createSecureServer({
      ...settings,
      key: options.tls.keyPem,
      cert: options.tls.certPem,
      ca: options.tls.clientCertPem,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    })
    : http2.createServer(settings);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => undefined); // a connection Terraform drops: nothing to answer
    // Flow control: open the connection window as wide as the streams' (initialWindowSize).
    session.setLocalWindowSize?.(WINDOW);
  });
  server.on('stream', (stream, headers) => serveStream(stream, headers, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: (graceMs) => new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const s of sessions) s.destroy();
      }, graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      for (const s of sessions) s.close();
    }),
  };
}

function serveStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, options: GrpcServerOptions): void {
  stream.on('error', () => undefined); // the client went away: nothing to answer
  const path = String(headers[':path'] ?? '');
  const method = options.methods.get(path);
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => {
    if (!method) {
      trailersOnly(stream, GrpcStatus.UNIMPLEMENTED, `unknown method ${path}`);
      return;
    }
    const request = unframe(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    if (!request) {
      trailersOnly(stream, GrpcStatus.INTERNAL, `${path}: not one uncompressed gRPC message`);
      return;
    }
    method(request).then(
      (response) => reply(stream, response),
      (err: unknown) => {
        options.onError(path, err);
        trailersOnly(stream, GrpcStatus.INTERNAL, err instanceof Error ? err.message : String(err));
      },
    );
  });
}

// What every successful call answers, made once (Node copies headers it is given). No
// `date` header: gRPC does not use it, and it would be formatted and sent per call.
const OK_HEADERS = { ':status': 200, 'content-type': GRPC_CONTENT_TYPE };
// (`sendDate` is an option of Node's respond() that @types/node leaves out of its type.)
const OK_OPTIONS = { waitForTrailers: true, sendDate: false };
const TRAILERS_ONLY_OPTIONS = { endStream: true, sendDate: false };
const OK_TRAILERS = { 'grpc-status': String(GrpcStatus.OK) };

function sendOkTrailers(this: http2.ServerHttp2Stream): void {
  this.sendTrailers(OK_TRAILERS);
}

function reply(stream: http2.ServerHttp2Stream, response: Buffer): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(OK_HEADERS, OK_OPTIONS);
  stream.once('wantTrailers', sendOkTrailers);
  stream.end(frame(response));
}

/** An answer with no message: the status in the response headers (gRPC's "Trailers-Only"). */
function trailersOnly(stream: http2.ServerHttp2Stream, status: number, message: string): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(
    { ':status': 200, 'content-type': GRPC_CONTENT_TYPE, 'grpc-status': String(status), 'grpc-message': encodeGrpcMessage(message) },
    TRAILERS_ONLY_OPTIONS,
  );
}
