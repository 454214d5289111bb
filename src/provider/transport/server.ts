import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { createServerCertificate } from './certificate';
import { handshakeLine, socketPath } from './handshake';
import type { Logger } from './log';
import { decodeMessage, encodeMessage, MessageDescriptor } from '../wire/protobuf';
import { Empty, RPC, RpcName } from '../wire/messages';
import type { ProviderServer } from '../wire/rpc';

/**
 * One handler per tfplugin6.Provider RPC: a decoded request in, a response object out,
 * typed per RPC (wire/rpc.ts). An RPC without a handler answers UNIMPLEMENTED.
 */
export type ProviderHandlers = Partial<ProviderServer>;

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
}

function method(path: string, request: MessageDescriptor, response: MessageDescriptor): grpc.MethodDefinition<any, any> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: Record<string, unknown>) => encodeMessage(request, value),
    requestDeserialize: (bytes: Buffer) => decodeMessage(request, bytes),
    responseSerialize: (value: Record<string, unknown>) => encodeMessage(response, value),
    responseDeserialize: (bytes: Buffer) => decodeMessage(response, bytes),
  };
}

// The wire boundary: the decoder's output is the RPC's request type by construction (wire/rpc.ts checks the fields).
type AnyHandler = (request: any) => Promise<object>;

function unary(logger: Logger, name: string, handler: AnyHandler): grpc.handleUnaryCall<any, any> {
  return (call, callback) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        logger.log('error', `${name} failed`, { error: message });
        callback({ code: grpc.status.INTERNAL, details: `${name}: ${message}` });
      },
    );
  };
}

/**
 * Serves the plugin: tfplugin6.Provider, go-plugin's controller (Shutdown) and the gRPC
 * health check go-plugin's Ping uses, on a Unix socket in a private directory, with
 * mutual TLS when Terraform sent its client certificate (PLUGIN_CLIENT_CERT).
 */
export async function servePlugin(options: ServeOptions): Promise<RunningPlugin> {
  const { env, logger } = options;
  const server = new grpc.Server({
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
    // Channelz keeps per-call statistics for a debugging service this plugin does not
    // serve; tracking it was about 7% of the provider's CPU in a plan of 3,000 resources.
    'grpc.enable_channelz': 0,
  });

  const providerService: Record<string, grpc.MethodDefinition<any, any>> = {};
  const providerImpl: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(RPC) as RpcName[]) {
    const handler = options.handlers[name] as AnyHandler | undefined;
    if (!handler) continue; // grpc-js answers UNIMPLEMENTED
    providerService[name] = method(`/tfplugin6.Provider/${name}`, RPC[name].request, RPC[name].response);
    providerImpl[name] = unary(logger, name, handler);
  }
  server.addService(providerService, providerImpl);

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    stopping ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.forceShutdown(), 2000);
      timer.unref();
      server.tryShutdown(() => {
        clearTimeout(timer);
        rmSync(dirname(socket), { recursive: true, force: true });
        resolve();
      });
    }).then(options.onShutdown);
    return stopping;
  };

  server.addService(
    { Shutdown: method('/plugin.GRPCController/Shutdown', Empty, Empty) },
    {
      Shutdown: (_call: unknown, callback: grpc.sendUnaryData<Record<string, unknown>>) => {
        logger.log('debug', 'shutdown requested by Terraform');
        callback(null, {});
        setImmediate(() => void shutdown());
      },
    },
  );
  const healthRequest: MessageDescriptor = { service: { no: 1, type: 'string' } };
  const healthResponse: MessageDescriptor = { status: { no: 1, type: 'enum' } };
  server.addService(
    { Check: method('/grpc.health.v1.Health/Check', healthRequest, healthResponse) },
    { Check: (_call: unknown, callback: grpc.sendUnaryData<Record<string, unknown>>) => callback(null, { status: 1 /* SERVING */ }) },
  );

  const socket = socketPath(env);
  // However the process ends (Shutdown, or killed by a Terraform that gave up), no socket directory is left behind.
  process.once('exit', () => rmSync(dirname(socket), { recursive: true, force: true }));
  const clientCert = env.PLUGIN_CLIENT_CERT;
  let certField = '';
  let credentials = grpc.ServerCredentials.createInsecure();
  if (clientCert) {
    const cert = createServerCertificate();
    credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(clientCert),
      [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
      true,
    );
    certField = cert.handshakeField;
  }
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix:${socket}`, credentials, (err) => (err ? reject(err) : resolve()));
  });
  options.writeHandshake(handshakeLine(socket, certField));
  logger.log('debug', 'plugin listening', { socket, tls: Boolean(clientCert) });
  return { socket, shutdown };
}
