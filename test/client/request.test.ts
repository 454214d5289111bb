import {
  ApiError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ResellerClient,
  ResellerClientOptions,
  ResponseShapeError,
  ServerError,
  UnauthorizedError,
  WriteOutcomeUnknownError,
  backoffDelay,
  parseRetryAfter,
} from '../../src/client';
import { ScriptedServer, apiError, closedPort, delay, json, startScriptedServer } from './scripted-server';

/** Retries, timeouts, unknown write outcomes, concurrency, shape checks and error mapping, against a scripted server. */

const KEY = 'test-key';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(url: string, extra: Partial<ResellerClientOptions> = {}): ResellerClient {
  return new ResellerClient({ baseUrl: url, apiKey: KEY, retryBaseDelayMs: 5, maxRetryDelayMs: 40, timeoutMs: 2000, ...extra });
}

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
async function thrown(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

const PACKAGE = { id: 7, created: '2024-01-01T00:00:00+00:00', enabled: true, name: 'a.com', names: ['a.com'], packageTypeName: 'Linux Unlimited', productSpec: null, stackUsers: [], typeRef: 811, packageLabels: [] };

describe('GET retries', () => {
  test('retries 503, 502, 504 and 429 with capped exponential backoff and full jitter, then succeeds', async () => {
    const statuses = [503, 502, 504, 429];
    server = await startScriptedServer((req, res, n) => {
      if (n <= statuses.length) apiError(res, statuses[n - 1], 'busy');
      else json(res, 200, [PACKAGE]);
    });
    const delays: number[] = [];
    const client = clientFor(server.url, {
      retryBaseDelayMs: 10,
      maxRetryDelayMs: 50,
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
        await delay(ms);
      },
    });
    const packages = await client.packages.list();
    expect(packages).toHaveLength(1);
    expect(server.requests).toHaveLength(5);
    expect(server.requests.every((r) => r.method === 'GET' && r.url === '/package')).toBe(true);
    // random 0.5 of min(50, 10 * 2^n): 5, 10, 20, 25 (capped).
    expect(delays).toEqual([5, 10, 20, 25]);
  });

  test('backoff is full jitter within [0, min(cap, base * 2^n)]', () => {
    expect(backoffDelay(0, 200, 10_000, () => 0)).toBe(0);
    expect(backoffDelay(3, 200, 10_000, () => 0.999999)).toBeCloseTo(1600, 0);
    expect(backoffDelay(10, 200, 10_000, () => 0.5)).toBe(5000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(4, 200, 10_000, Math.random);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(3200);
    }
  });

  test('Retry-After (seconds) is honoured: the retry waits at least that long', async () => {
    server = await startScriptedServer((req, res, n) => {
      if (n === 1) apiError(res, 429, 'slow down', { 'Retry-After': '1' });
      else json(res, 200, []);
    });
    const client = clientFor(server.url, { random: () => 0 });
    const started = Date.now();
    await client.packages.list();
    // Node's timers may fire a millisecond early by Date.now(): the margin is for that, not for slowness.
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(server.requests).toHaveLength(2);
  });

  test('Retry-After on 503 is honoured and capped at maxRetryAfterMs', async () => {
    server = await startScriptedServer((req, res, n) => {
      if (n === 1) apiError(res, 503, 'maintenance', { 'Retry-After': '3600' });
      else json(res, 200, []);
    });
    const delays: number[] = [];
    const client = clientFor(server.url, { maxRetryAfterMs: 30, sleep: async (ms) => void delays.push(ms) });
    await client.packages.list();
    expect(delays).toEqual([30]);
  });

  test('Retry-After accepts seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  test('gives up after maxRetries with ServerError (503) and RateLimitedError (429, with retryAfterMs)', async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url === '/package') apiError(res, 503, 'down for maintenance');
      else apiError(res, 429, 'too many requests', { 'Retry-After': '0' });
    });
    const client = clientFor(server.url, { maxRetries: 2 });
    const e1 = await thrown(() => client.packages.list());
    expect(e1).toBeInstanceOf(ServerError);
    expect(e1).toMatchObject({ status: 503, attempts: 3, operation: 'listPackages', method: 'GET', path: '/package', apiMessage: 'down for maintenance' });
    expect(e1.message).toBe('listPackages GET /package failed: 503 Service Unavailable: down for maintenance (gave up after 3 attempts)');
    expect(server.requests).toHaveLength(3);

    const e2 = await thrown(() => client.cloudServers.list());
    expect(e2).toBeInstanceOf(RateLimitedError);
    expect((e2 as RateLimitedError).retryAfterMs).toBe(0);
    expect((e2 as RateLimitedError).attempts).toBe(3);
    expect(server.requests).toHaveLength(6);
  });

  test('GET 500 is not retried', async () => {
    server = await startScriptedServer((req, res) => apiError(res, 500, 'boom'));
    const error = await thrown(() => clientFor(server!.url).packages.list());
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  test('a GET that gets no answer times out: NetworkError with timedOut, after retries', async () => {
    server = await startScriptedServer(() => 'hang');
    const client = clientFor(server.url, { timeoutMs: 150, maxRetries: 1 });
    const started = Date.now();
    const error = await thrown(() => client.packageTypes.list());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect(error.message).toBe('listPackageTypes GET /reseller/*/packageTypes failed: no response within 150 ms (timed out) (gave up after 2 attempts)');
    expect(server.requests).toHaveLength(2);
    // Without the timeout the request would hang for ever; the bound is loose so that a
    // busy machine cannot fail it, and tight enough to catch a default (minutes) in its place.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('the deadline bounds a slowly trickled response too (not just idle time)', async () => {
    server = await startScriptedServer(async (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
      for (let i = 0; i < 20 && !res.destroyed; i++) {
        await delay(40);
        res.write(' ');
      }
      res.end(']');
    });
    const client = clientFor(server.url, { timeoutMs: 200, maxRetries: 0 });
    const error = await thrown(() => client.packages.list());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
  });

  test('a dropped connection on a GET is retried', async () => {
    server = await startScriptedServer((req, res, n) => (n === 1 ? 'destroy' : json(res, 200, [])));
    await expect(clientFor(server.url).packages.list()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  test('ECONNREFUSED on a GET: retried, then NetworkError with code', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 2, log: (l) => lines.push(l) });
    const error = await thrown(() => client.packages.list());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', timedOut: false, attempts: 3, status: undefined });
    expect(lines).toHaveLength(3);
  });
});

