import { Api, Harness, startHarness } from './helpers';

/**
 * A package's web settings over HTTP (api-notes "Web: HTTPS and PHP version of a
 * package"): force-HTTPS, free certificates issued after a delay (only for names that
 * point here), certificate deletes, the PHP version and the versions offered, the
 * package type's limits, both profiles, the state dump and persistence.
 */

let h: Harness;
let api: Api;
let pkg: number;

const web = (noun: string) => `/package/${pkg}/web/${noun}`;

beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await api.control('POST', 'reset');
  pkg = await api.addWeb('shop.example', { extra_domain_names: ['shop.example.org'] });
});

describe('force-HTTPS', () => {
  it('reads a bare boolean, false for a new package; a write is wrapped and read back', async () => {
    expect(await api.get(web('forceSSL'))).toMatchObject({ status: 200, body: false });
    expect(await api.post(web('forceSSL'), { value: true })).toMatchObject({ status: 200, body: { result: true } });
    expect((await api.get(web('forceSSL'))).body).toBe(true);
    // By a domain of the package too (api-notes: a domain may stand in for the id).
    expect((await api.get('/package/shop.example.org/web/forceSSL')).body).toBe(true);
  });

  it('setting the value it has is 409 "already so" (assumed), and changes nothing', async () => {
    const res = await api.post(web('forceSSL'), { value: false });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/already/);
  });

  it('a body without a boolean value is 400; an unknown package 404', async () => {
    expect((await api.post(web('forceSSL'), { value: 'yes' })).status).toBe(400);
    expect((await api.get('/package/999/web/forceSSL')).status).toBe(404);
  });
});

describe('free certificates', () => {
  it('with no delay a name of the package is listed at once, as letsencrypt/standard, with a PEM and no private key', async () => {
    expect(await api.post(web('freeSSL'), { name: 'www.shop.example', enabled: true })).toMatchObject({ status: 200, body: { result: true } });
    const list = (await api.get(web('certificates'))).body;
    expect(list).toEqual([{ id: expect.any(Number), certificatePem: expect.stringContaining('BEGIN CERTIFICATE'), commonName: 'www.shop.example', createdAt: expect.any(String), provider: 'letsencrypt/standard' }]);
    expect(JSON.stringify(list)).not.toMatch(/PRIVATE KEY/);
    // Asking again changes nothing.
    await api.post(web('freeSSL'), { name: 'www.shop.example', enabled: true });
    expect((await api.get(web('certificates'))).body).toHaveLength(1);
  });

  it('issuance takes the delay set through the control API; lowering it issues the waiting one', async () => {
    expect((await api.control('POST', 'web/settings', { certificateDelayMs: 3_600_000 })).body).toMatchObject({ ok: true, certificateDelayMs: 3_600_000 });
    await api.post(web('freeSSL'), { name: 'shop.example', enabled: true });
    expect((await api.get(web('certificates'))).body).toEqual([]);
    expect(h.emu.snapshot().accounts[0].packages[0].web.certificates).toEqual([expect.objectContaining({ commonName: 'shop.example', state: 'issuing' })]);
    await api.control('POST', 'web/settings', { certificateDelayMs: 0 });
    expect((await api.get(web('certificates'))).body.map((c: { commonName: string }) => c.commonName)).toEqual(['shop.example']);
  });

  it('a name that does not point at the package is never issued: it waits for DNS', async () => {
    await api.post(web('freeSSL'), { name: 'elsewhere.example.net', enabled: true });
    expect((await api.get(web('certificates'))).body).toEqual([]);
    expect(h.emu.snapshot().accounts[0].packages[0].web.waitingForDns).toEqual([{ name: 'elsewhere.example.net', requestedAt: expect.any(String) }]);
  });

  it('a delete by id removes it (true per id); enabled: false drops the name', async () => {
    await api.post(web('freeSSL'), { name: 'shop.example' });
    await api.post(web('freeSSL'), { name: 'www.shop.example' });
    const [first] = (await api.get(web('certificates'))).body;
    expect(await api.post(web('certificates'), { delete: [String(first.id), '123456'] })).toMatchObject({ status: 200, body: { result: [true, false] } });
    expect((await api.get(web('certificates'))).body.map((c: { commonName: string }) => c.commonName)).toEqual(['www.shop.example']);
    await api.post(web('freeSSL'), { name: 'www.shop.example', enabled: false });
    expect((await api.get(web('certificates'))).body).toEqual([]);
  });

  it('the control API installs a certificate of another provider at once', async () => {
    await api.control('POST', 'web/certificates', { package: 'shop.example', commonName: 'shop.example', provider: 'sectigo/dv' });
    expect((await api.get(web('certificates'))).body).toEqual([expect.objectContaining({ commonName: 'shop.example', provider: 'sectigo/dv' })]);
  });
});

