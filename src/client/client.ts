import { inspect } from 'node:util';
import * as cloudServers from './cloud-servers';
import * as mail from './mail';
import * as packageTypes from './package-types';
import * as packages from './packages';
import { ApiContext, AttemptRecord, Transport, redactUrl } from './request';
import * as users from './users';
import type {
  CloudServer,
  CloudServerWithBrand,
  CreateForwarderRequest,
  CreateMailboxRequest,
  CreatePackageOnCloudServerRequest,
  CreatePackageRequest,
  CreateUserRequest,
  MailDomain,
  MailWriteResult,
  OrderCloudServerRequest,
  PackageDetail,
  PackageNamesChange,
  PackageSummary,
  PackageType,
  UpdateMailboxRequest,
  UserList,
} from './types';

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
 * Typed client of the reseller hosting API. One method per operation; ids come back
 * normalised (package, package-type and cloud server ids as numbers, mail ids as
 * strings such as "m123"). Errors are the typed errors of `errors.ts`.
 *
 * The API key is kept in a private field: `util.inspect(client)`, `JSON.stringify(client)`
 * and every error and log line show the base URL and reseller id only.
 */
export class ResellerClient {
  readonly baseUrl: string;
  readonly resellerId: string;
  readonly #transport: Transport;
  readonly #ctx: ApiContext;

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
    });
    this.#ctx = { transport: this.#transport, resellerPath: `/reseller/${encodeURIComponent(resellerId)}` };
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

  // ---- control-panel users ------------------------------------------------------------

  /** `GET /reseller/{id}/susers`: contact records and grant map (`grant_map` -> `grantMap`). */
  listUsers(): Promise<UserList> {
    return users.listUsers(this.#ctx);
  }

  /** Creates a control-panel user -> its `stack-user:N` identifier. */
  createUser(request: CreateUserRequest): Promise<string> {
    return users.createUser(this.#ctx, request);
  }

  deleteUser(ref: string): Promise<void> {
    return users.deleteUser(this.#ctx, ref);
  }

  /** Links (`true`) or unlinks (`false`) a user and a package. */
  setPackageGrant(userRef: string, packageId: string | number, granted: boolean): Promise<void> {
    return users.setPackageGrant(this.#ctx, userRef, packageId, granted);
  }

  /** The user whose contact e-mail matches (case-insensitive), or undefined. */
  findUserByEmail(email: string): Promise<string | undefined> {
    return users.findUserByEmail(this.#ctx, email);
  }

  // ---- package types ------------------------------------------------------------------

  listPackageTypes(): Promise<PackageType[]> {
    return packageTypes.listPackageTypes(this.#ctx);
  }

  // ---- packages -----------------------------------------------------------------------

  listPackages(): Promise<PackageSummary[]> {
    return packages.listPackages(this.#ctx);
  }

  /** One package by id or domain name; undefined when it does not exist. */
  getPackage(idOrDomain: string | number): Promise<PackageDetail | undefined> {
    return packages.getPackage(this.#ctx, idOrDomain);
  }

  createPackage(request: CreatePackageRequest): Promise<number> {
    return packages.createPackage(this.#ctx, request);
  }

  createPackageOnCloudServer(serverId: string | number, request: CreatePackageOnCloudServerRequest): Promise<number> {
    return packages.createPackageOnCloudServer(this.#ctx, serverId, request);
  }

  /** -> the boolean the API reports for the id. */
  deletePackage(id: string | number): Promise<boolean> {
    return packages.deletePackage(this.#ctx, id);
  }

  setPackageType(id: string | number, typeId: string | number): Promise<void> {
    return packages.setPackageType(this.#ctx, id, typeId);
  }

  setPackageLabel(id: string | number, label: string): Promise<void> {
    return packages.setPackageLabel(this.#ctx, id, label);
  }

  /** -> the package's domain names afterwards. */
  changePackageNames(id: string | number, change: PackageNamesChange): Promise<string[]> {
    return packages.changePackageNames(this.#ctx, id, change);
  }

  setPackageEnabled(id: string | number, enabled: boolean): Promise<void> {
    return packages.setPackageEnabled(this.#ctx, id, enabled);
  }

  /** The label of a package list entry (from `packageLabels`). */
  labelOf(summary: PackageSummary): string {
    return packages.labelOf(summary);
  }

  /** The label of a list entry for comparing: undefined when the entry cannot tell (not verifiable). */
  verifiableLabelOf(summary: PackageSummary): string | undefined {
    return packages.verifiableLabelOf(summary);
  }

  // ---- mail ---------------------------------------------------------------------------

  getMail(packageRef: string | number, domain: string): Promise<MailDomain> {
    return mail.getMail(this.#ctx, packageRef, domain);
  }

  createMailbox(packageRef: string | number, domain: string, request: CreateMailboxRequest): Promise<MailWriteResult> {
    return mail.createMailbox(this.#ctx, packageRef, domain, request);
  }

  createForwarder(packageRef: string | number, domain: string, request: CreateForwarderRequest): Promise<MailWriteResult> {
    return mail.createForwarder(this.#ctx, packageRef, domain, request);
  }

  updateMailbox(packageRef: string | number, domain: string, request: UpdateMailboxRequest): Promise<void> {
    return mail.updateMailbox(this.#ctx, packageRef, domain, request);
  }

  /**
   * Deletes mail objects by type-prefixed id. The API answers 200 even to a body it
   * ignores, so callers must read the domain back (getMail) to confirm.
   */
  deleteMail(packageRef: string | number, domain: string, ids: string[]): Promise<void> {
    return mail.deleteMail(this.#ctx, packageRef, domain, ids);
  }

  // ---- cloud servers ------------------------------------------------------------------

  listCloudServers(): Promise<CloudServer[]> {
    return cloudServers.listCloudServers(this.#ctx);
  }

  /** One server and its reseller brand; undefined when it does not exist. */
  getCloudServer(id: string | number): Promise<CloudServerWithBrand | undefined> {
    return cloudServers.getCloudServer(this.#ctx, id);
  }

  /** Orders (and pays for) a managed cloud server -> its id. */
  orderCloudServer(request: OrderCloudServerRequest): Promise<number> {
    return cloudServers.orderCloudServer(this.#ctx, request);
  }
}
