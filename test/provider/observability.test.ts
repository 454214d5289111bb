import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { coreModel } from '../../src/provider/kind-resources';
import { providerHandlers } from '../../src/provider/provider';
import { PROVIDER_TYPE } from '../../src/provider/provider-config';
import type { LogLevel } from '../../src/provider/transport/log';
import { encodeDynamic } from '../../src/provider/wire/values';

/**
 * What the provider tells the API and the log about itself: the User-Agent of every
 * request names this library's, Terraform's and Node's versions; at debug each request
 * attempt is one log line with its facts and nothing secret; at info the version once.
 * The API here is a small HTTP server that records what it receives.
 */

const KEY = 'observability-key-Hs93kd';
let server: Server;
let url: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('sends a User-Agent with the versions, logs each request at debug without the key, and its version once at info', async () => {
  const lines: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];
  const logger = { log: (level: LogLevel, message: string, fields: Record<string, unknown> = {}) => void lines.push({ level, message, fields }) };
  const env = { RESELLER_PROVIDER_VERSION: '9.8.7' };
  const handlers = providerHandlers(coreModel(env), logger, env);
  const config = encodeDynamic({
    api_url: url, api_key: KEY, reseller_id: null, max_retries: 0, request_timeout: '5s', confirm_timeout: null, poll_interval: null,
  }, PROVIDER_TYPE);
  for (let i = 0; i < 2; i++) expect(await handlers.ConfigureProvider({ terraformVersion: '1.11.4', config })).toEqual({ diagnostics: [] });
  const imported = await handlers.ImportResourceState({ typeName: 'reseller_package', id: 'ua-example.com' });
  expect(imported.diagnostics?.[0]?.summary).toMatch(/no package "ua-example.com" in the account/);

  expect(seen.length).toBeGreaterThan(0);
  for (const headers of seen) expect(headers['user-agent']).toBe(`cdktf-reseller-hosting/9.8.7 terraform/1.11.4 node/${process.versions.node}`);

  const requests = lines.filter((l) => l.message.startsWith('API '));
  expect(requests).toHaveLength(seen.length);
  for (const line of requests) {
    expect(line.level).toBe('debug');
    expect(line.fields).toEqual({ method: 'GET', path: expect.stringMatching(/^\//), status: 200, durationMs: expect.any(Number), attempt: 1 });
  }
  const versions = lines.filter((l) => l.level === 'info' && /reseller provider/.test(l.message));
  expect(versions).toEqual([{ level: 'info', message: 'reseller provider 9.8.7', fields: { version: '9.8.7', terraform_version: '1.11.4', node_version: process.versions.node } }]);
  expect(JSON.stringify(lines)).not.toContain(KEY);
  expect(JSON.stringify(lines)).not.toContain(Buffer.from(KEY).toString('base64'));
});
