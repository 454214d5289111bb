import { Api, Harness, startHarness } from './helpers';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(() => api.control('POST', 'reset'));

const CONTACT_FIELDS = [
  'address', 'avatarUrl', 'cc', 'ccAlpha2', 'ccAlpha3', 'city', 'company_name', 'company_number', 'createdAt', 'email',
  'ext_billing_ref', 'nominet_contact_type', 'notes', 'pc', 'person_name', 'sp', 'trading_name', 'voice', 'firstName', 'lastName',
];

describe('GET /reseller/*/susers', () => {
  it('lists the fixture users with every contact field of spec 2.2 filled', async () => {
    const res = await api.get('/reseller/*/susers');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['contact', 'ftpLock', 'grant_map', 'service_by_tuple', 'users']);
    expect(Object.keys(res.body.contact)).toEqual(['stack-user:989901', 'stack-user:989902']);
    const owner = res.body.contact['stack-user:989901'];
    expect(Object.keys(owner).sort()).toEqual([...CONTACT_FIELDS].sort());
    for (const field of CONTACT_FIELDS.filter((f) => f !== 'avatarUrl')) expect(owner[field]).toBeTruthy();
    expect(owner).toMatchObject({ person_name: 'Alex Owner', email: 'owner@example.com', ccAlpha2: 'GB', cc: 'GBR' });
    expect(owner.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(res.body.contact['stack-user:989902']).toMatchObject({ person_name: 'Sam Ops', email: 'ops@example.org' });
    expect(res.body.grant_map).toEqual({ 'stack-user:989901': {}, 'stack-user:989902': {} });
  });

  it('accepts the caller\'s own numeric reseller id in place of *', async () => {
    expect((await api.get('/reseller/989900/susers')).status).toBe(200);
    expect((await api.get('/reseller/989901/susers')).status).toBe(404);
  });
});

describe('POST /reseller/*/susers grant_map', () => {
  it('grants (value 1 in the grant map) and revokes', async () => {
    const id = await api.addWeb('g.example');
    const grant = await api.post('/reseller/*/susers', { grant_map: { 'stack-user:989902': { [`package:${id}`]: true } } });
    expect(grant.body).toEqual({ result: { updated: 1 } });
    let users = await api.get('/reseller/*/susers');
    expect(users.body.grant_map['stack-user:989902']).toEqual({ [`package:${id}`]: 1 });
    expect(users.body.service_by_tuple[`package:${id}`]).toMatchObject({ users: ['stack-user:989902'] });
    expect((await api.get(`/package/${id}`)).body.stackUsers).toEqual(['stack-user:989902']);
    const revoke = await api.post('/reseller/*/susers', { grant_map: { 'stack-user:989902': { [`package:${id}`]: false } } });
    expect(revoke.body).toEqual({ result: { updated: 1 } });
    users = await api.get('/reseller/*/susers');
    expect(users.body.grant_map['stack-user:989902']).toEqual({});
  });

  it('404 for an unknown user or package, 400 for a non-boolean or another service kind', async () => {
    const id = await api.addWeb('g.example');
    expect((await api.post('/reseller/*/susers', { grant_map: { 'stack-user:5': { [`package:${id}`]: true } } })).status).toBe(404);
    expect((await api.post('/reseller/*/susers', { grant_map: { 'stack-user:989901': { 'package:1000999': true } } })).status).toBe(404);
    const bad = await api.post('/reseller/*/susers', { grant_map: { 'stack-user:989901': { [`package:${id}`]: 1 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/must be a boolean/);
    expect((await api.post('/reseller/*/susers', { grant_map: { 'stack-user:989901': { 'vps:1': true } } })).status).toBe(400);
    expect((await api.post('/reseller/*/susers', {})).status).toBe(400);
  });
});

describe('POST /reseller/*/susers newUser and users delete', () => {
  it('creates a user, refuses a duplicate e-mail, deletes the user with its grants', async () => {
    const created = await api.post('/reseller/*/susers', { newUser: { email: 'new@example.net', person_name: 'Nia New' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ result: { ref: expect.stringMatching(/^stack-user:\d+$/), updated: 1 } });
    const ref: string = created.body.result.ref;
    const users = await api.get('/reseller/*/susers');
    expect(users.body.contact[ref]).toMatchObject({ email: 'new@example.net', person_name: 'Nia New', firstName: 'Nia', lastName: 'New' });
    expect(Object.keys(users.body.contact[ref]).sort()).toEqual([...CONTACT_FIELDS].sort());

    const dup = await api.post('/reseller/*/susers', { newUser: { email: 'NEW@example.net' } });
    expect(dup.status).toBe(409);
    expect((await api.post('/reseller/*/susers', { newUser: { email: 'not-an-email' } })).status).toBe(400);

    const id = await api.addWeb('u.example', { stackUser: ref });
    const del = await api.post('/reseller/*/susers', { users: { [ref]: { delete: true } } });
    expect(del.body).toEqual({ result: { updated: 1 } });
    const after = await api.get('/reseller/*/susers');
    expect(after.body.contact[ref]).toBeUndefined();
    expect(after.body.grant_map[ref]).toBeUndefined();
    expect((await api.get(`/package/${id}`)).body.stackUsers).toEqual([]);
    expect((await api.post('/reseller/*/susers', { users: { [ref]: { delete: true } } })).status).toBe(404);
  });
});
