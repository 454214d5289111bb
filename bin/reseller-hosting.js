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
    runHandler(process.argv.slice(3));
  } else if (process.argv[2] === 'handler-host') {
    loadHandler().serveHost({ socket: process.argv[3], parentPid: Number(process.argv[4]) });
  } else {
    require('../dist/src/cli.js').main(process.argv.slice(2));
  }
}

/**
 * A provisioner: served by the warm handler host of this Terraform run when there is
 * one (src/handler/host.ts), which saves loading the handler in every process; else
 * run here, starting the host for the provisioners that follow. Anything unexpected
 * means "run here": every handler command is idempotent.
 */
function runHandler(argv) {
  const debug = (line) => {
    if (process.env.RESELLER_HANDLER_DEBUG) process.stderr.write(`handler: ${line}\n`);
  };
  const target = hostTarget(process.env);
  if (typeof target === 'string') {
    debug(`running in this process (${target})`);
    loadHandler().main(argv);
    return;
  }
  viaHost(target, argv).then((served) => {
    if (served.code !== undefined) {
      debug(`served by the handler host ${target.socket}`);
      process.exitCode = served.code;
      return;
    }
    if (served.started) process.stderr.write('handler: the handler host went away during the request; running it again here\n');
    debug(`running in this process (${served.reason}); the handler host is started for the next ones`);
    startHost(target);
    loadHandler().main(argv);
  });
}

/**
 * Where this run's host listens, or why there is none: Linux only (the run is named
 * by the parent's start time, from /proc), a private state directory (the socket
 * carries the API key), no proxy variables (the host's client does not read them).
 */
function hostTarget(env) {
  const { readFileSync, statSync } = require('node:fs');
  const { join } = require('node:path');
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return 'not Linux';
  if (env.RESELLER_HANDLER_HOST === 'off') return 'RESELLER_HANDLER_HOST=off';
  if (Object.keys(env).some((k) => /^(https?_proxy|all_proxy)$/i.test(k) && env[k])) return 'a proxy is set';
  const ppid = process.ppid;
  let started;
  try {
    const stat = readFileSync(`/proc/${ppid}/stat`, 'utf8');
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return 'no /proc';
  }
  const dir = env.RESELLER_HANDLER_STATE_DIR || join(require('node:os').tmpdir(), 'reseller-hosting-handler');
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return 'no state directory yet';
  if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) !== 0) return `state directory ${dir} is not private to this user`;
  const socket = join(dir, `host-${ppid}-${started}.sock`);
  if (Buffer.byteLength(socket) > 100) return 'state directory path too long for a socket';
  return { socket, ppid };
}

/** `{code}` when the host ran the command; else `{reason, started}`. */
function viaHost(target, argv) {
  const { lstatSync } = require('node:fs');
  const st = lstatSync(target.socket, { throwIfNoEntry: false });
  if (!st) return Promise.resolve({ reason: 'no handler host yet' });
  if (!st.isSocket() || st.uid !== process.getuid()) return Promise.resolve({ reason: 'the socket is not this user\'s' });
  return new Promise((resolve) => {
    const conn = require('node:net').connect(target.socket);
    let buffer = '';
    let started = false;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      conn.destroy();
      resolve(result);
    };
    conn.setEncoding('utf8');
    conn.on('connect', () => {
      const env = {};
      for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
      conn.write(`${JSON.stringify({ argv, env, ppid: target.ppid })}\n`);
    });
    conn.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          return finish({ reason: 'garbled answer', started });
        }
        started = true;
        if (typeof message.o === 'string') process.stdout.write(message.o);
        else if (typeof message.e === 'string') process.stderr.write(message.e);
        else if (Number.isInteger(message.x)) return finish({ code: message.x });
      }
    });
    conn.on('error', (err) => {
      // Nobody listens: a host that died left its socket. Remove it, so a new one can listen.
      if (err.code === 'ECONNREFUSED' && !started) require('node:fs').rmSync(target.socket, { force: true });
      finish({ reason: `handler host: ${err.code || err.message}`, started });
    });
    conn.on('close', () => finish({ reason: 'the handler host closed the connection', started }));
  });
}

/** Starts this run's host, unless another provisioner is starting it. */
function startHost(target) {
  const { closeSync, openSync, rmSync, statSync } = require('node:fs');
  const lock = `${target.socket}.starting`;
  try {
    const old = statSync(lock, { throwIfNoEntry: false });
    if (old && Date.now() - old.mtimeMs > 10_000) rmSync(lock, { force: true }); // a host that never came up
    closeSync(openSync(lock, 'wx', 0o600));
  } catch {
    return; // being started, or the directory is unusable
  }
  // Only what Node needs: the requests bring their own environment (API key included).
  const env = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'NODE_EXTRA_CA_CERTS']) if (process.env[k]) env[k] = process.env[k];
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, [__filename, 'handler-host', target.socket, String(target.ppid)], { detached: true, stdio: 'ignore', env });
  child.on('error', () => rmSync(lock, { force: true }));
  child.unref();
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
