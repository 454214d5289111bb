import { ENV, MISSING_API_URL } from '../protocol/handler-contract';
import { ResellerClient, ResellerClientOptions } from './client';

/** Where and as whom to connect: from the environment (the key is never a prop and never written anywhere). */
export interface Connection {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly resellerId: string;
  /** `RESELLER_MAX_RETRIES`, when set: retries of a request after its first attempt. */
  readonly maxRetries?: number;
}

/** The environment lacks or misstates the connection (`RESELLER_API_KEY`, `RESELLER_API_URL`). */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** The API connection from `RESELLER_API_URL` (required), `RESELLER_API_KEY` (required) and `RESELLER_ID`. */
export function connectionFromEnv(env: NodeJS.ProcessEnv = process.env): Connection {
  if (!env[ENV.apiUrl]) throw new ConnectionError(MISSING_API_URL);
  const apiKey = env[ENV.apiKey];
  if (!apiKey) {
    throw new ConnectionError(
      `${ENV.apiKey} is not set: export the reseller's general API key (for the local emulator: emulator-key)`,
    );
  }
  const baseUrl = env[ENV.apiUrl]!.replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new ConnectionError(`${ENV.apiUrl} must be an http(s) URL, got "${baseUrl}"`);
  const retries = env[ENV.maxRetries];
  const maxRetries = retries === undefined || retries.trim() === '' ? undefined : Number(retries);
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0 && maxRetries <= 100)) {
    throw new ConnectionError(`${ENV.maxRetries} must be a whole number from 0 to 100, got "${retries}"`);
  }
  return { baseUrl, apiKey, resellerId: env[ENV.resellerId] || '*', ...(maxRetries !== undefined ? { maxRetries } : {}) };
}

/** A client for a connection (its retries unless `options` sets them). */
export function clientFor(conn: Connection, options: Partial<ResellerClientOptions> = {}): ResellerClient {
  const retries = conn.maxRetries !== undefined ? { maxRetries: conn.maxRetries } : {};
  return new ResellerClient({ ...retries, ...options, baseUrl: conn.baseUrl, apiKey: conn.apiKey, resellerId: conn.resellerId });
}

/** `ResellerClient.fromEnv()`: a client for the connection in the environment. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env, options: Partial<ResellerClientOptions> = {}): ResellerClient {
  return clientFor(connectionFromEnv(env), options);
}
