import { Api, Harness, KEY, sleep, startHarness, token } from './helpers';
import * as http from 'node:http';
import { isLoopback, isLoopbackHost } from '../../src/emulator/control';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness({ provisionDelayMs: 0 });
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(() => api.control('POST', 'reset'));

describe('state and reset', () => {
  it('GET state is the snapshot; reset goes back to fixtures and keeps the key', async () => {
    await api.addWeb('r.example');
    await api.control('POST', 'faults', { path: '^/nothing$', status: 500 });
    const state = await api.control('GET', 'state');
    expect(state.status).toBe(200);
    expect({ ...state.body, now: '' }).toEqual({ ...h.emu.snapshot(), now: '' });
    expect(state.body).toMatchObject({ version: 1, defaultAccountId: 989900, settings: { provisionDelayMs: 0 } });
    expect(state.body.accounts[0]).toMatchObject({ id: 989900, isDefault: true, balance: 1000, brand: null });
    expect(state.body.accounts[0].packages).toHaveLength(1);

    expect((await api.control('POST', 'reset')).body).toEqual({ ok: true });
    const after = h.emu.snapshot();
    expect(after.accounts).toHaveLength(1);
    expect(after.accounts[0].packages).toEqual([]);
    expect((await api.control('GET', 'faults')).body.rules).toEqual([]);
    expect((await api.control('GET', 'requests')).body).toEqual([]);
    expect(await api.addWeb('r.example')).toBe(1000001);
  });

  it('the state dump holds no key', async () => {
    const text = JSON.stringify((await api.control('GET', 'state')).body);
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/keySha256|apiKey/);
  });

  it('404 "No route handler" for an unknown control path', async () => {
    const res = await api.control('GET', 'nope');
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('No route handler for GET /__emulator/nope');
  });
});

describe('request log', () => {
  it('logs every API request (401s with account null), never bodies or headers; DELETE clears it', async () => {
    await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'log.example', label: 'secret-label' });
    await api.get('/package', { key: null });
    await api.get('/package', { key: 'wrong-key' });
    const log = await api.control('GET', 'requests');
    expect(log.body).toEqual([
      { time: expect.any(String), method: 'POST', path: '/reseller/*/addWeb', status: 200, durationMs: expect.any(Number), requestBytes: expect.any(Number), responseBytes: 18, account: 989900, fault: null },
      expect.objectContaining({ method: 'GET', path: '/package', status: 401, account: null }),
      expect.objectContaining({ method: 'GET', path: '/package', status: 401, account: null }),
    ]);
    expect(log.body[0].requestBytes).toBeGreaterThan(40);
    expect(JSON.stringify(log.body)).not.toMatch(/secret-label|Bearer|wrong-key/);
    expect((await api.control('DELETE', 'requests')).body).toEqual({ ok: true });
    expect((await api.control('GET', 'requests')).body).toEqual([]);
  });
});

