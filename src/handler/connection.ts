import { ResellerClient } from '../client';
import { DEFAULT_API_URL, ENV } from '../protocol';
import { HandlerError } from './errors';

export interface Connection {
  baseUrl: string;
  apiKey: string;
  resellerId: string;
}

/** The API connection from the environment: the key is never a prop and never written anywhere. */
export function connectionFromEnv(env: NodeJS.ProcessEnv = process.env): Connection {
  const apiKey = env[ENV.apiKey];
  if (!apiKey) {
    throw new HandlerError(
      `${ENV.apiKey} is not set: export the reseller's general API key (for the local emulator: emulator-key)`,
    );
  }
  const baseUrl = (env[ENV.apiUrl] || DEFAULT_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new HandlerError(`${ENV.apiUrl} must be an http(s) URL, got "${baseUrl}"`);
  return { baseUrl, apiKey, resellerId: env[ENV.resellerId] || '*' };
}

export function clientFor(conn: Connection): ResellerClient {
  return new ResellerClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey, resellerId: conn.resellerId });
}
