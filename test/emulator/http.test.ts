import * as http from 'node:http';
import { Api, Harness, KEY, startHarness, token } from './helpers';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(() => api.control('POST', 'reset'));

describe('authentication', () => {
  it('accepts base64(key) and base64(key + "\\n") (one trailing newline trimmed)', async () => {
    expect((await api.get('/package')).status).toBe(200);
    expect((await api.get('/package', { authorization: `Bearer ${token(`${KEY}\n`)}` })).status).toBe(200);
    expect((await api.get('/package', { authorization: `bearer ${token(KEY)}` })).status).toBe(200);
    expect((await api.get('/package', { authorization: `Bearer ${token(`${KEY}\n\n`)}` })).status).toBe(401);
  });

  it.each([
    ['no header', { key: null }],
    ['the raw key', { authorization: `Bearer ${KEY}` }],
    ['a wrong key', { key: 'wrong-key' }],
    ['another scheme', { authorization: `Basic ${token(KEY)}` }],
    ['an empty token', { authorization: 'Bearer ' }],
  ])('401 with an error body for %s', async (_name, opts) => {
    const res = await api.get('/package', opts);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { message: expect.any(String) } });
  });

  it('checks the key before anything else, even on an unknown route', async () => {
    expect((await api.get('/nowhere', { key: null })).status).toBe(401);
  });
});

