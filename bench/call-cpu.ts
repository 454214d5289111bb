import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { createServerCertificate } from '../src/provider/transport/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshakeLine } from '../src/provider/transport/handshake';
import { BuildArg, currentBuild, installBuild, parseBuildArg } from './lib/builds';
import { median } from './lib/stats';

/**
 * A tool for the provider's transport (issue 27), not a figure of `npm run bench`: the
 * server CPU per gRPC call of one or more provider builds and, given its binary, the Go
 * floor, each started as Terraform starts a plugin (magic cookie, automatic mutual TLS,
 * a Unix socket) and sent `--calls` calls of go-plugin's health check (transport only:
 * its answer is a constant) with `--in-flight` in flight by a grpc-js client. The CPU is
 * the server process's own (/proc/PID/stat), from after a warm-up to the last answer.
 * Servers are measured in turn within each run, so each sees the same load.
 *
 *   node dist/bench/call-cpu.js [--calls 5000] [--in-flight 10] [--runs 3] [--go GOFLOOR_BINARY] [NAME=BUNDLE[@NODE_FLAG,...] ...]
 */

interface Server {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
}

const HEALTH = '/grpc.health.v1.Health/Check';
const WARM_UP_CALLS = 500;

function parseArgs(argv: string[]) {
  const out = { calls: 5000, inFlight: 10, runs: 3, go: undefined as string | undefined, builds: [] as BuildArg[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const build = parseBuildArg(arg);
    if (arg === '--calls') out.calls = Number(argv[++i]);
    else if (arg === '--in-flight') out.inFlight = Number(argv[++i]);
    else if (arg === '--runs') out.runs = Number(argv[++i]);
    else if (arg === '--go') out.go = resolve(argv[++i]);
    else if (build) out.builds.push(build);
    else throw new Error(`call-cpu: unexpected argument ${arg}`);
  }
  if (!out.builds.length) out.builds.push(currentBuild());
  return out;
}

/** User + system CPU seconds of a running process. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // field 3 onwards
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime, stime (fields 14, 15)
}

/** Starts a server, sends the calls, and returns its CPU per call in microseconds. */
async function measure(server: Server, calls: number, inFlight: number): Promise<number> {
  const terraformSide = createServerCertificate();
  const child = spawn(server.command, server.args, {
    env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: terraformSide.certPem, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_MIN_PORT: '10000', PLUGIN_MAX_PORT: '25000' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const line = await new Promise<string>((done, fail) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) done(text.slice(0, text.indexOf('\n')));
      });
      child.once('exit', (code) => fail(new Error(`${server.name} exited (${code}) before its handshake`)));
    });
    const fields = parseHandshakeLine(line);
    const cert = new X509Certificate(Buffer.from(fields.cert, 'base64')); // unpadded base64 DER, which Buffer reads as it is
    const client = new grpc.Client(
      `unix:${fields.address}`,
      grpc.credentials.createSsl(Buffer.from(cert.toString()), Buffer.from(terraformSide.keyPem), Buffer.from(terraformSide.certPem)),
      { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' },
    );
    const call = () => new Promise<void>((done, fail) =>
      client.makeUnaryRequest(HEALTH, (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (err) => (err ? fail(err) : done())));
    const run = async (n: number) => {
      let next = 0;
      await Promise.all(Array.from({ length: inFlight }, async () => {
        while (next++ < n) await call();
      }));
    };
    await run(WARM_UP_CALLS);
    const before = cpuSeconds(child.pid!);
    await run(calls);
    const used = cpuSeconds(child.pid!) - before;
    client.close();
    return (used / calls) * 1e6;
  } finally {
    child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const servers: Server[] = args.builds.map((b) => ({ name: b.name, command: process.execPath, args: [...b.flags, installBuild(b)] }));
  if (args.go) servers.push({ name: 'go-floor', command: args.go, args: [] });
  else process.stderr.write('call-cpu: no --go binary: the Go floor is not measured (build it with shared/gofloor/build.sh)\n');
  console.log(`${args.calls} health-check calls, ${args.inFlight} in flight, mutual TLS; servers: ${servers.map((s) => s.name).join(', ')}`);
  const results = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  for (let run = 0; run < args.runs; run++) {
    // Rotate who goes first, so that no server always meets the warmest (or coldest) machine.
    const order = servers.map((_, i) => servers[(i + run) % servers.length]);
    for (const server of order) {
      const us = await measure(server, args.calls, args.inFlight);
      results.get(server.name)!.push(us);
      console.log(`run ${run + 1} ${server.name}: ${us.toFixed(0)} us of server CPU per call`);
    }
  }
  for (const [name, values] of results) console.log(`${name}: median ${median(values).toFixed(0)} us per call (${values.map((v) => v.toFixed(0)).join(', ')})`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
