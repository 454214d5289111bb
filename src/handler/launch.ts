/**
 * What `bin/reseller-hosting.js handler` runs: the `handler` sub-command is what every
 * Terraform provisioner runs, once per object, so its start-up is paid per object.
 * This module is kept small and loads Node modules only where they are used:
 *
 * - a provisioner is served by the warm handler host of its Terraform run when there
 *   is one (host.ts), which saves loading the handler in every process; else it runs
 *   here and starts the host for the provisioners that follow. Anything unexpected
 *   means "run here": every handler command is idempotent;
 * - the handler itself is one pre-built, minified file (dist/src/handler/bundle.js, made
 *   by `npm run build`), compiled from V8's code cache (bundle.js.cache, made by the
 *   build on the same Node version) when that cache matches the bundle byte for byte;
 *   the compiled modules (main.js) when the bundle is missing or older than them (a
 *   `tsc` run without the bundling step).
 */
import type * as Fs from 'node:fs';
import type * as Net from 'node:net';
import type * as Path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const fs = () => require('node:fs') as typeof Fs;
const path = () => require('node:path') as typeof Path;

/** The handler's entry points (main.ts). */
export interface HandlerModule {
  main(argv: string[]): void;
  serveHost(options: { socket: string; parentPid: number }): Promise<void>;
}

/**
 * `reseller-hosting handler <command>` and `handler-host <socket> <ppid>` (the host this
 * module starts); `binPath` is the script the host is started with: none for the
 * provider executable, which is the program itself and has the handler inside
 * (`load`).
 */
export function main(argv: string[], binPath: string | undefined, load: () => HandlerModule = loadHandler): void {
  if (argv[0] === 'handler-host') void load().serveHost({ socket: argv[1], parentPid: Number(argv[2]) });
  else runHandler(argv.slice(1), binPath, load);
}

function runHandler(argv: string[], binPath: string | undefined, loadHandler: () => HandlerModule): void {
  const debug = (line: string) => {
    if (process.env.RESELLER_HANDLER_DEBUG) process.stderr.write(`handler: ${line}\n`);
  };
  const target = hostTarget(process.env);
  if (typeof target === 'string') {
    debug(`running in this process (${target})`);
    loadHandler().main(argv);
    return;
  }
  void viaHost(target, argv).then((served) => {
    if (served.code !== undefined) {
      debug(`served by the handler host ${target.socket}`);
      process.exitCode = served.code;
      return;
    }
    if (served.started) process.stderr.write('handler: the handler host went away during the request; running it again here\n');
    debug(`running in this process (${served.reason}); the handler host is started for the next ones`);
    startHost(target, binPath);
    loadHandler().main(argv);
  });
}

interface HostTarget {
  readonly socket: string;
  readonly ppid: number;
}

/**
 * Where this run's host listens, or why there is none: Linux only (the run is named
 * by the parent's start time, from /proc), a private state directory (the socket
 * carries the API key), no proxy variables (the host's client does not read them).
 */
function hostTarget(env: NodeJS.ProcessEnv): HostTarget | string {
  const { readFileSync, statSync } = fs();
  const { join } = path();
  if (process.platform !== 'linux' || typeof process.getuid !== 'function') return 'not Linux';
  if (env.RESELLER_HANDLER_HOST === 'off') return 'RESELLER_HANDLER_HOST=off';
  if (Object.keys(env).some((k) => /^(https?_proxy|all_proxy)$/i.test(k) && env[k])) return 'a proxy is set';
  const ppid = process.ppid;
  let started: string | undefined;
  try {
    const stat = readFileSync(`/proc/${ppid}/stat`, 'utf8');
    started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return 'no /proc';
  }
  const dir = env.RESELLER_HANDLER_STATE_DIR || join((require('node:os') as typeof import('node:os')).tmpdir(), 'reseller-hosting-handler');
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return 'no state directory yet';
  if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) !== 0) return `state directory ${dir} is not private to this user`;
  const socket = join(dir, `host-${ppid}-${started}.sock`);
  if (Buffer.byteLength(socket) > 100) return 'state directory path too long for a socket';
  return { socket, ppid };
}

type Served = { code: number; reason?: undefined; started?: undefined } | { code?: undefined; reason: string; started?: boolean };

