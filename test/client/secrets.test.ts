import { inspect } from 'node:util';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ResellerClient,
  ResponseShapeError,
  ServerError,
  UnauthorizedError,
  WriteOutcomeUnknownError,
} from '../../src/client';
import { ScriptedServer, apiError, closedPort, json, startScriptedServer } from './scripted-server';

/**
 * Neither the API key (raw or base64) nor a mailbox password may appear in any error
 * message, property, stack, inspection or serialisation, nor in a log line, nor in an
 * inspection of the client, whatever the server answers (even when it echoes them).
 */

const API_KEY = 'zz-SECRET-api-key-7c1e9b04d2';
const PASSWORD = 'Pw-XYZZY-correct-horse-42';
const SECRETS = [
  API_KEY,
  Buffer.from(API_KEY).toString('base64'),
  Buffer.from(`${API_KEY}\n`).toString('base64'),
  `Bearer ${Buffer.from(API_KEY).toString('base64')}`,
  PASSWORD,
  Buffer.from(PASSWORD).toString('base64'),
];

let server: ScriptedServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    // A hostile echo: the request body (with the password when the request carried one),
    // the Authorization header and the raw key.
    const echo = `you sent ${req.body} with ${req.headers.authorization} key ${API_KEY}`;
    switch (req.url) {
      case '/package/1/email/bad.example':
        return apiError(res, 400, `password ${PASSWORD} is too weak; ${echo}`);
      case '/package/1/email/unauth.example':
        return apiError(res, 401, `unknown key ${API_KEY} (${req.headers.authorization})`);
      case '/reseller/*/addCloudServer':
        return apiError(res, 402, `balance too low; ${echo}`);
      case '/package/1/email/missing.example':
        return apiError(res, 404, `no such domain; ${echo}`);
      case '/package/1/email/dup.example':
        return apiError(res, 409, `Mailbox info already exists; ${echo}`);
      case '/package/1/email/busy.example':
        return apiError(res, 429, `slow down; ${echo}`, { 'Retry-After': '0' });
      case '/package':
        return apiError(res, 503, `down; ${echo}`);
      case '/package/1/email/boom.example':
        return apiError(res, 500, `crashed handling ${echo}`);
      case '/package/1/email/drop.example':
        return 'destroy';
      case '/package/1/email/slow.example':
        return 'hang';
      case '/package/1/email/weird.example':
        return json(res, 200, { result: { result: PASSWORD, name: API_KEY } });
      case '/cloud_server':
        return json(res, 200, { servers: PASSWORD });
      default:
        return apiError(res, 404, 'No route handler');
    }
  });
});
afterAll(() => server.close());

function makeClient(baseUrl: string): ResellerClient {
  return new ResellerClient({
    baseUrl,
    apiKey: API_KEY,
    timeoutMs: 200,
    maxRetries: 1,
    retryBaseDelayMs: 1,
    maxRetryDelayMs: 2,
    log: (line) => lines.push(line),
  });
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) {
    if (text.includes(secret)) throw new Error(`${where} contains a secret (${secret.slice(0, 6)}…): ${text.slice(0, 300)}`);
  }
}

function assertErrorClean(error: unknown, where: string): void {
  const err = error as Error & { cause?: unknown };
  assertNoSecret(err.message, `${where}: message`);
  assertNoSecret(String(err.stack), `${where}: stack`);
  assertNoSecret(inspect(err, { depth: 10 }), `${where}: util.inspect`);
  assertNoSecret(inspect(err, { depth: 10, showHidden: true }), `${where}: util.inspect showHidden`);
  assertNoSecret(JSON.stringify(err), `${where}: JSON.stringify`);
  assertNoSecret(JSON.stringify(Object.getOwnPropertyNames(err).map((k) => String((err as unknown as Record<string, unknown>)[k]))), `${where}: own properties`);
  expect(err.cause).toBeUndefined();
}

