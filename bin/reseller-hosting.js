#!/usr/bin/env node
'use strict';
// The `handler` sub-command is what every Terraform provisioner runs, once per object:
// load only its module so that start-up stays close to bare `node`.
if (process.argv[2] === 'handler') {
  require('../dist/src/handler/main.js').main(process.argv.slice(3));
} else {
  require('../dist/src/cli.js').main(process.argv.slice(2));
}
