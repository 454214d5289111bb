import { Api, Harness, startHarness } from './helpers';

let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(() => api.control('POST', 'reset'));

describe('package types', () => {
  it('lists the fixture types', async () => {
    const res = await api.get('/reseller/*/packageTypes');
    expect(res.status).toBe(200);
    expect(res.body.map(({ id, label, platform }: { id: number; label: string; platform: string }) => ({ id, label, platform }))).toEqual([
      { id: 811, label: 'Linux Unlimited', platform: 'linux' },
      { id: 812, label: 'Linux Starter', platform: 'linux' },
      { id: 813, label: 'Windows Unlimited', platform: 'windows' },
      { id: 820, label: 'Managed Cloud', platform: 'linux' },
    ]);
    // The blueprint's members: limits ("INF" = unlimited), installApps, extraData.
    expect(res.body[0]).toMatchObject({ limits: { domains: 'INF', webspace: 'INF', bandwidth: 'INF' }, installApps: [], extraData: {} });
    expect(res.body[1].limits).toMatchObject({ domains: 5, webspace: 10240 });
  });
});

describe('POST /reseller/*/addWeb', () => {
  it('creates a package and returns its numeric id wrapped in result', async () => {
    const res = await api.post('/reseller/*/addWeb', {
      type: '811',
      domain_name: 'Example.COM',
      extra_domain_names: ['www.example.com', 'bücher.example'],
      label: 'Example Ltd',
      documentRoots: { 'www.example.com': 'public_html/www' },
      stackUser: 'stack-user:989901',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 1000001 });
    const list = await api.get('/package');
    expect(list.body).toEqual([
      {
        id: 1000001,
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        enabled: true,
        name: 'example.com',
        names: ['example.com', 'www.example.com', 'xn--bcher-kva.example'],
        packageTypeName: 'Linux Unlimited',
        productSpec: null,
        stackUsers: ['stack-user:989901'],
        typeRef: 811,
        packageLabels: ['Example Ltd'],
      },
    ]);
    const dump = h.emu.snapshot().accounts[0].packages[0];
    expect(dump.documentRoots).toEqual({ 'www.example.com': 'public_html/www' });
  });

  it('accepts a numeric type, no label (packageLabels []) and stackUser null', async () => {
    const id = await api.addWeb('plain.example', { type: 813, stackUser: null });
    const list = await api.get('/package');
    expect(list.body[0]).toMatchObject({ id, typeRef: 813, packageTypeName: 'Windows Unlimited', packageLabels: [], stackUsers: [] });
  });

  it('gives package ids from 1000001 upward', async () => {
    expect(await api.addWeb('a.example')).toBe(1000001);
    expect(await api.addWeb('b.example')).toBe(1000002);
  });

  it.each([
    ['type missing', { domain_name: 'x.example' }, /type is required/],
    ['unlisted type id', { type: '999', domain_name: 'x.example' }, /unknown package type/],
    ['non-numeric type', { type: 'linux', domain_name: 'x.example' }, /unknown package type/],
    ['domain_name missing', { type: '811' }, /domain_name/],
    ['invalid domain_name', { type: '811', domain_name: 'not a domain' }, /domain_name/],
    ['single-label domain_name', { type: '811', domain_name: 'localhost' }, /two labels/],
    ['extra_domain_names not an array', { type: '811', domain_name: 'x.example', extra_domain_names: 'y.example' }, /extra_domain_names must be an array/],
    ['extra name equal to the primary', { type: '811', domain_name: 'x.example', extra_domain_names: ['X.example'] }, /already/],
    ['extra name listed twice', { type: '811', domain_name: 'x.example', extra_domain_names: ['y.example', 'Y.EXAMPLE'] }, /listed twice/],
    ['label not a string', { type: '811', domain_name: 'x.example', label: 7 }, /label must be a string/],
    ['label over 255 characters', { type: '811', domain_name: 'x.example', label: 'x'.repeat(256) }, /label must be at most 255/],
    ['document root for a foreign domain', { type: '811', domain_name: 'x.example', documentRoots: { 'z.example': 'public_html' } }, /not a domain of this package/],
    ['document root with ..', { type: '811', domain_name: 'x.example', documentRoots: { 'x.example': '../etc' } }, /relative path/],
    ['absolute document root', { type: '811', domain_name: 'x.example', documentRoots: { 'x.example': '/var/www' } }, /relative path/],
    ['documentRoots not an object', { type: '811', domain_name: 'x.example', documentRoots: ['public_html'] }, /documentRoots must be an object/],
    ['unknown stackUser', { type: '811', domain_name: 'x.example', stackUser: 'stack-user:1' }, /unknown user/],
    ['malformed stackUser', { type: '811', domain_name: 'x.example', stackUser: 'alex' }, /stackUser must look like/],
  ])('400: %s', async (_name, body, message) => {
    const res = await api.post('/reseller/*/addWeb', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect((await api.get('/package')).body).toEqual([]);
  });

  it('409 ConflictingObject when a domain is already on a package of the account', async () => {
    await api.addWeb('taken.example', { extra_domain_names: ['alias.example'] });
    for (const body of [
      { type: '811', domain_name: 'TAKEN.example' },
      { type: '811', domain_name: 'new.example', extra_domain_names: ['alias.example'] },
    ]) {
      const res = await api.post('/reseller/*/addWeb', body);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/ConflictingObject/);
    }
  });
});

