#!/usr/bin/env node
'use strict';
// Start-up of the installed provider (spawn to handshake line, with mutual TLS, as Terraform
// waits for it) against `node -e 0`, alternating, median of N runs. Needs `npm run build`.
//   node test/provider/measure-startup.js [runs]
const { spawn } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const dist = join(__dirname, '..', '..', 'dist', 'src', 'provider');
const executable = require(join(dist, 'install.js')).installProvider(mkdtempSync(join(tmpdir(), 'provider-start-')));
const { createServerCertificate } = require(join(dist, 'transport', 'certificate.js'));
const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = require(join(dist, 'transport', 'handshake.js'));
const env = { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: createServerCertificate().certPem };

function timed(command, args, untilLine) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill('SIGKILL');
    };
    if (untilLine) child.stdout.on('data', (d) => String(d).includes('\n') && finish());
    child.on('exit', finish);
  });
}

(async () => {
  const runs = Number(process.argv[2] || 31);
  const node = [];
  const provider = [];
  for (let i = 0; i < runs; i++) {
    node.push(await timed(process.execPath, ['-e', '0'], false));
    provider.push(await timed(executable, [], true));
  }
  const median = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const [n, p] = [median(node), median(provider)];
  console.log(`node -e 0: ${n.toFixed(0)} ms; provider to handshake: ${p.toFixed(0)} ms; ratio ${(p / n).toFixed(2)} (median of ${runs})`);
})();