/** `{code}` when the host ran the command; else `{reason, started}`. */
function viaHost(target: HostTarget, argv: string[]): Promise<Served> {
  const st = fs().lstatSync(target.socket, { throwIfNoEntry: false });
  if (!st) return Promise.resolve({ reason: 'no handler host yet' });
  if (!st.isSocket() || st.uid !== process.getuid!()) return Promise.resolve({ reason: "the socket is not this user's" });
  return new Promise((resolve) => {
    const conn = (require('node:net') as typeof Net).connect(target.socket);
    let buffer = '';
    let started = false;
    let done = false;
    const finish = (result: Served) => {
      if (done) return;
      done = true;
      conn.destroy();
      resolve(result);
    };
    conn.setEncoding('utf8');
    conn.on('connect', () => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
      conn.write(`${JSON.stringify({ argv, env, ppid: target.ppid })}\n`);
    });
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let message: { o?: unknown; e?: unknown; x?: unknown };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return finish({ reason: 'garbled answer', started });
        }
        started = true;
        if (typeof message.o === 'string') process.stdout.write(message.o);
        else if (typeof message.e === 'string') process.stderr.write(message.e);
        else if (Number.isInteger(message.x)) return finish({ code: message.x as number });
      }
    });
    conn.on('error', (err: NodeJS.ErrnoException) => {
      // Nobody listens: a host that died left its socket. Remove it, so a new one can listen.
      if (err.code === 'ECONNREFUSED' && !started) fs().rmSync(target.socket, { force: true });
      finish({ reason: `handler host: ${err.code || err.message}`, started });
    });
    conn.on('close', () => finish({ reason: 'the handler host closed the connection', started }));
  });
}

/** Starts this run's host, unless another provisioner is starting it. */
function startHost(target: HostTarget, binPath: string | undefined): void {
  const { closeSync, openSync, rmSync, statSync } = fs();
  const lock = `${target.socket}.starting`;
  try {
    const old = statSync(lock, { throwIfNoEntry: false });
    if (old && Date.now() - old.mtimeMs > 10_000) rmSync(lock, { force: true }); // a host that never came up
    closeSync(openSync(lock, 'wx', 0o600));
  } catch {
    return; // being started, or the directory is unusable
  }
  // Only what Node needs: the requests bring their own environment (API key included).
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'NODE_EXTRA_CA_CERTS']) if (process.env[k]) env[k] = process.env[k]!;
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const args = [...(binPath === undefined ? [] : [binPath]), 'handler-host', target.socket, String(target.ppid)];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
  child.on('error', () => rmSync(lock, { force: true }));
  child.unref();
}

interface HandlerFiles {
  readonly bundle: string;
  readonly cache: string;
  readonly compiled: string;
}

function handlerFiles(): HandlerFiles {
  const { join } = path();
  return { bundle: join(__dirname, 'bundle.js'), cache: join(__dirname, 'bundle.js.cache'), compiled: join(__dirname, 'main.js') };
}

function loadHandler(): HandlerModule {
  const { statSync } = fs();
  const files = handlerFiles();
  let useBundle = false;
  try {
    const bundle = statSync(files.bundle, { throwIfNoEntry: false });
    const compiled = statSync(files.compiled, { throwIfNoEntry: false });
    useBundle = !!bundle && (!compiled || bundle.mtimeMs >= compiled.mtimeMs);
  } catch {
    // unreadable: use the compiled modules
  }
  return useBundle ? loadBundle(files, false) : (require(files.compiled) as HandlerModule);
}

/**
 * Evaluates the bundle as a CommonJS module. The code cache starts with the SHA-256 of
 * the bundle it was made from: V8 itself only checks the source's length, so a cache
 * of another build is never used. A cache V8 rejects (another Node) costs nothing.
 */
function loadBundle(files: HandlerFiles, writeCache: boolean): HandlerModule {
  const { readFileSync, writeFileSync, renameSync } = fs();
  const { Script } = require('node:vm') as typeof import('node:vm');
  const { createRequire } = require('node:module') as typeof import('node:module');
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const source = readFileSync(files.bundle, 'utf8');
  const digest = createHash('sha256').update(source).digest();
  let cachedData: Buffer | undefined;
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
  const module = { exports: {} as HandlerModule, filename: files.bundle, id: files.bundle, loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(files.bundle), module, files.bundle, path().dirname(files.bundle));
  module.loaded = true;
  if (writeCache) {
    const tmp = `${files.cache}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([digest, script.createCachedData()]));
    renameSync(tmp, files.cache);
  }
  return module.exports;
}

/** Run by `npm run build` after bundling: writes bundle.js.cache for this Node version. */
export function writeHandlerCodeCache(): void {
  loadBundle(handlerFiles(), true);
}
