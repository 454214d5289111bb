import { inspect } from 'node:util';
import { CloudServers } from './cloud-servers';
import { Databases } from './databases';
import { Dns } from './dns';
import { Domains } from './domains';
import { Ftp } from './ftp';
import { Mail } from './mail';
import { Responders } from './responders';
import { PackageTypes } from './package-types';
import { Packages } from './packages';
import { ApiContext, AttemptRecord, Transport, redactUrl } from './request';
import { Users } from './users';
import type { Resource } from './resource';
import { Web } from './web';

export interface ResellerClientOptions {
  /** Base URL of the API, e.g. `https://api.example.com` or the emulator's `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The reseller's general API key (raw; the client sends it base64-encoded as a bearer token). */
  apiKey: string;
  /** Reseller id in `/reseller/{id}/…` paths. @default '*' (the caller's own account) */
  resellerId?: string;
  /** Deadline of one HTTP attempt, in ms. @default 30000 */
  timeoutMs?: number;
  /** Retries after the first attempt, where the retry policy allows one. @default 4 */
  maxRetries?: number;
  /** Requests in flight at once. @default 8 */
  maxConcurrency?: number;
  /** Base of the exponential backoff, in ms. @default 200 */
  retryBaseDelayMs?: number;
  /** Cap of one backoff delay, in ms. @default 10000 */
  maxRetryDelayMs?: number;
  /** Cap of a delay taken from a `Retry-After` header, in ms. @default 60000 */
  maxRetryAfterMs?: number;
  /** Receives one line per HTTP attempt (method, path, status, duration), and the same as fields; never bodies or headers. */
  log?: (line: string, attempt?: AttemptRecord) => void;
  /** The User-Agent header of every request. @default 'cdktf-reseller-hosting' */
  userAgent?: string;
  /** For tests: how to wait between retries. @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: random number in [0, 1) for the jitter. @default Math.random */
  random?: () => number;
  /** For tests: current time in ms, for `Retry-After` dates. @default Date.now */
  now?: () => number;
  /**
   * When aborted, ends the reads in flight at once (a write in flight is left to finish,
   * so that its outcome is known). Give `sleep` the same signal so retry waits end too.
   */
  stop?: AbortSignal;
}

const DEFAULTS = {
  resellerId: '*',
  timeoutMs: 30_000,
  maxRetries: 4,
  maxConcurrency: 8,
  retryBaseDelayMs: 200,
  maxRetryDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Typed client of the reseller hosting API. One property per API noun, one method per
 * operation on it (`client.packages.list()`, `client.mail.createMailbox(...)`,
 * `client.dns.changeZone(...)`); ids come back normalised (package, package-type and
 * cloud server ids as numbers, mail ids as strings such as "m123"). Errors are the
 * typed errors of `errors.ts`.
 *
 * The API key is kept in a private field: `util.inspect(client)`, `JSON.stringify(client)`
 * and every error and log line show the base URL and reseller id only.
 */
export class ResellerClient {
  readonly baseUrl: string;
  readonly resellerId: string;
  readonly #transport: Transport;
  readonly #ctx: ApiContext;
  readonly #nouns = new Map<new (ctx: ApiContext) => Resource, Resource>();

  constructor(options: ResellerClientOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('ResellerClient: options are required');
    const { baseUrl, apiKey } = options;
    if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(baseUrl)) {
      throw new TypeError('ResellerClient: baseUrl must be an http(s) URL');
    }
    if (/^https?:\/\/[^/?#]*@/i.test(baseUrl)) {
      throw new TypeError('ResellerClient: baseUrl must not contain credentials (user:password@); the API key is the only credential');
    }
    if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new TypeError('ResellerClient: apiKey must be a non-empty string');
    const resellerId = options.resellerId ?? DEFAULTS.resellerId;
    if (typeof resellerId !== 'string' || !/^(\*|[A-Za-z0-9_.-]+)$/.test(resellerId)) {
      throw new TypeError('ResellerClient: resellerId must be "*" or an id of letters, digits, ".", "_" or "-"');
    }
    const count = (name: keyof typeof DEFAULTS, min: number): number => {
      const value = (options as unknown as Record<string, unknown>)[name] ?? DEFAULTS[name];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
        throw new RangeError(`ResellerClient: ${name} must be a number >= ${min}`);
      }
      return value;
    };
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.resellerId = resellerId;
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey,
      timeoutMs: count('timeoutMs', 1),
      maxRetries: Math.floor(count('maxRetries', 0)),
      maxConcurrency: Math.floor(count('maxConcurrency', 1)),
      retryBaseDelayMs: count('retryBaseDelayMs', 0),
      maxRetryDelayMs: count('maxRetryDelayMs', 0),
      maxRetryAfterMs: count('maxRetryAfterMs', 0),
      log: options.log,
      userAgent: options.userAgent,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      stop: options.stop,
    });
    const ctx: ApiContext = { transport: this.#transport, resellerPath: `/reseller/${encodeURIComponent(resellerId)}` };
    this.#ctx = ctx;
    this.users = new Users(ctx);
    this.packageTypes = new PackageTypes(ctx);
    this.packages = new Packages(ctx);
    this.mail = new Mail(ctx);
    this.responders = new Responders(ctx);
    this.dns = new Dns(ctx);
    this.cloudServers = new CloudServers(ctx);
    this.databases = new Databases(ctx);
    this.ftp = new Ftp(ctx);
    this.web = new Web(ctx);
    this.domains = new Domains(ctx);
  }

  /**
   * The instance of an API noun defined outside this class (a kind's noun that is not
   * one of this package's, such as the contract suite's test-only kind), over this
   * client's transport: made once per client.
   */
  noun<T extends Resource>(ctor: new (ctx: ApiContext) => T): T {
    let instance = this.#nouns.get(ctor);
    if (!instance) {
      instance = new ctor(this.#ctx);
      this.#nouns.set(ctor, instance);
    }
    return instance as T;
  }

  /** Requests in flight right now. */
  get inFlight(): number {
    return this.#transport.inFlight;
  }

  /** Frees pooled connections (the client stays usable). */
  close(): void {
    this.#transport.close();
  }

  [inspect.custom](_depth: number, options: object): string {
    return `ResellerClient ${inspect(this.toJSON(), { ...options, customInspect: false })}`;
  }

  toJSON(): { baseUrl: string; resellerId: string } {
    return { baseUrl: redactUrl(this.baseUrl), resellerId: this.resellerId };
  }

  // ---- the API's nouns: each operation is a method of its noun (resource.ts) ----------

  /** Control-panel users and their package grants. */
  readonly users: Users;
  /** Package types of the account. */
  readonly packageTypes: PackageTypes;
  /** Hosting packages. */
  readonly packages: Packages;
  /** Mailboxes and forwarders of a package's domains. */
  readonly mail: Mail;
  /** DNS zones and records of a package. */
  readonly dns: Dns;
  /** Managed cloud servers. */
  readonly cloudServers: CloudServers;
  /** MySQL databases of a package (and their users). */
  readonly databases: Databases;
  /** A package's FTP credentials (a secret: read for an ephemeral resource, never kept). */
  readonly ftp: Ftp;
  /** Web settings of a package: force-HTTPS, free certificates, PHP version. */
  readonly web: Web;
  /** Registered domain names: their nameservers, transfer lock and DNS zone. */
  readonly domains: Domains;
  /** Autoresponders of a package's domains (read with the mail too). */
  readonly responders: Responders;
}
