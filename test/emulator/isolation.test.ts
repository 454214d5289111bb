import { Api, cloudOrder, Harness, startHarness } from './helpers';

/** Two accounts, each with its own key: neither sees nor changes the other's objects. */
let h: Harness;
let a: Api;
let b: Api;
let pkgA: number;
let serverA: string;
let userB: string;

beforeAll(async () => {
  h = await startHarness({ provisionDelayMs: 0 });
  a = h.api;
  b = a.as('second-key');
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await a.control('POST', 'reset');
  const added = await a.control('POST', 'accounts', { id: 555000, apiKey: 'second-key', balance: 50 });
  expect(added.body).toEqual({ ok: true, id: 555000, balance: 50 });
  pkgA = await a.addWeb('a.example');
  await a.post(`/package/${pkgA}/email/a.example`, { new: { forward: { local: 'x', remote: 'y@example.org' } } });
  serverA = (await a.post('/reseller/*/addCloudServer', cloudOrder())).body.result;
  userB = Object.keys((await b.get('/reseller/*/susers')).body.contact)[0];
});

it('gives the new account its own fixtures, with user ids that do not collide', async () => {
  const usersB = (await b.get('/reseller/*/susers')).body;
  const refsA = Object.keys((await a.get('/reseller/*/susers')).body.contact);
  const refsB = Object.keys(usersB.contact);
  expect(refsB).toHaveLength(2);
  expect(refsB.some((r) => refsA.includes(r))).toBe(false);
  expect(usersB.contact[refsB[0]].person_name).toBe('Alex Owner');
  expect((await b.get('/reseller/*/packageTypes')).body.map((t: { id: number }) => t.id)).toEqual([811, 812, 813, 820]);
  expect(h.emu.snapshot().accounts.map((x) => [x.id, x.balance, x.isDefault])).toEqual([[989900, 995, true], [555000, 50, false]]);
});

it('lists only the caller\'s packages and servers', async () => {
  const pkgB = await b.addWeb('b.example');
  expect((await a.get('/package')).body.map((p: { id: number }) => p.id)).toEqual([pkgA]);
  expect((await b.get('/package')).body.map((p: { id: number }) => p.id)).toEqual([pkgB]);
  expect((await b.get('/cloud_server')).body).toEqual([]);
  expect((await a.get('/cloud_server')).body).toHaveLength(1);
});

it('answers 404 for the other account\'s objects, exactly as for missing ones', async () => {
  const missing = await b.get('/package/1000999');
  const foreign = await b.get(`/package/${pkgA}`);
  expect(foreign.status).toBe(404);
  expect(foreign.body.error.message).toBe(missing.body.error.message.replace('1000999', String(pkgA)));
  expect((await b.get('/package/a.example')).status).toBe(404);
  expect((await b.get(`/package/${pkgA}/email/a.example`)).status).toBe(404);
  expect((await b.get(`/cloud_server/${serverA}`)).status).toBe(404);
});

it('cannot change the other account\'s objects', async () => {
  expect((await b.post('/reseller/*/deleteWeb', { 'delete-id': [pkgA] })).body).toEqual({ result: { [pkgA]: false } });
  expect((await b.post('/reseller/*/updatePackage', { id: [pkgA], labels: { [pkgA]: 'hijack' } })).status).toBe(404);
  expect((await b.post(`/package/${pkgA}/names`, { add: ['evil.example'] })).status).toBe(404);
  expect((await b.post(`/package/${pkgA}/userStatus`, { subservices: { default: false } })).status).toBe(404);
  expect((await b.post(`/package/${pkgA}/email/a.example`, { delete: ['f1'] })).status).toBe(404);
  expect((await b.post(`/cloud_server/${serverA}/addWeb`, { domain_name: 'b2.example' })).status).toBe(404);
  expect((await b.post('/reseller/*/susers', { grant_map: { [userB]: { [`package:${pkgA}`]: true } } })).status).toBe(404);
  expect((await b.post('/reseller/*/susers', { grant_map: { 'stack-user:989901': { [`package:${pkgA}`]: true } } })).status).toBe(404);
  expect((await b.post('/reseller/*/susers', { users: { 'stack-user:989901': { delete: true } } })).status).toBe(404);
  expect((await b.post('/reseller/*/addCloudServer', cloudOrder())).body.error.message).toMatch(/unknown user/);
  // Nothing of account A changed.
  const pkg = (await a.get(`/package/${pkgA}`)).body;
  expect(pkg).toMatchObject({ names: ['a.example'], label: '', enabled: true, stackUsers: [] });
  expect((await a.get(`/package/${pkgA}/email/a.example`)).body.forward).toHaveLength(1);
  expect(Object.keys((await a.get('/reseller/*/susers')).body.contact)).toContain('stack-user:989901');
});

it('404 for /reseller/<other account id>/...', async () => {
  expect((await b.get('/reseller/989900/susers')).status).toBe(404);
  expect((await b.post('/reseller/989900/addWeb', { type: '811', domain_name: 'z.example' })).status).toBe(404);
  expect((await b.get('/reseller/555000/susers')).status).toBe(200);
});

it('scopes domain and host name uniqueness to the account', async () => {
  expect((await b.post('/reseller/*/addWeb', { type: '811', domain_name: 'a.example' })).status).toBe(200);
  const order = cloudOrder({ forUser: userB });
  expect((await b.post('/reseller/*/addCloudServer', order)).status).toBe(200);
});

it('refuses an account id or key that is already in use', async () => {
  expect((await a.control('POST', 'accounts', { id: 555000, apiKey: 'third-key' })).status).toBe(409);
  expect((await a.control('POST', 'accounts', { id: 555001, apiKey: 'second-key' })).status).toBe(409);
  expect((await a.control('POST', 'accounts', { id: 555001, apiKey: 'emulator-key' })).status).toBe(409);
  expect((await a.control('POST', 'accounts', { apiKey: '' })).status).toBe(400);
  const auto = await a.control('POST', 'accounts', { apiKey: 'fourth-key' });
  expect(auto.body).toEqual({ ok: true, id: 989901, balance: 1000 });
});
