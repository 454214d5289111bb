#!/usr/bin/env node
'use strict';
// The `handler` sub-command is what every Terraform provisioner runs, once per object,
// so its start-up is paid per object. It loads one pre-built, minified file
// (dist/src/handler/bundle.js, made by `npm run build`) instead of resolving and
// compiling dozens of modules, compiled from V8's code cache (bundle.js.cache, made by
// the build on the same Node version) when that cache matches the bundle byte for byte.
// It falls back to the compiled modules when the bundle is missing or older than them
// (a `tsc` run without the bundling step).
if (require.main === module) {
  if (process.argv[2] === 'handler') {
    loadHandler().main(process.argv.slice(3));
  } else {
    require('../dist/src/cli.js').main(process.argv.slice(2));
  }
}

function handlerFiles() {
  const { join } = require('node:path');
  const dir = join(__dirname, '..', 'dist', 'src', 'handler');
  return { bundle: join(dir, 'bundle.js'), cache: join(dir, 'bundle.js.cache'), compiled: join(dir, 'main.js') };
}

function loadHandler() {
  const { statSync } = require('node:fs');
  const files = handlerFiles();
  let useBundle = false;
  try {
    const bundle = statSync(files.bundle, { throwIfNoEntry: false });
    const compiled = statSync(files.compiled, { throwIfNoEntry: false });
    useBundle = !!bundle && (!compiled || bundle.mtimeMs >= compiled.mtimeMs);
  } catch {
    // unreadable: use the compiled modules
  }
  return useBundle ? loadBundle(files, false) : require(files.compiled);
}

/**
 * Evaluates the bundle as a CommonJS module. The code cache starts with the SHA-256 of
 * the bundle it was made from: V8 itself only checks the source's length, so a cache
 * of another build is never used. A cache V8 rejects (another Node) costs nothing.
 */
function loadBundle(files, writeCache) {
  const { readFileSync, writeFileSync, renameSync } = require('node:fs');
  const { dirname } = require('node:path');
  const { Script } = require('node:vm');
  const { createRequire } = require('node:module');
  const { createHash } = require('node:crypto');
  const source = readFileSync(files.bundle, 'utf8');
  const digest = createHash('sha256').update(source).digest();
  let cachedData;
  if (!writeCache) {
    try {
      const cache = readFileSync(files.cache);
      if (cache.length > digest.length && digest.equals(cache.subarray(0, digest.length))) cachedData = cache.subarray(digest.length);
    } catch {
      // no cache: compile from source
    }
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new Script(wrapper, { filename: files.bundle, cachedData });
  const module = { exports: {}, filename: files.bundle, id: files.bundle, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, createRequire(files.bundle), module, files.bundle, dirname(files.bundle));
  module.loaded = true;
  if (writeCache) {
    const tmp = `${files.cache}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([digest, script.createCachedData()]));
    renameSync(tmp, files.cache);
  }
  return module.exports;
}

/** Run by `npm run build` after bundling: writes bundle.js.cache for this Node version. */
function writeHandlerCodeCache() {
  loadBundle(handlerFiles(), true);
}

module.exports = { writeHandlerCodeCache };