describe('GET /package/{id or domain}', () => {
  it('finds a package by id or by any of its names, case-insensitively', async () => {
    const id = await api.addWeb('detail.example', { extra_domain_names: ['alias.example'], label: 'L', stackUser: 'stack-user:989902' });
    const expected = {
      id,
      status: true,
      enabled: true,
      name: 'detail.example',
      names: ['detail.example', 'alias.example'],
      stackUsers: ['stack-user:989902'],
      typeRef: 811,
      packageTypeName: 'Linux Unlimited',
      label: 'L',
      created: expect.any(String),
      web: { typeRef: 811, name: 'detail.example', platform: 'linux', info: { ip4Address: expect.stringMatching(/^192\.0\.2\.[0-9]+$/), zone: 'dc_location-uk' } },
      limits: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', mysqlDatabases: 'INF', freeSsl: 'INF', switchPhpVersion: 1 },
    };
    for (const ref of [String(id), 'detail.example', 'ALIAS.example']) {
      const res = await api.get(`/package/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
  });

  it('404 for an unknown id or domain', async () => {
    expect((await api.get('/package/1000999')).status).toBe(404);
    const res = await api.get('/package/nowhere.example');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { message: expect.any(String) } });
  });
});

describe('POST /reseller/*/deleteWeb', () => {
  it('deletes by string or number id and reports unknown ids as false', async () => {
    const a = await api.addWeb('a.example', { stackUser: 'stack-user:989901' });
    const b = await api.addWeb('b.example');
    const res = await api.post('/reseller/*/deleteWeb', { 'delete-id': [String(a), b, '424242', 'nope'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { [String(a)]: true, [String(b)]: true, '424242': false, nope: false } });
    expect((await api.get('/package')).body).toEqual([]);
    // Its grants went with it.
    const users = await api.get('/reseller/*/susers');
    expect(users.body.grant_map['stack-user:989901']).toEqual({});
  });

  it('deletes the mail of the package too', async () => {
    const id = await api.addWeb('mail.example');
    await api.post(`/package/${id}/email/mail.example`, { new: { forward: { local: 'a', remote: 'b@example.org' } } });
    await api.post('/reseller/*/deleteWeb', { 'delete-id': [id] });
    await api.addWeb('mail.example');
    const mail = await api.get('/package/mail.example/email/mail.example');
    expect(mail.body.forward).toEqual([]);
  });

  it('400 when delete-id is missing or holds objects', async () => {
    expect((await api.post('/reseller/*/deleteWeb', {})).status).toBe(400);
    expect((await api.post('/reseller/*/deleteWeb', { 'delete-id': [{ id: 1 }] })).status).toBe(400);
  });
});

describe('POST /reseller/*/updatePackage', () => {
  it('changes the type within a platform and the label', async () => {
    const id = await api.addWeb('up.example');
    const res = await api.post('/reseller/*/updatePackage', {
      id: [String(id)],
      packageBundleTypes: { [id]: '812' },
      labels: { [id]: 'New' },
    });
    expect(res.body).toEqual({ result: true });
    expect((await api.get(`/package/${id}`)).body).toMatchObject({ typeRef: 812, packageTypeName: 'Linux Starter', label: 'New' });
    expect((await api.get('/package')).body[0].packageLabels).toEqual(['New']);
    await api.post('/reseller/*/updatePackage', { id: [id], labels: { [id]: '' } });
    expect((await api.get('/package')).body[0].packageLabels).toEqual([]);
  });

  it('400 for another platform or an unknown type, 404 for an unknown package', async () => {
    const id = await api.addWeb('up.example');
    const other = await api.post('/reseller/*/updatePackage', { id: [id], packageBundleTypes: { [id]: '813' } });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/platform/);
    expect((await api.post('/reseller/*/updatePackage', { id: [id], packageBundleTypes: { [id]: '999' } })).status).toBe(400);
    expect((await api.post('/reseller/*/updatePackage', { id: ['1000999'], labels: { '1000999': 'x' } })).status).toBe(404);
    expect((await api.post('/reseller/*/updatePackage', { id: [id] })).status).toBe(400);
    expect((await api.post('/reseller/*/updatePackage', { id: [id], labels: { '1000999': 'x' } })).status).toBe(400);
    expect((await api.get(`/package/${id}`)).body.typeRef).toBe(811);
  });
});

describe('POST /package/{id}/names', () => {
  it('adds and removes names; adding an existing name is a no-op', async () => {
    const id = await api.addWeb('n.example', { extra_domain_names: ['old.example'] });
    const res = await api.post(`/package/${id}/names`, { add: ['NEW.example', 'n.example'], rem: ['old.example'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: ['n.example', 'new.example'] });
    const again = await api.post('/package/n.example/names', { add: ['new.example'] });
    expect(again.body).toEqual({ result: ['n.example', 'new.example'] });
  });

  it('409 for a name on another package; 400 for the primary name or an invalid name', async () => {
    const id = await api.addWeb('n.example');
    await api.addWeb('other.example');
    const conflict = await api.post(`/package/${id}/names`, { add: ['other.example'] });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toMatch(/ConflictingObject/);
    expect((await api.post(`/package/${id}/names`, { rem: ['n.example'] })).status).toBe(400);
    expect((await api.post(`/package/${id}/names`, { add: ['bad_name'] })).status).toBe(400);
    expect((await api.post(`/package/${id}/names`, {})).status).toBe(400);
    expect((await api.post('/package/1000999/names', { add: ['z.example'] })).status).toBe(404);
  });
});

describe('POST /package/{id}/userStatus', () => {
  it('disables and enables a package', async () => {
    const id = await api.addWeb('s.example');
    expect((await api.post(`/package/${id}/userStatus`, { subservices: { default: false } })).body).toEqual({ result: true });
    expect((await api.get(`/package/${id}`)).body.enabled).toBe(false);
    const on = await api.post(`/package/${id}/userStatus`, { includeRepeated: true, subservices: { default: true } });
    expect(on.body).toEqual({ result: true });
    expect((await api.get('/package')).body[0].enabled).toBe(true);
  });

  it('400 without subservices.default as a boolean', async () => {
    const id = await api.addWeb('s.example');
    expect((await api.post(`/package/${id}/userStatus`, { subservices: { default: 'no' } })).status).toBe(400);
    expect((await api.post(`/package/${id}/userStatus`, {})).status).toBe(400);
  });
});
