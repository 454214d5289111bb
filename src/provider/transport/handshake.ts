import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The go-plugin handshake (hashicorp/go-plugin): Terraform starts the plugin with its
 * magic cookie in the environment, the plugin listens on a Unix socket and prints
 * one line on stdout: `CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT`.
 */

export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
/** go-plugin's own protocol version. */
export const CORE_PROTOCOL_VERSION = 1;
/** Terraform plugin protocol major version this provider speaks. */
export const APP_PROTOCOL_VERSION = 6;

export const NOT_A_PLUGIN_MESSAGE =
  'This is the Terraform provider of cdktf-reseller-hosting: Terraform runs it, it is not meant to be run by hand.\n' +
  'To make it available to plain Terraform, run: reseller-hosting provider install\n';

export function startedByTerraform(env: NodeJS.ProcessEnv): boolean {
  return env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE_VALUE;
}

/** Whether Terraform offers the protocol version this provider speaks (absent: assume it does). */
export function offersProtocol(env: NodeJS.ProcessEnv): boolean {
  const offered = env.PLUGIN_PROTOCOL_VERSIONS;
  if (!offered) return true;
  return offered.split(',').map((v) => v.trim()).includes(String(APP_PROTOCOL_VERSION));
}

/** Where socket directories are made (go-plugin honours PLUGIN_UNIX_SOCKET_DIR too). */
export const socketBase = (env: NodeJS.ProcessEnv): string => env.PLUGIN_UNIX_SOCKET_DIR || tmpdir();

/** The socket directory's name: `tf-reseller-<pid>-<random>`, so that a leftover one names the process it belonged to. */
const SOCKET_DIR_PREFIX = 'tf-reseller-';
export const SOCKET_DIR_PATTERN = new RegExp(`^${SOCKET_DIR_PREFIX}([0-9]+)-[^/]+$`);
export const SOCKET_FILE = 'plugin.sock';

/** A private directory for the socket. */
export function socketPath(env: NodeJS.ProcessEnv): string {
  const dir = mkdtempSync(join(socketBase(env), `${SOCKET_DIR_PREFIX}${process.pid}-`));
  return join(dir, SOCKET_FILE);
}

export function handshakeLine(socket: string, certField: string): string {
  return `${CORE_PROTOCOL_VERSION}|${APP_PROTOCOL_VERSION}|unix|${socket}|grpc|${certField}\n`;
}

/** Splits a handshake line into its fields (used by tests and the start-up benchmark). */
export function parseHandshakeLine(line: string) {
  const [core, app, network, address, protocol, cert] = line.trim().split('|');
  return { core: Number(core), app: Number(app), network, address, protocol, cert };
}
