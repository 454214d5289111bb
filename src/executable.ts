import type { HandlerModule } from './handler/launch';

/**
 * The program inside the self-contained provider executable
 * (`terraform-provider-reseller_v<version>`, a Node single executable application:
 * scripts/executables/). One file serves both engines, so a runner needs no Node:
 *
 * - no arguments: the Terraform plugin, as Terraform starts it;
 * - `handler <command>`: what the carriers' provisioners run when the stack is
 *   synthesized for executables (and `handler-host`, the warm host it starts: this
 *   same executable again);
 * - `--version`: the version, as `reseller-hosting --version` prints it.
 *
 * Both adapters are bundled here; neither imports the other (DESIGN §6): this entry
 * point, like src/cli.ts, is where they meet. Each mode loads its own modules only
 * (`require` where used): the plugin's start-up does not pay for the handler's.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export function main(argv: string[]): void {
  const [first] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    const { providerVersion } = require('./provider/version') as typeof import('./provider/version');
    process.stdout.write(`${providerVersion()}\n`);
    return;
  }
  if (first === 'handler' || first === 'handler-host') {
    const launch = require('./handler/launch') as typeof import('./handler/launch');
    launch.main(argv, undefined, () => require('./handler/main') as HandlerModule);
    return;
  }
  (require('./provider/main') as typeof import('./provider/main')).main(argv);
}

/** Run by the executables' build before it writes the code cache: compiles what start-up runs. */
export async function warm(): Promise<void> {
  await (require('./provider/main') as typeof import('./provider/main')).warm();
}