describe('faults', () => {
  it('status: answers without performing the request, with Retry-After when asked', async () => {
    const set = await api.control('POST', 'faults', { method: 'post', path: '^/reseller/[^/]+/addWeb$', status: 503, retryAfterS: 7 });
    expect(set.body).toMatchObject({ ok: true, rules: 1 });
    const res = await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'f.example' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body).toEqual({ error: { message: expect.stringMatching(/injected/) } });
    expect((await api.get('/package')).body).toEqual([]); // not performed, and GET not matched
    const log = (await api.control('GET', 'requests')).body;
    expect(log[0]).toMatchObject({ status: 503, fault: 'status', account: 989900 });
    expect((await api.control('DELETE', 'faults')).body).toEqual({ ok: true, released: 0 });
    expect((await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'f.example' })).status).toBe(200);
  });

  it('429 without Retry-After unless retryAfterS is given', async () => {
    await api.control('POST', 'faults', { path: '^/package$', status: 429 });
    const res = await api.get('/package');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('times: fires at most that many times', async () => {
    await api.control('POST', 'faults', { rules: [{ path: '^/package$', status: 500, times: 2 }] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get('/package')).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect((await api.control('GET', 'faults')).body.rules[0]).toMatchObject({ times: 2, fired: 2 });
  });

  it('probability with a seed is reproducible', async () => {
    const run = async () => {
      await api.control('POST', 'faults', { rules: [{ path: '^/package$', status: 502, probability: 0.5 }], seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await api.get('/package')).status);
      return out;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.filter((s) => s === 502).length).toBeGreaterThan(3);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3);
    await api.control('POST', 'faults', { rules: [{ path: '^/package$', status: 502, probability: 0 }] });
    expect((await api.get('/package')).status).toBe(200);
  });

  it('latency: delays the answer', async () => {
    await api.control('POST', 'faults', { path: '^/package$', latencyMs: 250 });
    const started = Date.now();
    expect((await api.get('/package')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect((await api.control('GET', 'requests')).body[0].fault).toBe('latency');
  });

  it('DELETE faults lets held requests go on, and they are performed before it answers', async () => {
    expect((await api.control('POST', 'faults', { path: '/addWeb$', method: 'POST', latencyMs: 600_000 })).status).toBe(200);
    await api.control('DELETE', 'requests');
    const held = api.post('/reseller/*/addWeb', { type: '812', domain_name: 'held.example' });
    // Wait until the emulator holds it: its fault fired (counted in GET faults).
    for (let fired = 0; fired < 1; await sleep(5)) fired = (await api.control('GET', 'faults')).body.rules[0].fired;
    const cleared = await api.control('DELETE', 'faults');
    expect(cleared.body).toEqual({ ok: true, released: 1 });
    // Already performed when DELETE answered: listed, and in the request log.
    expect((await api.control('GET', 'requests')).body.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([['/reseller/*/addWeb', 200]]);
    expect((await held).status).toBe(200);
    expect(h.emu.snapshot().accounts[0].packages.map((p) => p.name)).toContain('held.example');
  });

  it('dropAfterCommit: the client sees a socket error, but the write happened and was saved', async () => {
    await api.control('POST', 'faults', { method: 'POST', path: 'addWeb', dropAfterCommit: true, times: 1 });
    await expect(api.post('/reseller/*/addWeb', { type: '811', domain_name: 'dropped.example' })).rejects.toThrow();
    const list = await api.get('/package');
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['dropped.example']);
    const log = (await api.control('GET', 'requests')).body;
    expect(log[0]).toMatchObject({ status: 200, fault: 'drop', responseBytes: 0 });
  });

  it('faults fire before authentication (a load balancer error has no key check)', async () => {
    await api.control('POST', 'faults', { path: '.*', status: 503, times: 1 });
    expect((await api.get('/package', { key: null })).status).toBe(503);
  });

  it.each([
    [{ status: 500 }, /path/],
    [{ path: '(', status: 500 }, /regular expression/],
    [{ path: 'x' }, /does nothing/],
    [{ path: 'x', status: 200 }, /status/],
    [{ path: 'x', status: 500, probability: 2 }, /probability/],
    [{ path: 'x', status: 500, dropAfterCommit: true }, /exclude/],
    [{ path: 'x', latencyMs: 5, retryAfterS: 1 }, /needs status/],
    [{ path: 'x', status: 500, colour: 'red' }, /unknown field/],
    [{ rules: {} }, /rules must be an array/],
  ])('400 for the rule %j', async (rule, message) => {
    const res = await api.control('POST', 'faults', rule);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });
});

describe('settings, balance, brand', () => {
  it('sets the provisioning delay', async () => {
    expect((await api.control('POST', 'settings', { provisionDelayMs: 1234 })).body).toEqual({ ok: true, settings: { provisionDelayMs: 1234 } });
    expect(h.emu.snapshot().settings.provisionDelayMs).toBe(1234);
    expect((await api.control('POST', 'settings', { provisionDelayMs: -1 })).status).toBe(400);
    await api.control('POST', 'settings', { provisionDelayMs: 0 });
  });

  it('sets a balance and a brand on a named account; 404 for an unknown account', async () => {
    await api.control('POST', 'accounts', { id: 42, apiKey: 'k42' });
    expect((await api.control('POST', 'balance', { account: 42, balance: '10.50' })).body).toEqual({ ok: true, account: 42, balance: 10.5 });
    expect((await api.control('POST', 'brand', { account: 42, name: 'B42', logoUrl: '' })).status).toBe(200);
    const acc = h.emu.snapshot().accounts.find((a) => a.id === 42);
    expect(acc).toMatchObject({ balance: 10.5, brand: { name: 'B42', logoUrl: '' } });
    expect((await api.control('POST', 'brand', { account: 43, name: 'x', logoUrl: '' })).status).toBe(404);
    expect((await api.control('POST', 'brand', { name: '', logoUrl: '' })).status).toBe(400);
    expect((await api.control('POST', 'brand', { name: 'x', logoUrl: 'javascript:alert(1)' })).status).toBe(400);
  });
});

describe('loopback only', () => {
  it('recognises loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['192.0.2.1', '::ffff:10.0.0.1', '::2', '', undefined, '1127.0.0.1']) expect(isLoopback(a)).toBe(false);
  });

  // The wiring (server.ts answers 403 when !isLoopback(req.socket.remoteAddress)) is not
  // exercised over the network: this workplace allows test traffic to loopback only.

  it('recognises loopback host names (with or without a port)', () => {
    for (const h of ['127.0.0.1:8080', 'localhost', 'LOCALHOST:1', 'app.localhost', 'localhost.', '[::1]:8080', '127.9.9.9', undefined]) {
      expect({ h, ok: isLoopbackHost(h) }).toEqual({ h, ok: true });
    }
    for (const h of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '127.0.0.1.evil.example', '[::2]:80', '10.0.0.1', '']) {
      expect({ h, ok: isLoopbackHost(h) }).toEqual({ h, ok: false });
    }
  });

  it('a request from this machine under another host name (DNS rebinding) gets 403 from the control API and the page, and the API still answers', async () => {
    const request = (path: string, host: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${h.emu.url}${path}`, { headers: { host, ...headers } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const port = new URL(h.emu.url).port;
    const rebound = await request('/__emulator/state', `attacker.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/loopback name only/);
    expect(rebound.body).not.toMatch(/accounts/);
    const page = await request('/accounts/989900', `attacker.example:${port}`);
    expect(page.status).toBe(403);
    expect(page.body).not.toMatch(/989900/);
    // Positive controls: the same requests under a loopback name are answered.
    expect((await request('/__emulator/state', `localhost:${port}`)).status).toBe(200);
    expect((await request('/accounts/989900', `127.0.0.1:${port}`)).status).toBe(200);
    // The API itself is guarded by its key, not by the host name.
    expect((await request('/package', `attacker.example:${port}`, { authorization: `Bearer ${token(KEY)}` })).status).toBe(200);
  });

  it('stop() ends pending latency waits promptly', async () => {
    const short = await startHarness();
    await short.api.control('POST', 'faults', { path: '.*', latencyMs: 60_000 });
    const pending = short.api.get('/package').catch((e: unknown) => e);
    await sleep(50);
    const started = Date.now();
    await short.emu.stop();
    // The wait was 60 s: a bound far below it and far above any busy machine's slowness.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(String(await pending)).toMatch(/fetch failed/);
  });
});
