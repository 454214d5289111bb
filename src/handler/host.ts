import { chmodSync, lstatSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { withRequestScope } from './request-scope';
import { run } from './run';

/**
 * The warm handler host of one Terraform run. Every provisioner is a new Node process,
 * and an apply is bound by their start-up (BENCHMARKS.md): the handler loads its
 * bundle, `node:crypto` and `node:http` each time. The first provisioner of a run
 * starts this host; the later ones (bin/reseller-hosting.js) pass their command,
 * environment and parent pid over a Unix socket in the private journal directory, and
 * relay what the host sends back: stdout, stderr, exit code. Each request runs with
 * its own environment and output (request-scope.ts), so requests with different API
 * keys never mix. The host leaves when it has been idle for `idleMs`, or when the
 * Terraform process is gone. Whenever it is not there, or goes away mid-request,
 * the client runs the command itself: every command is idempotent (DESIGN section 3).
 *
 * Wire format, one JSON document per line. Client -> host: `{argv, env, ppid}`.
 * Host -> client: `{o: text}` (stdout), `{e: text}` (stderr), then `{x: exit code}`.
 */
export interface HostOptions {
  readonly socket: string;
  /** The Terraform process whose provisioners this host serves. */
  readonly parentPid: number;
  readonly idleMs?: number;
}

interface HostRequest {
  argv: string[];
  env: Record<string, string>;
  ppid: number;
}

export const HOST_IDLE_MS = 5000;

export function serveHost(options: HostOptions): Promise<void> {
  const idleMs = options.idleMs ?? HOST_IDLE_MS;
  return new Promise((resolve) => {
    let active = 0;
    let idle: NodeJS.Timeout | undefined;
    let closing = false;
    /** Inode of the socket this host made: a newer host's is never removed. */
    let ownInode = -1;
    const shutdown = () => {
      if (closing) return;
      closing = true;
      clearTimeout(idle);
      clearInterval(watch);
      server.close(() => resolve());
      if (lstatSync(options.socket, { throwIfNoEntry: false })?.ino === ownInode) rmSync(options.socket, { force: true });
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(shutdown, idleMs);
    };
    const server = net.createServer((conn) => {
      active++;
      clearTimeout(idle);
      conn.setEncoding('utf8');
      let buffer = '';
      let started = false;
      conn.on('data', (chunk: string) => {
        if (started) return;
        buffer += chunk;
        const nl = buffer.indexOf('\n');
        if (nl < 0) {
          if (buffer.length > 4 * 1024 * 1024) conn.destroy();
          return;
        }
        started = true;
        void answer(conn, buffer.slice(0, nl));
      });
      conn.on('error', () => conn.destroy());
      conn.on('close', () => {
        active--;
        if (active === 0 && !closing) armIdle();
      });
    });
    // Terraform gone (the run ended, or was killed): nothing more will come.
    const watch = setInterval(() => {
      if (!isAlive(options.parentPid)) shutdown();
    }, 500);
    server.on('error', () => shutdown()); // e.g. another host took the socket first
    server.listen(options.socket, () => {
      if (closing) {
        // Terraform left while this host was starting.
        server.close();
        rmSync(options.socket, { force: true });
        return;
      }
      try {
        chmodSync(options.socket, 0o600);
        ownInode = lstatSync(options.socket).ino;
      } catch {
        shutdown();
        return;
      }
      rmSync(`${options.socket}.starting`, { force: true });
      armIdle();
    });
  });
}

async function answer(conn: net.Socket, line: string): Promise<void> {
  const send = (message: object) => {
    if (!conn.destroyed) conn.write(`${JSON.stringify(message)}\n`);
  };
  const request = parseRequest(line);
  if (!request) {
    conn.destroy();
    return;
  }
  const scope = {
    env: request.env,
    ppid: request.ppid,
    out: (text: string) => send({ o: text }),
    err: (text: string) => send({ e: text }),
  };
  let code: number;
  try {
    code = await withRequestScope(scope, () => run(request.argv, request.env));
  } catch (err) {
    send({ e: `error: ${err instanceof Error ? err.message : String(err)}\n` });
    code = 1;
  }
  if (!conn.destroyed) conn.end(`${JSON.stringify({ x: code })}\n`);
}

function parseRequest(line: string): HostRequest | undefined {
  try {
    const r = JSON.parse(line) as Partial<HostRequest>;
    const strings = (v: unknown): v is Record<string, string> =>
      !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
    if (!Array.isArray(r.argv) || !r.argv.every((a) => typeof a === 'string') || !strings(r.env) || !Number.isInteger(r.ppid)) return undefined;
    return r as HostRequest;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
