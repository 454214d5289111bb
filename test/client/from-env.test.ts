import { ConnectionError, ServerError } from '../../src/client';
import { clientFor, connectionFromEnv } from '../../src/client/from-env';
import { apiError, ScriptedServer, startScriptedServer } from './scripted-server';

/**
 * The connection every env-driven command uses (handler, drift, import, sweep): its
 * RESELLER_MAX_RETRIES, like the provider block's max_retries, sets how often a request
 * is tried again.
 */
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = (extra: NodeJS.ProcessEnv) => ({ RESELLER_API_KEY: 'k', RESELLER_API_URL: server?.url ?? 'http://127.0.0.1:1', ...extra });

test('RESELLER_MAX_RETRIES sets the retries of a client for the connection', async () => {
  server = await startScriptedServer((_req, res) => apiError(res, 503, 'down'));
  const conn = connectionFromEnv(env({ RESELLER_MAX_RETRIES: '1' }));
  expect(conn.maxRetries).toBe(1);
  const client = clientFor(conn, { retryBaseDelayMs: 1, maxRetryDelayMs: 2 });
  await expect(client.packages.list()).rejects.toThrow(ServerError);
  expect(server.requests).toHaveLength(2); // the first attempt and one retry
  client.close();
});

test('without it the client keeps its default; a bad value is refused, naming the variable', () => {
  expect(connectionFromEnv(env({})).maxRetries).toBeUndefined();
  expect(connectionFromEnv(env({ RESELLER_MAX_RETRIES: '' })).maxRetries).toBeUndefined();
  for (const bad of ['-1', '2.5', 'many', '101']) {
    expect(() => connectionFromEnv(env({ RESELLER_MAX_RETRIES: bad }))).toThrow(ConnectionError);
    expect(() => connectionFromEnv(env({ RESELLER_MAX_RETRIES: bad }))).toThrow(`RESELLER_MAX_RETRIES must be a whole number from 0 to 100, got "${bad}"`);
  }
});
