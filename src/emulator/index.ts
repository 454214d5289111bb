import { EmulatorServer } from './server';
import { EmulatorStateDump } from './snapshot';
import { EMULATOR_PROFILES, EmulatorProfile, isEmulatorProfile } from './profile';

/**
 * A local emulator of the reseller API: a real HTTP server on loopback with several
 * accounts, fixtures, persistence, asynchronous cloud provisioning, the documented
 * error bodies, and a control API under /__emulator/. See docs/emulator.md.
 *
 * It is an independent model of the API (it imports nothing from the client, the
 * handler or the constructs), so that testing the client against it is an honest check.
 *
 * ```ts
 * import { startEmulator } from 'cdktf-reseller-hosting/emulator';
 * const emu = await startEmulator({ quiet: true });
 * // RESELLER_API_URL=emu.url, RESELLER_API_KEY='emulator-key'
 * await emu.stop();
 * ```
 */

export interface EmulatorOptions {
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port; 0 picks a free one. @default 0 */
  port?: number;
  /** Data file: state is loaded from it and every write is saved to it. @default in memory only */
  dataFile?: string;
  /** API key of the default account (reseller DEFAULT_RESELLER_ID). @default 'emulator-key' */
  apiKey?: string;
  /** How long an ordered cloud server takes to provision. @default 3000 */
  provisionDelayMs?: number;
  /**
   * `'documented'` leaves out every response field and behaviour that no public source
   * shows (api-notes `assumed`), to test a client's tolerance. @default 'default'
   */
  profile?: EmulatorProfile;
  /** Do not log one line per request. @default false */
  quiet?: boolean;
  /** Where request lines and internal errors go. @default a line on stderr */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  url: string;
  port: number;
  /** Stops the server and releases the data file. Safe to call twice. */
  stop(): Promise<void>;
  /** The secret-free state dump (same as GET /__emulator/state). */
  snapshot(): EmulatorStateDump;
}

export const DEFAULT_API_KEY = 'emulator-key';
export const DEFAULT_PROVISION_DELAY_MS = 3000;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (typeof apiKey !== 'string' || apiKey === '') throw new Error('apiKey must be a non-empty string');
  const provisionDelayMs = options.provisionDelayMs ?? DEFAULT_PROVISION_DELAY_MS;
  if (!Number.isInteger(provisionDelayMs) || provisionDelayMs < 0) throw new Error('provisionDelayMs must be an integer >= 0');
  const profile = options.profile ?? 'default';
  if (!isEmulatorProfile(profile)) throw new Error(`profile must be one of ${EMULATOR_PROFILES.join(', ')}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('port must be an integer from 0 to 65535');
  const server = new EmulatorServer({
    host,
    port,
    apiKey,
    provisionDelayMs,
    profile,
    dataFile: options.dataFile,
    quiet: options.quiet ?? false,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  const actualPort = await server.listen();
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    port: actualPort,
    stop: () => server.stop(),
    snapshot: () => server.snapshot(),
  };
}

export { DEFAULT_RESELLER_ID } from './fixtures';
export { EMULATOR_PROFILES } from './profile';
export type { EmulatorProfile } from './profile';
export { EmulatorDataError } from './persistence';
export type { FaultRule } from './faults';
export type { RequestLogEntry } from './request-log';
export type { EmulatorStateDump, AccountDump, PackageDump } from './snapshot';
// Each noun's dump types. These lines also load each noun's declarations for library
// users, and with them its members of AccountDump and PackageDump: one line per noun.
export type { PackageTypeDump } from './nouns/packages/model';
export type { UserDump } from './nouns/users/model';
export type { MailDomainDump, ResponderDump } from './nouns/mail/model';
export type { DnsZoneDump } from './nouns/dns/model';
export type { CloudServerDump } from './nouns/cloud/model';
export type { WebDump } from './nouns/web/model';
export type { RegistrationDump } from './nouns/domains/model';
export type { MysqlDatabaseDump } from './nouns/mysql/model';
