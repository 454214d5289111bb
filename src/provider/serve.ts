import { withMarkdownDescriptions } from './markdown-descriptions';
import { providerHandlers, ProviderModel } from './provider';
import { NOT_A_PLUGIN_MESSAGE, offersProtocol, startedByTerraform } from './transport/handshake';
import { Logger, stderrLogger } from './transport/log';
import { servePlugin } from './transport/server';

/**
 * Runs the provider as Terraform's plugin until Terraform shuts it down. Without the
 * magic cookie (someone ran it by hand) it prints what it is and returns 1.
 */
export async function serveProvider(model: ProviderModel, env: NodeJS.ProcessEnv = process.env, logger: Logger = stderrLogger()): Promise<number> {
  if (!startedByTerraform(env)) {
    process.stderr.write(NOT_A_PLUGIN_MESSAGE);
    return 1;
  }
  if (!offersProtocol(env)) {
    // Also on stdout: Terraform shows a plugin's first line there when the handshake fails.
    const line = `This provider speaks plugin protocol 6; this Terraform offers ${env.PLUGIN_PROTOCOL_VERSIONS}. Use Terraform >= 1.11.\n`;
    process.stdout.write(line);
    process.stderr.write(line);
    return 1;
  }
  // Ctrl-C reaches the whole process group: Terraform answers it with StopProvider and
  // Shutdown, so the plugin must not die on the signal itself.
  process.on('SIGINT', () => logger.log('debug', 'interrupt received; waiting for Terraform to stop the provider'));
  return new Promise<number>((resolve, reject) => {
    servePlugin({
      env,
      handlers: withMarkdownDescriptions(providerHandlers(model, logger, env)),
      logger,
      writeHandshake: (line) => process.stdout.write(line),
      onShutdown: () => resolve(0),
    }).catch(reject);
  });
}
