import { Api, cloudOrder, Harness, sleep, startHarness } from './helpers';

const DELAY = 400;
let h: Harness;
let api: Api;
beforeAll(async () => {
  h = await startHarness({ provisionDelayMs: DELAY });
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await api.control('POST', 'reset');
  await api.control('POST', 'settings', { provisionDelayMs: DELAY });
});

const order = (overrides?: Record<string, unknown>, configuration?: Record<string, unknown>) =>
  api.post('/reseller/*/addCloudServer', cloudOrder(overrides, configuration));

describe('ordering and provisioning', () => {
  it('returns the new id as a string, charges at once, lists the server only once provisioned', async () => {
    const res = await order({ periodMonths: '3' }, { spec: 'medium' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: expect.stringMatching(/^\d+$/) });
    const id = Number(res.body.result);
    // medium: 20.00 per month x 3 months.
    expect(h.emu.snapshot().accounts[0].balance).toBe(940);

    expect((await api.get('/cloud_server')).body).toEqual([]);
    expect((await api.get(`/cloud_server/${id}`)).status).toBe(404);
    const early = await api.post(`/cloud_server/${id}/addWeb`, { domain_name: 'early.example', extra_domain_names: [] });
    expect(early.status).toBe(409);
    const dump = h.emu.snapshot().accounts[0].cloudServers[0];
    expect(dump).toMatchObject({ id, state: 'provisioning', charged: 60, periodMonths: 3 });
    expect(Date.parse(dump.readyAt) - Date.parse(dump.orderedAt)).toBe(DELAY);

    await sleep(DELAY + 50);
    const list = await api.get('/cloud_server');
    expect(list.body).toEqual([
      {
        id,
        name: 'web1.example.com',
        location: 'dc_location-uk',
        configuration: {
          CpuCores: 2, RamMb: 4096, OsDiskSizeGb: 80, DataDiskSizeGb: 0, Provider: '20icloud',
          Zone: 'dc_location-uk', Country: 'GB', VpsOsId: expect.any(Number), spec: 'medium',
        },
        externalId: expect.any(Number),
        productSpec: expect.any(String),
        count: expect.any(Number),
        cpanel: '',
        cpanelInfo: '',
        cpanelRebuilding: '',
        isCloud: true,
        isManaged: true,
        packageIds: [],
        profileId: expect.any(Number),
        timelineService: expect.any(String),
      },
    ]);
    expect((await api.get(`/cloud_server/${id}`)).body).toEqual(list.body[0]);
    expect(h.emu.snapshot().accounts[0].cloudServers[0].state).toBe('ready');
  });

  it('creates packages of type 820 on a provisioned server', async () => {
    await api.control('POST', 'settings', { provisionDelayMs: 0 });
    const id = (await order()).body.result;
    const res = await api.post(`/cloud_server/${id}/addWeb`, { domain_name: 'shop.example', extra_domain_names: ['www.shop.example'] });
    expect(res.status).toBe(200);
    expect(typeof res.body.result).toBe('number');
    const pkg = res.body.result;
    expect((await api.get(`/cloud_server/${id}`)).body.packageIds).toEqual([pkg]);
    expect((await api.get(`/package/${pkg}`)).body).toMatchObject({ typeRef: 820, packageTypeName: 'Managed Cloud' });
    // Conflicts and validation as for addWeb; unknown server 404.
    expect((await api.post(`/cloud_server/${id}/addWeb`, { domain_name: 'shop.example' })).status).toBe(409);
    expect((await api.post(`/cloud_server/${id}/addWeb`, { domain_name: 'bad name' })).status).toBe(400);
    expect((await api.post('/cloud_server/999/addWeb', { domain_name: 'x.example' })).status).toBe(404);
    // Deleting the package takes it off the server.
    await api.post('/reseller/*/deleteWeb', { 'delete-id': [pkg] });
    expect((await api.get(`/cloud_server/${id}`)).body.packageIds).toEqual([]);
  });

  it('lowering the delay speeds up servers still provisioning', async () => {
    await order();
    expect((await api.get('/cloud_server')).body).toHaveLength(0);
    await api.control('POST', 'settings', { provisionDelayMs: 0 });
    expect((await api.get('/cloud_server')).body).toHaveLength(1);
  });

  it('maps the third-party providers: sizes in MB, disk, country', async () => {
    await api.control('POST', 'settings', { provisionDelayMs: 0 });
    expect((await order({ type: 'cloud-gcp' }, { provider: 'gcp', spec: 'micro', zone: 'europe-west4', mvpsName: 'g.example.com', disk: '50', bandwidth: '2' })).status).toBe(200);
    expect((await order({ type: 'cloud-aws' }, { provider: 'aws', spec: 'small', zone: 'us-east-1', mvpsName: 'a.example.com' })).status).toBe(200);
    const [g, a] = (await api.get('/cloud_server')).body;
    expect(g.configuration).toMatchObject({ CpuCores: 1, RamMb: 3840, OsDiskSizeGb: 20, DataDiskSizeGb: 50, Provider: 'gcp', Country: 'NL' });
    expect(a.configuration).toMatchObject({ CpuCores: 2, RamMb: 2048, Provider: 'aws', Country: 'US' });
  });
});

