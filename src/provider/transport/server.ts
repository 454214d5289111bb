import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServerCertificate } from './certificate';
import { GrpcServer, listenGrpc, UnaryMethod } from './grpc';
import { handshakeLine, socketPath } from './handshake';
import type { Logger } from './log';
import { removeStaleSocketDirs } from './stale-sockets';
import { decodeMessage, encodeMessage, MessageDescriptor } from '../wire/protobuf';
import { Empty, RPC, RpcName } from '../wire/messages';
import type { ProviderServer } from '../wire/rpc';

/**
 * One handler per tfplugin6.Provider RPC: a decoded request in, a response object out,
 * typed per RPC (wire/rpc.ts). An RPC without a handler answers UNIMPLEMENTED.
 */
export type ProviderHandlers = Partial<ProviderServer>;

// The wire boundary: the decoder's output is the RPC's request type by construction (wire/rpc.ts checks the fields).
type AnyHandler = (request: any) => Promise<object>;

export interface ServeOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly handlers: ProviderHandlers;
  readonly logger: Logger;
  /** Where the handshake line goes (stdout, which go-plugin reads). */
  readonly writeHandshake: (line: string) => void;
  /** Called once the server has stopped (Shutdown from Terraform): exit the process. */
  readonly onShutdown: () => void;
}

export interface RunningPlugin {
  readonly socket: string;
  readonly shutdown: () => Promise<void>;
  /** Settles when the socket directories left by killed provider processes are removed (stale-sockets.ts). */
  readonly staleSocketDirsRemoved: Promise<string[]>;
}

/** A unary method on the wire: decode the request, run the handler, encode its response; an error names the RPC. */
function unary(
  name: string, request: MessageDescriptor, response: MessageDescriptor, handler: AnyHandler,
): UnaryMethod {
  return async (bytes) => {
    try {
      return encodeMessage(response, (await handler(decodeMessage(request, bytes))) as Record<string, unknown>);
    } catch (err) {
      throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

/**
 * Serves the plugin: tfplugin6.Provider, go-plugin's controller (Shutdown) and the gRPC
 * health check go-plugin's Ping uses, on a Unix socket in a private directory, with
 * mutual TLS when Terraform sent its client certificate (PLUGIN_CLIENT_CERT), over the
 * small unary gRPC server of grpc.ts. Handlers fail as gRPC INTERNAL with their message.
 */
export async function servePlugin(options: ServeOptions): Promise<RunningPlugin> {
  const { env, logger } = options;
  const methods = new Map<string, UnaryMethod>();
  for (const name of Object.keys(RPC) as RpcName[]) {
    const { request, response } = RPC[name];
    const handler = options.handlers[name] as AnyHandler | undefined;
    if (handler) methods.set(`/tfplugin6.Provider/${name}`, unary(name, request, response, handler)); // else UNIMPLEMENTED
  }

  let server: GrpcServer | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    stopping ??= (server ? server.close(2000) : Promise.resolve())
      .then(() => rmSync(dirname(socket), { recursive: true, force: true }))
      .then(options.onShutdown);
    return stopping;
  };
  methods.set('/plugin.GRPCController/Shutdown', unary('Shutdown', Empty, Empty, async () => {
    logger.log('debug', 'shutdown requested by Terraform');
    setImmediate(() => void shutdown());
    return {};
  }));
  // go-plugin's Ping: the gRPC health check, always SERVING.
  const healthRequest: MessageDescriptor = { service: { no: 1, type: 'string' } };
  const healthResponse: MessageDescriptor = { status: { no: 1, type: 'enum' } };
  methods.set('/grpc.health.v1.Health/Check', unary('Check', healthRequest, healthResponse, async () => ({ status: 1 /* SERVING */ })));

  const socket = socketPath(env);
  // However the process ends (Shutdown, or killed by a Terraform that gave up), no socket directory is left behind.
  process.once('exit', () => rmSync(dirname(socket), { recursive: true, force: true }));
  const clientCert = env.PLUGIN_CLIENT_CERT;
  const cert = clientCert ? createServerCertificate() : undefined;
  server = await listenGrpc(socket, {
    methods,
    tls: cert && clientCert ? { keyPem: cert.keyPem, certPem: cert.certPem, clientCertPem: clientCert } : undefined,
    onError: (path, err) => logger.log('error', `${path.slice(path.lastIndexOf('/') + 1)} failed`, { error: err instanceof Error ? err.message : String(err) }),
  });
  options.writeHandshake(handshakeLine(socket, cert?.handshakeField ?? ''));
  logger.log('debug', 'plugin listening', { socket, tls: Boolean(clientCert) });
  const staleSocketDirsRemoved = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => removeStaleSocketDirs(env))
    .then((dirs) => {
      if (dirs.length) logger.log('debug', 'removed socket directories of killed provider processes', { count: dirs.length });
      return dirs;
    }, () => []);
  return { socket, shutdown, staleSocketDirsRemoved };
}
