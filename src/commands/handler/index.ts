import type { Command } from '../command';

/**
 * `reseller-hosting handler <verb>`: what the carriers' provisioners run. The
 * `bin/reseller-hosting.js` shim sends it straight to the handler's launcher
 * (src/handler/launch.ts), which loads no more than a provisioner needs; this entry
 * serves `runCli` (in-process use). Both end in src/handler/run.ts, which answers
 * `--help` and `--version` as every command does and lists the verbs as HANDLER_USAGE does.
 */
export const runHandlerCommand: Command = async (argv) => {
  const { run } = require('../../handler/main') as typeof import('../../handler/main');
  return run(argv);
};