describe('order validation', () => {
  it.each([
    ['unknown type', { type: 'cloud-xyz' }, {}, 400, /type must be one of/],
    ['provider not matching type', { type: 'cloud-aws' }, {}, 400, /does not match type/],
    ['spec of another provider', {}, { spec: '64x-large' }, 400, /configuration\.spec/],
    ['32x-large on platform B', { type: 'cloud-aws' }, { provider: 'aws', zone: 'us-east-1', spec: '32x-large' }, 400, /configuration\.spec/],
    ['zone of another provider', {}, { zone: 'us-east-1' }, 400, /configuration\.zone/],
    ['period not allowed', { periodMonths: '2' }, {}, 400, /periodMonths/],
    ['period missing', { periodMonths: undefined }, {}, 400, /periodMonths/],
    ['bad host name', {}, { mvpsName: 'web 1' }, 400, /mvpsName/],
    ['unknown forUser', { forUser: 'stack-user:1' }, {}, 400, /unknown user/],
    ['malformed forUser', { forUser: 'owner' }, {}, 400, /forUser/],
    ['non-numeric disk', { type: 'cloud-aws' }, { provider: 'aws', zone: 'us-east-1', disk: 'lots' }, 400, /configuration\.disk/],
    ['numeric bandwidth as a number', {}, { bandwidth: 10 }, 400, /configuration\.bandwidth/],
    ['branded not boolean', {}, { resellerCloudBranded: 'yes' }, 400, /resellerCloudBranded/],
    ['branded on platform C', { type: 'cloud-gcp' }, { provider: 'gcp', zone: 'us-east1', resellerCloudBranded: true }, 400, /resellerCloudBranded/],
    ['configuration missing', { configuration: undefined }, {}, 400, /configuration must be an object/],
  ])('%s', async (_name, overrides, configuration, status, message) => {
    const res = await order(overrides, configuration);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toMatch(message);
    expect(h.emu.snapshot().accounts[0]).toMatchObject({ balance: 1000, cloudServers: [] });
  });

  it('accepts periodMonths as a number', async () => {
    expect((await order({ periodMonths: 12 })).status).toBe(200);
    expect(h.emu.snapshot().accounts[0].balance).toBe(940);
  });

  it('409 for a host name already used by a server of the account', async () => {
    await order();
    const res = await order({}, { mvpsName: 'WEB1.example.com' });
    expect(res.status).toBe(409);
  });

  it('402 when the balance is too low, and nothing is ordered or charged', async () => {
    const res = await order({ periodMonths: '12' }, { spec: '8x-large' });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toMatch(/not enough account balance/);
    expect(h.emu.snapshot().accounts[0]).toMatchObject({ balance: 1000, cloudServers: [] });
    await api.control('POST', 'balance', { balance: 5 });
    expect((await order({}, { spec: 'micro' })).status).toBe(200);
    expect((await order({}, { spec: 'micro', mvpsName: 'web2.example.com' })).status).toBe(402);
    expect(h.emu.snapshot().accounts[0].balance).toBe(0);
  });
});

describe('brand', () => {
  it('sends X-Brand-Name / X-Brand-Logo for a server ordered branded when the account has a brand', async () => {
    await api.control('POST', 'settings', { provisionDelayMs: 0 });
    const branded = (await order({}, { resellerCloudBranded: true })).body.result;
    const plain = (await order({}, { mvpsName: 'plain.example.com' })).body.result;
    let res = await api.get(`/cloud_server/${branded}`);
    expect(res.headers.get('x-brand-name')).toBeNull(); // no brand set yet
    const set = await api.control('POST', 'brand', { name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });
    expect(set.body).toEqual({ ok: true, account: 989900, brand: { name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' } });
    res = await api.get(`/cloud_server/${branded}`);
    expect(res.headers.get('x-brand-name')).toBe('Acme Hosting');
    expect(res.headers.get('x-brand-logo')).toBe('https://acme.example/logo.png');
    res = await api.get(`/cloud_server/${plain}`);
    expect(res.headers.get('x-brand-name')).toBeNull();
    expect(h.emu.snapshot().accounts[0].brand).toEqual({ name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });
    await api.control('DELETE', 'brand');
    expect((await api.get(`/cloud_server/${branded}`)).headers.get('x-brand-name')).toBeNull();
  });
});
