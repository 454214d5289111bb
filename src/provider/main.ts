import type { ProviderModel } from './provider';
import { serveProvider } from './serve';

/**
 * `reseller-hosting provider`: what Terraform runs as the plugin (the bundle's entry,
 * see install.ts); `reseller-hosting provider install` puts it where `terraform init`
 * finds it.
 */
export async function runProviderCli(argv: string[]): Promise<number> {
  if (argv[0] === 'install') return (require('./install') as typeof import('./install')).runInstall(argv.slice(1));
  const { coreModel } = require('./kind-resources') as { coreModel: (env: NodeJS.ProcessEnv) => ProviderModel };
  return serveProvider(coreModel(process.env));
}

/** Entry of the bundle: serves until Terraform shuts the plugin down, then exits. */
export function main(argv: string[]): void {
  runProviderCli(argv).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`reseller provider: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Runs what start-up and the first RPCs run (serving with mutual TLS, the schema, the
 * codecs), so that the code cache the build writes afterwards holds those functions
 * compiled. Used by the build only.
 */
export async function warm(): Promise<void> {
  const { createServerCertificate } = require('./transport/certificate') as typeof import('./transport/certificate');
  const { servePlugin } = require('./transport/server') as typeof import('./transport/server');
  const { providerHandlers } = require('./provider') as typeof import('./provider');
  const { coreModel } = require('./kind-resources') as typeof import('./kind-resources');
  const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = require('./transport/handshake') as typeof import('./transport/handshake');
  const { decodeMessage, encodeMessage } = require('./wire/protobuf') as typeof import('./wire/protobuf');
  const { RPC } = require('./wire/messages') as typeof import('./wire/messages');
  const quiet = { log: () => undefined };
  const env = { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: createServerCertificate().certPem };
  const handlers = providerHandlers(coreModel(env), quiet, env);
  for (const name of ['GetMetadata', 'GetProviderSchema'] as const) {
    const response = await handlers[name]!({});
    decodeMessage(RPC[name].response, encodeMessage(RPC[name].response, response));
  }
  const plugin = await servePlugin({ env, handlers, logger: quiet, writeHandshake: () => undefined, onShutdown: () => undefined });
  await plugin.shutdown();
}
