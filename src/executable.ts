import { main as launchHandler, HandlerModule } from './handler/launch';
import * as handler from './handler/main';
import { main as provider, warm as warmProvider } from './provider/main';
import { providerVersion } from './provider/version';

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
 * point, like src/cli.ts, is where they meet.
 */
export function main(argv: string[]): void {
  const [first] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    process.stdout.write(`${providerVersion()}\n`);
    return;
  }
  if (first === 'handler' || first === 'handler-host') {
    launchHandler(argv, undefined, (): HandlerModule => handler);
    return;
  }
  provider(argv);
}

/** Run by the executables' build before it writes the code cache: compiles what start-up runs. */
export async function warm(): Promise<void> {
  await warmProvider();
}
