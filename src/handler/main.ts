import { serveHost } from './host';
import { run } from './run';

export { run, serveHost };

/** The entry point of a provisioner process (bin/reseller-hosting.js handler ...). */
export function main(argv: string[]): void {
  run(argv).then((code) => {
    process.exitCode = code;
  });
}