describe('routing', () => {
  it('404 "No route handler" for an unknown path or a wrong method', async () => {
    const unknown = await api.get('/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { message: 'No route handler for GET /nowhere' } });
    const wrongMethod = await api.call('PUT', '/package', {});
    expect(wrongMethod.body).toEqual({ error: { message: 'No route handler for PUT /package' } });
    expect((await api.post('/package', {})).status).toBe(404);
    expect((await api.call('DELETE', '/package/1')).status).toBe(404);
  });

  it('404 for a reseller id other than * or the caller\'s own', async () => {
    const res = await api.post('/reseller/123/addWeb', { type: '811', domain_name: 'x.example' });
    expect(res.status).toBe(404);
    expect((await api.post('/reseller/989900/addWeb', { type: '811', domain_name: 'x.example' })).status).toBe(200);
  });

  it('ignores the query string', async () => {
    expect((await api.get('/package?page=2')).status).toBe(200);
  });
});

describe('bodies', () => {
  it('400 for malformed JSON', async () => {
    const res = await api.post('/reseller/*/addWeb', undefined, { raw: '{"type": "811",' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/malformed JSON/);
  });

  it('400 when the body is not an object', async () => {
    for (const raw of ['[]', '"x"', '42', 'null']) {
      const res = await api.post('/reseller/*/addWeb', undefined, { raw });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/request body must be a JSON object/);
    }
    expect((await api.post('/reseller/*/addWeb')).status).toBe(400);
  });

  it('413 for a body over 1 MiB', async () => {
    const res = await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'x.example', label: 'x'.repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { message: expect.stringMatching(/larger than/) } });
    expect((await api.get('/package')).body).toEqual([]);
  });

  it('accepts form-encoded bodies with PHP-style bracket keys', async () => {
    const created = await api.post('/reseller/*/addWeb', undefined, {
      form: 'type=811&domain_name=form.example&extra_domain_names[]=www.form.example&extra_domain_names[]=alias.example&label=Form+Co&stackUser=stack-user%3A989901',
    });
    expect(created.status).toBe(200);
    const id = created.body.result;
    expect((await api.get(`/package/${id}`)).body).toMatchObject({
      names: ['form.example', 'www.form.example', 'alias.example'],
      label: 'Form Co',
      stackUsers: ['stack-user:989901'],
    });
    const mail = await api.post(`/package/${id}/email/form.example`, undefined, {
      form: 'new[mailbox][local]=info&new[mailbox][send]=true&new[mailbox][receive]=false&new[mailbox][password]=s3cret-pass',
    });
    expect(mail.status).toBe(200);
    expect(mail.body.result.result[0]).toMatchObject({ type: 'mailbox', id: 'info', password: 's3cret-pass' });
    const { mailbox: [m] } = (await api.get(`/package/${id}/email/form.example`)).body;
    expect(m).toMatchObject({ send: true, receive: false });
    const del = await api.post(`/package/${id}/email/form.example`, undefined, { form: `delete[0]=${m.id}` });
    expect(del.status).toBe(200);
    expect((await api.get(`/package/${id}/email/form.example`)).body.mailbox).toEqual([]);
    const grant = await api.post('/reseller/*/susers', undefined, { form: `grant_map[stack-user:989902][package:${id}]=true` });
    expect(grant.body).toEqual({ result: { updated: 1 } });
    const status = await api.post(`/package/${id}/userStatus`, undefined, { form: 'subservices[default]=false' });
    expect(status.body).toEqual({ result: true });
    expect((await api.post(`/package/${id}/names`, undefined, { form: 'add=x&add[a]=y' })).status).toBe(400);
  });

  it('never answers 5xx to odd but well-formed inputs', async () => {
    const id = await api.addWeb('odd.example');
    const odd: Array<[string, unknown]> = [
      ['/reseller/*/addWeb', { type: {}, domain_name: ['a'], extra_domain_names: [null], documentRoots: null, label: null }],
      ['/reseller/*/addWeb', { type: '811', domain_name: 'a'.repeat(300) + '.example' }],
      ['/reseller/*/addWeb', { type: 811.5, domain_name: 'x.example' }],
      ['/reseller/*/deleteWeb', { 'delete-id': [null, -1, 1e300] }],
      ['/reseller/*/updatePackage', { id: [{}], labels: [] }],
      ['/reseller/*/updatePackage', { id: [id], packageBundleTypes: [] }],
      ['/reseller/*/susers', { grant_map: [], newUser: null }],
      ['/reseller/*/susers', { users: { 'stack-user:989901': 'delete' } }],
      [`/package/${id}/names`, { add: 'x.example', rem: [1] }],
      [`/package/${id}/userStatus`, { subservices: [] }],
      [`/package/${id}/email/odd.example`, { new: [], delete: 'm1', update: { mailbox: {} } }],
      [`/package/${id}/email/odd.example`, { update: null }],
      ['/reseller/*/addCloudServer', { configuration: { spec: {}, zone: [], provider: null }, type: ['cloud-20i'] }],
      ['/reseller/*/addCloudServer', { configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'x.example' }, type: 'cloud-20i', periodMonths: { a: 1 }, forUser: 'stack-user:989901' }],
      ['/cloud_server/abc/addWeb', { domain_name: 'x.example' }],
      ['/package/%E0%A4%A/names', { add: [] }],
    ];
    for (const [path, body] of odd) {
      const res = await api.post(path, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error.message).toEqual(expect.any(String));
    }
  });

  it('answers 400 to malformed HTTP', async () => {
    const url = new URL(h.emu.url);
    const status = await new Promise<string>((resolve, reject) => {
      const socket = require('node:net').connect(Number(url.port), url.hostname, () => socket.write('GARBAGE\r\n\r\n'));
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(status).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe('concurrency', () => {
  it('serialises writes: 40 parallel creates all land, with distinct ids', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => api.addWeb(`c${i}.example`)));
    expect(new Set(ids).size).toBe(40);
    expect((await api.get('/package')).body).toHaveLength(40);
  });

  it('of ten parallel creates of the same domain, exactly one wins', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/reseller/*/addWeb', { type: '811', domain_name: 'race.example' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('keeps working over one keep-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${h.emu.url}/package`, { agent, headers: { Authorization: `Bearer ${token(KEY)}` } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
    expect(await Promise.all([get(), get(), get()])).toEqual([200, 200, 200]);
    agent.destroy();
  });
});
