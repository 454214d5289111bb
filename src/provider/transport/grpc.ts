import * as net from 'node:net';
import * as tls from 'node:tls';
import { Connection, Request } from './h2/connection';
import { literalField, STATUS_200 } from './h2/hpack';

/**
 * The least of a gRPC server that go-plugin's client needs: unary calls only (every
 * tfplugin6 RPC, go-plugin's controller and health check are unary), no compression
 * (Terraform sends none), on a Unix socket, with or without mutual TLS, over the
 * HTTP/2 connection of h2/connection.ts.
 *
 * Why not grpc-js: it is most of the provider's bundle (slower start, 3 starts per
 * plan) and its per-call machinery (interceptors, metadata, stream wrappers) was the
 * largest share of the plugin's CPU in a no-change plan of 3,000 resources; why not
 * `node:http2`, see h2/connection.ts. gRPC over
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
  const connections = new Set<Connection>();
  const accept = (socket: net.Socket) => {
    const connection = new Connection(socket, (request, on) => serveCall(request, on, options));
    connections.add(connection);
    socket.on('close', () => connections.delete(connection));
  };
  const server = options.tls
    ? tls.createServer({
      key: options.tls.keyPem,
      cert: options.tls.certPem,
      ca: options.tls.clientCertPem,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
      ALPNProtocols: ['h2'], // Go's gRPC refuses a TLS connection that did not select h2
    }, accept).on('tlsClientError', () => undefined) // a client without Terraform's certificate: refused by TLS, nothing more to do
    : net.createServer(accept);
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
        for (const c of connections) c.destroy();
      }, graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      for (const c of connections) c.close();
    }),
  };
}

function serveCall(call: Request, connection: Connection, options: GrpcServerOptions): void {
  const method = options.methods.get(call.path);
  if (!method) {
    connection.respond(call.streamId, trailersOnly(GrpcStatus.UNIMPLEMENTED, `unknown method ${call.path}`));
    return;
  }
  const request = unframe(call.body);
  if (!request) {
    connection.respond(call.streamId, trailersOnly(GrpcStatus.INTERNAL, `${call.path}: not one uncompressed gRPC message`));
    return;
  }
  method(request).then(
    (response) => connection.respond(call.streamId, OK_HEADERS, { data: frame(response), trailers: OK_TRAILERS }),
    (err: unknown) => {
      options.onError(call.path, err);
      connection.respond(call.streamId, trailersOnly(GrpcStatus.INTERNAL, err instanceof Error ? err.message : String(err)));
    },
  );
}

// What every successful call answers, encoded once. No `date` header: gRPC does not use it.
const CONTENT_TYPE = literalField('content-type', 'application/grpc');
const OK_HEADERS = Buffer.concat([STATUS_200, CONTENT_TYPE]);
const OK_TRAILERS = literalField('grpc-status', String(GrpcStatus.OK));
/** The longest status message sent: an error's first 4 KiB tell what went wrong (the rest is in the provider's log). */
const MAX_MESSAGE = 4096;

/** An answer with no message: the status in the response headers (gRPC's "Trailers-Only"). */
function trailersOnly(status: number, message: string): Buffer {
  return Buffer.concat([
    OK_HEADERS,
    literalField('grpc-status', String(status)),
    literalField('grpc-message', encodeGrpcMessage(message).slice(0, MAX_MESSAGE)),
  ]);
}