describe('POST: never retried when the outcome is unknown', () => {
  const mailbox = { local: 'info', send: true, receive: true, password: 'pw-123456' };

  test('a POST answered by destroying the socket -> WriteOutcomeUnknownError, exactly one POST', async () => {
    server = await startScriptedServer(() => 'destroy');
    const error = await thrown(() => clientFor(server!.url).mail.createMailbox(1000001, 'example.com', mailbox));
    expect(error).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'connection-lost', timedOut: false, status: undefined, operation: 'createMailbox' });
    expect(error.message).toMatch(/^createMailbox POST \/package\/1000001\/email\/example\.com: outcome unknown: /);
    expect(error.message).toContain('may or may not have happened');
    expect(error.message).toContain('look the object up before trying again');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  test('a POST that times out -> WriteOutcomeUnknownError with timedOut, exactly one POST', async () => {
    server = await startScriptedServer(() => 'hang');
    const client = clientFor(server.url, { timeoutMs: 150 });
    const error = await thrown(() => client.packages.create({ type: 811, domainName: 'a.com', extraDomainNames: [] }));
    expect(error).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'timeout', timedOut: true });
    expect(server.requests).toHaveLength(1);
  });

  test.each([500, 502, 503, 504])('a POST answered %i -> WriteOutcomeUnknownError, exactly one POST', async (status) => {
    server = await startScriptedServer((req, res) => apiError(res, status, 'internal trouble'));
    const error = await thrown(() => clientFor(server!.url).cloudServers.order({
      configuration: { spec: 'small', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example.com' },
      periodMonths: 1, type: 'cloud-20i', forUser: 'stack-user:1',
    }));
    expect(error).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(error).toMatchObject({ reason: 'server-error', status, apiMessage: 'internal trouble', attempts: 1 });
    expect(error.message).toContain('may or may not have happened');
    expect(server.requests).toHaveLength(1);
  });

  test('a POST answered 429 is retried (the API did not act on it) and then succeeds', async () => {
    server = await startScriptedServer((req, res, n) => (n === 1 ? apiError(res, 429, 'slow', { 'Retry-After': '0' }) : json(res, 200, { result: 1234 })));
    const id = await clientFor(server.url).packages.create({ type: 811, domainName: 'a.com', extraDomainNames: [] });
    expect(id).toBe(1234);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[1].body).toBe(server.requests[0].body);
  });

  test('ECONNREFUSED on a POST is retried (never reached the server), then NetworkError, not unknown outcome', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 2, log: (l) => lines.push(l) });
    const error = await thrown(() => client.packages.delete(5));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(WriteOutcomeUnknownError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', attempts: 3 });
    expect(lines.filter((l) => l.startsWith('POST /reseller/*/deleteWeb -> ECONNREFUSED'))).toHaveLength(3);
  });

  test('a POST refused at first succeeds once the server is up, and the server sees one POST', async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`, {
      sleep: async () => {
        server ??= await startScriptedServer((req, res) => json(res, 200, { result: { '5': true } }), port);
      },
    });
    await expect(client.packages.delete(5)).resolves.toBe(true);
    expect(server!.requests).toHaveLength(1);
  });
});

describe('bounded concurrency', () => {
  test('never more than maxConcurrency requests in flight', async () => {
    server = await startScriptedServer(async (req, res) => {
      await delay(30);
      json(res, 200, []);
    });
    const client = clientFor(server.url, { maxConcurrency: 3 });
    const seen: number[] = [];
    const calls = Array.from({ length: 15 }, (_, i) => (i % 2 ? client.packages.list() : client.cloudServers.list()).then(() => seen.push(client.inFlight)));
    await Promise.all(calls);
    expect(server.requests).toHaveLength(15);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBe(3);
    expect(Math.max(...seen)).toBeLessThanOrEqual(3);
    expect(client.inFlight).toBe(0);
  });
});

describe('response shape checks', () => {
  test.each<[string, (c: ResellerClient) => Promise<unknown>, unknown, string]>([
    ['listPackages', (c) => c.packages.list(), { packages: [] }, 'listPackages: expected an array, got object (GET /package -> 200)'],
    ['listPackages item', (c) => c.packages.list(), [PACKAGE, { ...PACKAGE, id: true }], 'listPackages: expected [1].id to be an id (number or digit string), got boolean (GET /package -> 200)'],
    ['listUsers', (c) => c.users.list(), { contact: {}, grant_map: 'x' }, 'listUsers: expected grant_map to be an object, got string (GET /reseller/*/susers -> 200)'],
    // `forward` may be missing (assumed shape); `mailbox` may not.
    ['getMail', (c) => c.mail.get(1, 'a.com'), { name: 'a.com', forward: [] }, 'getMail: expected mailbox to be an array, got nothing (GET /package/1/email/a.com -> 200)'],
    ['listCloudServers', (c) => c.cloudServers.list(), [{ id: 1, name: 'x', configuration: null }], 'listCloudServers: expected [0].configuration to be an object, got null (GET /cloud_server -> 200)'],
    ['listPackageTypes', (c) => c.packageTypes.list(), [{ id: 1, label: 'x', platform: 'solaris' }], 'listPackageTypes: expected [0].platform to be "linux" or "windows", got another string (GET /reseller/*/packageTypes -> 200)'],
  ])('%s: a surprise is a ResponseShapeError naming the operation', async (_name, call, body, message) => {
    server = await startScriptedServer((req, res) => json(res, 200, body));
    const error = await thrown(() => call(clientFor(server!.url)));
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toBe(message);
  });

  test('a POST response without "result" is a shape error that says the write probably happened', async () => {
    server = await startScriptedServer((req, res) => json(res, 200, { id: 5 }));
    const error = await thrown(() => clientFor(server!.url).packages.create({ type: 811, domainName: 'a.com', extraDomainNames: [] }));
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toBe(
      'createPackage: expected an object with a "result" member, got object (POST /reseller/*/addWeb -> 200); the write probably happened: look the object up before trying again',
    );
    expect((error as ResponseShapeError).writeMayHaveHappened).toBe(true);
  });

  test('non-JSON and empty bodies are shape errors, not crashes', async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url === '/package') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>hello</html>');
      } else {
        res.writeHead(200);
        res.end();
      }
    });
    const client = clientFor(server.url);
    expect((await thrown(() => client.packages.list())).message).toBe('listPackages: expected a JSON body, got "text/html" text (GET /package -> 200)');
    expect((await thrown(() => client.cloudServers.list())).message).toBe('listCloudServers: expected a JSON body, got an empty body (GET /cloud_server -> 200)');
  });

  test('an HTML error page (e.g. from a proxy) still maps to the status class, without an apiMessage', async () => {
    server = await startScriptedServer((req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html>not here</html>');
    });
    const error = await thrown(() => clientFor(server!.url).mail.get(1, 'a.com'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as ApiError).apiMessage).toBeUndefined();
  });
});

describe('error mapping', () => {
  test.each<[number, new (...a: never[]) => ApiError, string]>([
    [400, BadRequestError, '400 Bad Request'],
    [401, UnauthorizedError, '401 Unauthorized'],
    [402, PaymentRequiredError, '402 Payment Required'],
    [404, NotFoundError, '404 Not Found'],
    [409, ConflictError, '409 Conflict'],
  ])('%i -> %p with the API message, not retried', async (status, cls, text) => {
    server = await startScriptedServer((req, res) => apiError(res, status, 'Mailbox info already exists'));
    const error = await thrown(() =>
      clientFor(server!.url).mail.createMailbox(1000001, 'example.com', { local: 'info', send: true, receive: true, password: 'x1y2z3w4' }),
    );
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe(cls.name);
    expect(error).toMatchObject({ status, operation: 'createMailbox', method: 'POST', path: '/package/1000001/email/example.com', apiMessage: 'Mailbox info already exists' });
    expect(error.message).toBe(`createMailbox POST /package/1000001/email/example.com failed: ${text}: Mailbox info already exists`);
    expect(server.requests).toHaveLength(1);
  });

  test('getPackage: 404 for the object -> undefined; 404 "No route handler" -> NotFoundError', async () => {
    server = await startScriptedServer((req, res) =>
      req.url === '/package/gone.example' ? apiError(res, 404, 'Package not found') : apiError(res, 404, 'No route handler'),
    );
    const client = clientFor(server.url);
    await expect(client.packages.get('gone.example')).resolves.toBeUndefined();
    await expect(client.packages.get(12)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.cloudServers.get(3)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('errors serialise to their facts only', async () => {
    server = await startScriptedServer((req, res) => apiError(res, 409, 'Domain already on package 12'));
    const error = await thrown(() => clientFor(server!.url).packages.create({ type: 811, domainName: 'a.com', extraDomainNames: [] }));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ConflictError',
      message: 'createPackage POST /reseller/*/addWeb failed: 409 Conflict: Domain already on package 12',
      status: 409,
      operation: 'createPackage',
      method: 'POST',
      path: '/reseller/*/addWeb',
      apiMessage: 'Domain already on package 12',
      attempts: 1,
    });
    expect((error as Error & { cause?: unknown }).cause).toBeUndefined();
  });
});

describe('logging and construction', () => {
  test('log: one line per HTTP attempt with method, path, status and duration', async () => {
    server = await startScriptedServer((req, res, n) => (n === 1 ? apiError(res, 503, 'x') : json(res, 200, [])));
    const lines: string[] = [];
    await clientFor(server.url, { log: (l) => lines.push(l), random: () => 0.5 }).packages.list();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/package -> 503 \(\d+ ms\); retry 1 of 4 in 3 ms$/);
    expect(lines[1]).toMatch(/^GET \/package -> 200 \(\d+ ms\)$/);
  });

  test('a throwing logger does not break requests', async () => {
    server = await startScriptedServer((req, res) => json(res, 200, []));
    const client = clientFor(server.url, { log: () => { throw new Error('log broken'); } });
    await expect(client.packages.list()).resolves.toEqual([]);
  });

  test('options are validated', () => {
    expect(() => new ResellerClient({ baseUrl: 'ftp://x', apiKey: 'k' })).toThrow(TypeError);
    expect(() => new ResellerClient({ baseUrl: 'http://u:p@x', apiKey: 'k' })).toThrow(/credentials/);
    expect(() => new ResellerClient({ baseUrl: 'http://x', apiKey: '' })).toThrow(TypeError);
    expect(() => new ResellerClient({ baseUrl: 'http://x', apiKey: 'k', maxConcurrency: 0 })).toThrow(RangeError);
    expect(() => new ResellerClient({ baseUrl: 'http://x', apiKey: 'k', resellerId: '../x' })).toThrow(TypeError);
    const client = new ResellerClient({ baseUrl: 'http://x:1/', apiKey: 'k', resellerId: '42' });
    expect(client.toJSON()).toEqual({ baseUrl: 'http://x:1', resellerId: '42' });
  });

  test('bad arguments are TypeErrors before anything is sent', async () => {
    server = await startScriptedServer((req, res) => json(res, 200, {}));
    const client = clientFor(server.url);
    await expect(client.packages.get('')).rejects.toThrow(TypeError);
    await expect(client.packages.delete('12a')).rejects.toThrow(/deletePackage: package id must be/);
    await expect(client.users.setPackageGrant('user:1', 5, true)).rejects.toThrow(/stack-user/);
    await expect(client.mail.delete(1, 'a.com', [])).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });
});