test('no error of any class, log line or inspection reveals the key or a password', async () => {
  const client = makeClient(server.url);
  const mailbox = { local: 'info', send: true, receive: true, password: PASSWORD };
  const cases: Array<[string, () => Promise<unknown>, new (...a: never[]) => Error]> = [
    ['400 createMailbox', () => client.mail.createMailbox(1, 'bad.example', mailbox), BadRequestError],
    ['401 createMailbox', () => client.mail.createMailbox(1, 'unauth.example', mailbox), UnauthorizedError],
    ['402 orderCloudServer', () => client.cloudServers.order({ configuration: { spec: 'small', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'x.example.com' }, periodMonths: 1, type: 'cloud-20i', forUser: 'stack-user:1' }), PaymentRequiredError],
    ['404 getMail', () => client.mail.get(1, 'missing.example'), NotFoundError],
    ['409 createMailbox', () => client.mail.createMailbox(1, 'dup.example', mailbox), ConflictError],
    ['429 createMailbox', () => client.mail.createMailbox(1, 'busy.example', mailbox), RateLimitedError],
    ['503 listPackages', () => client.packages.list(), ServerError],
    ['500 createMailbox (unknown outcome)', () => client.mail.createMailbox(1, 'boom.example', mailbox), WriteOutcomeUnknownError],
    ['dropped updateMailbox (unknown outcome)', () => client.mail.updateMailbox(1, 'drop.example', { id: 'm1', password: PASSWORD }), WriteOutcomeUnknownError],
    ['timed-out createMailbox (unknown outcome)', () => client.mail.createMailbox(1, 'slow.example', mailbox), WriteOutcomeUnknownError],
    ['timed-out getMail', () => client.mail.get(1, 'slow.example'), NetworkError],
    ['shape createMailbox', () => client.mail.createMailbox(1, 'weird.example', mailbox), ResponseShapeError],
    ['shape listCloudServers', () => client.cloudServers.list(), ResponseShapeError],
    ['bad argument createMailbox', () => client.mail.createMailbox(1, 'bad.example', { ...mailbox, local: '' }), TypeError],
  ];
  const refused = makeClient(`http://127.0.0.1:${await closedPort()}`);
  cases.push(['refused createMailbox', () => refused.mail.createMailbox(1, 'a.example', mailbox), NetworkError]);

  const seen = new Set<string>();
  for (const [name, call, cls] of cases) {
    let error: unknown;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    expect([name, error]).toEqual([name, expect.any(cls)]);
    seen.add((error as Error).constructor.name);
    assertErrorClean(error, name);
  }
  for (const cls of [ApiError, BadRequestError, UnauthorizedError, PaymentRequiredError, NotFoundError, ConflictError, RateLimitedError, ServerError, NetworkError, WriteOutcomeUnknownError, ResponseShapeError]) {
    if (cls !== ApiError) expect(seen).toContain(cls.name);
  }

  // The API's error text is kept, with the secrets blanked out.
  const bad = (await client.mail.createMailbox(1, 'bad.example', mailbox).catch((e: unknown) => e)) as ApiError;
  expect(bad.apiMessage).toMatch(/^password \[redacted\] is too weak/);

  expect(lines.length).toBeGreaterThan(cases.length);
  for (const line of lines) assertNoSecret(line, 'log line');

  for (const c of [client, refused]) {
    assertNoSecret(inspect(c, { depth: 10 }), 'util.inspect(client)');
    assertNoSecret(inspect(c, { depth: 10, showHidden: true, customInspect: false }), 'util.inspect(client, raw)');
    assertNoSecret(JSON.stringify(c), 'JSON.stringify(client)');
    assertNoSecret(String(c), 'String(client)');
  }
  // The nouns share the client's context (and so its transport) in a private field.
  for (const noun of [client.users, client.packageTypes, client.packages, client.mail, client.dns, client.cloudServers]) {
    assertNoSecret(inspect(noun, { depth: 10, showHidden: true }), 'util.inspect(noun)');
    assertNoSecret(JSON.stringify(noun), 'JSON.stringify(noun)');
  }
  expect(inspect(client)).toBe(`ResellerClient { baseUrl: '${server.url}', resellerId: '*' }`);
  expect(JSON.parse(JSON.stringify(client))).toEqual({ baseUrl: server.url, resellerId: '*' });
});

test('a successful createMailbox result does not carry the echoed password', async () => {
  const echo = await startScriptedServer((req, res) =>
    json(res, 200, { result: { result: [{ type: 'mailbox', id: 'info', generatedId: null, password: PASSWORD }], name: 'a.example' } }),
  );
  try {
    const result = await makeClient(echo.url).mail.createMailbox(1, 'a.example', { local: 'info', send: true, receive: true, password: PASSWORD });
    assertNoSecret(inspect(result, { depth: 10 }), 'result');
    assertNoSecret(JSON.stringify(result), 'result');
  } finally {
    await echo.close();
  }
});
