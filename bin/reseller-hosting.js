#!/usr/bin/env node
'use strict';
// The `reseller-hosting` command: src/cli.ts, and for what every Terraform provisioner
// runs (`handler`, and the warm `handler-host` it starts), src/handler/launch.ts, which
// loads no more than a provisioner needs. Both compiled by `npm run build`.
const HANDLER = '../dist/src/handler/launch.js';

if (require.main === module) {
  const argv = process.argv.slice(2);
  if (argv[0] === 'handler' || argv[0] === 'handler-host') require(HANDLER).main(argv, __filename);
  else require('../dist/src/cli.js').main(argv);
}

/** Run by `npm run build` after bundling: writes the handler bundle's V8 code cache. */
module.exports = { writeHandlerCodeCache: () => require(HANDLER).writeHandlerCodeCache() };