describe('PHP version', () => {
  it('reads "php81" for a new package; a write with {value: "php82"} is read back; the versions offered list FullVersion, Handler, Title', async () => {
    expect((await api.get(web('phpVersion'))).body).toBe('php81');
    const offered = (await api.get(web('availablePhpVersions'))).body;
    expect(offered).toContainEqual({ FullVersion: expect.stringMatching(/^8\.2\.\d+$/), Handler: 'php82', Title: 'PHP 8.2' });
    expect(await api.post(web('phpVersion'), { value: 'php82' })).toMatchObject({ status: 200, body: { result: true } });
    expect((await api.get(web('phpVersion'))).body).toBe('php82');
  });

  it('the other bodies clients send, and "8.3", are taken too (assumed); a version not offered is 400 naming the available ones', async () => {
    await api.post(web('phpVersion'), { version: '8.3' });
    expect((await api.get(web('phpVersion'))).body).toBe('php83');
    await api.post(web('phpVersion'), { phpVersion: 'php74' });
    expect((await api.get(web('phpVersion'))).body).toBe('php74');
    const res = await api.post(web('phpVersion'), { value: 'php56' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/php56 .*available: php74, php80, php81, php82, php83/);
  });
});

describe('the package type\'s limits', () => {
  it('a type with freeSsl 0 refuses a free certificate, one with switchPhpVersion 0 a PHP version (400, naming the type)', async () => {
    const windows = await api.post('/reseller/*/addWeb', { type: '813', domain_name: 'win.example' });
    const id = windows.body.result;
    expect((await api.get('/reseller/*/packageTypes')).body.find((t: { id: number }) => t.id === 813).limits).toMatchObject({ freeSsl: 0, switchPhpVersion: 0 });
    const ssl = await api.post(`/package/${id}/web/freeSSL`, { name: 'win.example' });
    expect(ssl.status).toBe(400);
    expect(ssl.body.error.message).toMatch(/Windows Unlimited does not allow free SSL/);
    const php = await api.post(`/package/${id}/web/phpVersion`, { value: 'php82' });
    expect(php.status).toBe(400);
    expect(php.body.error.message).toMatch(/Windows Unlimited does not allow switching the PHP version/);
    expect((await api.get(`/package/${id}/web/availablePhpVersions`)).body).toEqual([]);
  });
});

describe('state dump, page, persistence', () => {
  it('the dump shows each package\'s settings; the page has the section', async () => {
    await api.post(web('forceSSL'), { value: true });
    await api.post(web('freeSSL'), { name: 'shop.example' });
    const [p] = h.emu.snapshot().accounts[0].packages;
    expect(p.web).toEqual({
      forceHttps: true, phpVersion: 'php81', waitingForDns: [],
      certificates: [{ id: expect.any(Number), commonName: 'shop.example', provider: 'letsencrypt/standard', state: 'issued', issuedAt: expect.any(String) }],
    });
    const page = await fetch(`${api.url}/`).then((r) => r.text());
    expect(page).toContain('HTTPS and PHP');
    expect(page).toContain('letsencrypt/standard');
  });
});

describe("profile 'documented'", () => {
  let doc: Harness;
  beforeAll(async () => {
    doc = await startHarness({ profile: 'documented' });
  });
  afterAll(() => doc.emu.stop());

  it('no 409 for "already so"; only {"value": "phpNN"} sets the PHP version', async () => {
    const id = await doc.api.addWeb('doc.example');
    expect((await doc.api.post(`/package/${id}/web/forceSSL`, { value: false })).status).toBe(200);
    expect((await doc.api.post(`/package/${id}/web/phpVersion`, { version: 'php82' })).status).toBe(400);
    expect((await doc.api.post(`/package/${id}/web/phpVersion`, { value: '8.2' })).status).toBe(400);
    expect((await doc.api.post(`/package/${id}/web/phpVersion`, { value: 'php82' })).status).toBe(200);
    expect((await doc.api.get(`/package/${id}/web/phpVersion`)).body).toBe('php82');
  });
});
