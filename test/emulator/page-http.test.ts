import { Api, Harness, startHarness, token } from './helpers';

/**
 * The control-panel page over HTTP (no browser): where it is mounted, that the API
 * around it is unchanged, and that what it shows is escaped and secret-free.
 */
const KEY = 'page-test-secret-key';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness({ apiKey: KEY, provisionDelayMs: 0 });
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(() => api.control('POST', 'reset'));

const get = (path: string, init: RequestInit = {}) => fetch(`${h.emu.url}${path}`, { redirect: 'manual', ...init });

it('GET / redirects to the only account; its page is HTML with a strict CSP', async () => {
  const root = await get('/');
  expect(root.status).toBe(302);
  expect(root.headers.get('location')).toBe('/accounts/989900');
  const page = await get('/accounts/989900');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src http: https:;/);
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  const text = await page.text();
  expect(text).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(text).toContain('<h1>Account 989900');
});

it('HEAD gives the headers without a body', async () => {
  const res = await get('/accounts/989900', { method: 'HEAD' });
  expect(res.status).toBe(200);
  expect(Number(res.headers.get('content-length'))).toBeGreaterThan(1000);
  expect(await res.text()).toBe('');
});

it('the API around the page is unchanged: other methods and paths are API requests', async () => {
  // Without a key: 401 as before, for every method on / and for non-page paths.
  for (const [method, path] of [['POST', '/'], ['PUT', '/accounts/989900'], ['GET', '/accounts'], ['GET', '/nowhere']]) {
    const res = await api.call(method, path, undefined, { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { message: expect.any(String) } });
  }
  // With the key: the documented "No route handler" 404.
  for (const [method, path] of [['POST', '/'], ['DELETE', '/'], ['POST', '/accounts/989900'], ['GET', '/accounts'], ['GET', '/accounts/'], ['GET', '/accounts/989900/packages'], ['GET', '/nowhere']]) {
    const res = await api.call(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { message: `No route handler for ${method} ${path}` } });
  }
  expect((await api.get('/package')).status).toBe(200);
});

it('page requests are not API requests: no request log entry, no fault injection', async () => {
  await api.control('POST', 'faults', { path: '.*', status: 503 });
  expect((await get('/accounts/989900')).status).toBe(200);
  expect((await get('/')).status).toBe(302);
  expect((await api.get('/package')).status).toBe(503);
  const log = (await api.control('GET', 'requests')).body as Array<{ path: string }>;
  expect(log.map((e) => e.path)).toEqual(['/package']);
});

it('several accounts: / lists them; an unknown or malformed id is a 404 page', async () => {
  await api.control('POST', 'accounts', { id: 555000, apiKey: 'other-key' });
  const list = await get('/');
  expect(list.status).toBe(200);
  const text = await list.text();
  expect(text).toContain('<a href="/accounts/989900">Account 989900</a>');
  expect(text).toContain('<a href="/accounts/555000">Account 555000</a>');
  for (const id of ['1', 'abc', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '%E0%A4%A']) {
    const res = await get(`/accounts/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const body = await res.text();
    expect(body).toContain('<h1>Not found</h1>');
    expect(body).not.toContain('<script>');
  }
});

it('shows what the API created, escaped, and never the key', async () => {
  const hostile = '<script>alert(1)</script>';
  await api.control('POST', 'brand', { name: `Acme ${hostile}`, logoUrl: 'https://acme.example/logo.png' });
  const id = await api.addWeb('shop.example', { label: `Shop ${hostile}`, extra_domain_names: ['www.shop.example'], stackUser: 'stack-user:989901' });
  const mb = await api.post(`/package/${id}/email/shop.example`, { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'Mailbox-Passw0rd' } } });
  expect(mb.status).toBe(200);
  await api.post(`/package/${id}/email/shop.example`, { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
  await api.post('/reseller/*/susers', { newUser: { email: 'evil@example.org', person_name: `Eve ${hostile}` } });
  const order = await api.post('/reseller/*/addCloudServer', {
    configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.shop.example', resellerCloudBranded: true },
    periodMonths: '1', type: 'cloud-20i', forUser: 'stack-user:989901',
  });
  expect(order.status).toBe(200);

  const text = await (await get('/accounts/989900')).text();
  expect(text).not.toContain('<script>');
  expect(text).toContain('Shop &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(text).toContain('Eve &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(text).toContain('<img src="https://acme.example/logo.png" alt="Acme &lt;script&gt;alert(1)&lt;/script&gt; logo"');
  for (const shown of ['shop.example', 'www.shop.example', 'info@shop.example', 'sales@shop.example', 'Forwards to team@example.org', 'web1.shop.example']) {
    expect(text).toContain(shown);
  }
  for (const secret of [KEY, token(KEY), 'Mailbox-Passw0rd', h.emu.snapshot().accounts[0].packages[0].mail[0].mailboxes[0].passwordSha256]) {
    expect(text).not.toContain(secret);
  }
});
