import type { ProviderModel } from './provider';
import { serveProvider } from './serve';

/**
 * `reseller-hosting provider`: what Terraform runs as the plugin (the bundle's entry,
 * see install.ts); `reseller-hosting provider install` puts it where `terraform init`
 * finds it.
 */
export async function runProviderCli(argv: string[]): Promise<number> {
  if (argv[0] === 'install') return (require('./install') as typeof import('./install')).runInstall(argv.slice(1));
  const { coreModel } = require('./core-kinds') as { coreModel: (env: NodeJS.ProcessEnv) => ProviderModel };
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

/** Loads the modules start-up needs (used when the build writes the code cache). */
export function warm(): void {
  require('./core-kinds');
  require('./serve');
}
