import { Api, Harness, startHarness } from './helpers';

/** Registered domain names over HTTP (api-notes "Domain names (registrations)"), in both profiles. */

let h: Harness;
let api: Api;

beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await api.control('POST', 'reset');
});

const DAY = 86_400_000;
const nameservers = async (name: string): Promise<string[]> => (await api.get(`/domain/${name}/nameservers`)).body;

describe('reads', () => {
  it('GET /domain lists every registration with the documented fields; one expires within 30 days', async () => {
    const res = await api.get('/domain');
    expect(res.status).toBe(200);
    expect(res.body.map((d: { name: string }) => d.name)).toEqual(['example-studio.com', 'example-blog.com', 'example-registered.net', 'example-moving.org']);
    for (const entry of res.body) {
      expect(Object.keys(entry).sort()).toEqual([
        'closeToAnniversary', 'deadDate', 'expiryDate', 'hasPrivacy', 'id', 'name', 'pendingTransfer', 'preferredRenewalMonths', 'registrantIsVerified', 'renewalConstraint',
      ]);
      expect(entry.expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\+00:00$/);
    }
    const soon = res.body.filter((d: { expiryDate: string }) => Date.parse(d.expiryDate) - Date.now() < 30 * DAY);
    expect(soon.map((d: { name: string; closeToAnniversary: boolean }) => [d.name, d.closeToAnniversary])).toEqual([['example-blog.com', true]]);
    expect(res.body.find((d: { name: string }) => d.name === 'example-moving.org')).toMatchObject({ pendingTransfer: true, renewalConstraint: expect.any(String) });
  });

  it('GET /domain/{name} has the nameservers; any case or a trailing dot; a name the account does not hold is 404', async () => {
    const one = await api.get('/domain/Example-Registered.NET.');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: 'example-registered.net', nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'] });
    for (const name of ['_acme_challenge.example-blog.com', 'www.example-blog.com', 'com', 'unknown.example']) {
      const res = await api.get(`/domain/${name}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/is not a domain name of this account/);
    }
  });

  it('the nameservers and the transfer lock read back bare (canTransfer: true = unlocked)', async () => {
    expect(await nameservers('example-blog.com')).toEqual(['ns1.stackdns.com', 'ns2.stackdns.com']);
    expect((await api.get('/domain/example-blog.com/canTransfer')).body).toBe(true);
    expect((await api.get('/domain/example-studio.com/canTransfer')).body).toBe(false);
  });

  it('another account holds its own registrations and sees none of these', async () => {
    await api.control('POST', 'accounts', { id: 555000, apiKey: 'other-key' });
    const other = api.as('other-key');
    expect((await other.get('/domain')).body).toHaveLength(4);
    const ids = (await api.get('/domain')).body.map((d: { id: number }) => d.id);
    expect((await other.get('/domain')).body.map((d: { id: number }) => d.id).some((id: number) => ids.includes(id))).toBe(false);
    await api.post('/domain/example-blog.com/canTransfer', { enable: false });
    expect((await other.get('/domain/example-blog.com/canTransfer')).body).toBe(true);
  });
});

describe('nameservers: written as a difference', () => {
  it('ns adds, old-ns removes; the order is the registry\'s', async () => {
    const res = await api.post('/domain/example-blog.com/nameservers', { ns: ['ns1.example.net', 'NS2.example.net.'], 'old-ns': ['ns2.stackdns.com'] });
    expect(res).toMatchObject({ status: 200, body: { result: true } });
    expect(await nameservers('example-blog.com')).toEqual(['ns1.stackdns.com', 'ns1.example.net', 'ns2.example.net']);
    // A name it has already, in ns, is kept (a retried write adds nothing twice).
    expect((await api.post('/domain/example-blog.com/nameservers', { ns: ['ns1.example.net'] })).status).toBe(200);
    expect(await nameservers('example-blog.com')).toHaveLength(3);
  });

  it.each([
    [{ ns: ['ns9.example.org'], 'old-ns': ['ns9.example.org'] }, /both list ns9.example.org: send only the difference/],
    [{ ns: ['ns9.example.org'], 'old-ns': ['ns7.example.org'] }, /old-ns ns7.example.org is not a nameserver of example-blog.com \(it has ns1.stackdns.com, ns2.stackdns.com\)/],
    [{ 'old-ns': ['ns2.stackdns.com'] }, /would have 1 nameserver: a registration needs at least 2/],
    [{ ns: ['not a host'] }, /ns\[0\]: .*not a valid domain name|ns\[0\]: /],
    [{ ns: ['a.example.org', 'a.example.org'] }, /listed twice/],
    [{}, /ns and\/or old-ns must list nameservers/],
    [{ ns: 'ns1.example.org' }, /ns must be an array/],
  ])('%j is refused (400) and changes nothing', async (body, message) => {
    const res = await api.post('/domain/example-blog.com/nameservers', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(await nameservers('example-blog.com')).toEqual(['ns1.stackdns.com', 'ns2.stackdns.com']);
  });

  it('a name the account does not hold is 404', async () => {
    expect((await api.post('/domain/unknown.example/nameservers', { ns: ['ns1.example.org'] })).status).toBe(404);
  });
});

describe('transfer lock', () => {
  it('{"enable": false} locks, {"enable": true} unlocks; enable is required and a boolean', async () => {
    expect(await api.post('/domain/example-blog.com/canTransfer', { enable: false })).toMatchObject({ status: 200, body: { result: true } });
    expect((await api.get('/domain/example-blog.com/canTransfer')).body).toBe(false);
    await api.post('/domain/example-blog.com/canTransfer', { enable: true });
    expect((await api.get('/domain/example-blog.com/canTransfer')).body).toBe(true);
    expect((await api.post('/domain/example-blog.com/canTransfer', {})).status).toBe(400);
    expect((await api.post('/domain/example-blog.com/canTransfer', { enable: 'no' })).status).toBe(400);
  });
});

describe('DNS zone of a registration', () => {
  it('a registration without a package has its own zone (SOA and NS), written with the diff of the package zones', async () => {
    const zone = (await api.get('/domain/example-registered.net/dns')).body.records;
    expect(zone.map((r: { type: string }) => r.type)).toEqual(['SOA', 'NS', 'NS', 'NS', 'NS']);
    const write = await api.post('/domain/example-registered.net/dns', { new: { A: [{ host: 'www', ip: '198.51.100.9' }] } });
    expect(write).toMatchObject({ status: 200, body: { result: true } });
    const after = (await api.get('/domain/example-registered.net/dns')).body.records;
    expect(after[after.length - 1]).toMatchObject({ type: 'A', host: 'www.example-registered.net', ip: '198.51.100.9', ref: expect.any(Number) });
    // NS is not writable here either; the apex NS and the SOA cannot be deleted.
    expect((await api.post('/domain/example-registered.net/dns', { new: { NS: [{ host: '@', target: 'x.example.org' }] } })).status).toBe(400);
    expect((await api.post('/domain/example-registered.net/dns', { delete: [String(zone[1].ref)] })).status).toBe(400);
  });

  it('where a package holds the name, it is the package\'s zone: a record written through one route reads through the other', async () => {
    const pkg = (await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'example-studio.com' })).body.result;
    await api.post('/domain/example-studio.com/dns', { new: { TXT: [{ host: 'shared', txt: 'one zone' }] } });
    const viaPackage = (await api.get(`/package/${pkg}/dns/example-studio.com`)).body.records;
    expect(viaPackage.some((r: { host: string; txt?: string }) => r.host === 'shared.example-studio.com' && r.txt === 'one zone')).toBe(true);
    expect((await api.get('/domain/example-studio.com/dns')).body).toEqual((await api.get(`/package/${pkg}/dns/example-studio.com`)).body);
    const dump = (await api.control('GET', 'state')).body.accounts[0].domains.find((d: { name: string }) => d.name === 'example-studio.com');
    expect(dump.dnsZone.onPackage).toBe('example-studio.com');
  });

  it('certbot\'s DNS-01 plugin: probe GET /domain/{zone}, read, add the TXT, read, delete it by ref', async () => {
    // What the plugin sends (api-notes: a certbot DNS-01 plugin for this service): it walks
    // from `_acme_challenge.<domain>` up until GET /domain/{candidate} answers.
    const domain = 'www.example-blog.com';
    const labels = `_acme_challenge.${domain}`.split('.');
    let zone: string | undefined;
    for (let i = 0; i < labels.length && !zone; i++) {
      const candidate = labels.slice(i).join('.');
      if ((await api.get(`/domain/${candidate}`)).status === 200) zone = candidate;
    }
    expect(zone).toBe('example-blog.com');
    const recordName = '_acme-challenge.www';
    const validation = 'gfj9Xq-Xv2kLg2mQp3lS1xRk8nPz0rT4uV6wY7zA8bC';
    const hostOf = `${recordName}.${zone}`;
    // _perform: read, refuse an existing record at the name, add the TXT (no policies sent).
    const before = (await api.get(`/domain/${zone}/dns`)).body.records as Array<Record<string, unknown>>;
    expect(before.some((r) => r.host === hostOf)).toBe(false);
    expect((await api.post(`/domain/${zone}/dns`, { new: { TXT: [{ host: recordName, txt: validation }] } })).status).toBe(200);
    // _cleanup: read, find exactly one TXT at the name with that text, delete it by its ref.
    const during = (await api.get(`/domain/${zone}/dns`)).body.records as Array<Record<string, unknown>>;
    const matches = during.filter((r) => r.type === 'TXT' && r.host === hostOf && r.txt === validation);
    expect(matches).toHaveLength(1);
    expect((await api.post(`/domain/${zone}/dns`, { delete: [matches[0].ref] })).status).toBe(200);
    const after = (await api.get(`/domain/${zone}/dns`)).body.records;
    expect(after).toEqual(before);
  });
});

describe('registering and renewing charge the balance', () => {
  it('addDomain charges the years, gives the service\'s nameservers when none are given and its own zone; renewDomain moves the expiry on', async () => {
    const balance = async () => (await api.control('GET', 'state')).body.accounts[0].balance;
    const start = await balance();
    expect(await api.post('/reseller/*/addDomain', { name: 'New-Name.example', years: 2, contact: { email: 'owner@example.org' }, privacyService: true }))
      .toMatchObject({ status: 200, body: { result: true } });
    expect(await balance()).toBe(start - 24);
    const added = (await api.get('/domain/new-name.example')).body;
    expect(added).toMatchObject({ name: 'new-name.example', nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com'], hasPrivacy: true });
    expect((await api.get('/domain/new-name.example/canTransfer')).body).toBe(false);
    expect((await api.post('/reseller/*/addDomain', { name: 'new-name.example', years: 1, contact: {} })).status).toBe(409);
    expect((await api.post('/reseller/*/renewDomain', { name: 'new-name.example', years: 1 })).status).toBe(200);
    expect(Date.parse((await api.get('/domain/new-name.example')).body.expiryDate)).toBe(Date.parse(added.expiryDate) + 365 * DAY);
    expect(await balance()).toBe(start - 36);
  });

  it('a balance too low is 402, and nothing is registered or charged', async () => {
    await api.control('POST', 'balance', { balance: 5 });
    const res = await api.post('/reseller/*/addDomain', { name: 'costly.example', years: 1, contact: {} });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toMatch(/not enough account balance: registering costly.example for 1 year costs 12.00, the balance is 5.00/);
    expect((await api.get('/domain/costly.example')).status).toBe(404);
    expect((await api.post('/reseller/*/renewDomain', { name: 'example-blog.com', years: 1 })).status).toBe(402);
    expect((await api.control('GET', 'state')).body.accounts[0].balance).toBe(5);
  });

  it.each([
    [{ name: 'bad name', years: 1, contact: {} }, /name:/],
    [{ name: 'ok.example', years: 0, contact: {} }, /years must be an integer from 1 to 10/],
    [{ name: 'ok.example', years: 1 }, /contact must be an object/],
    [{ name: 'ok.example', years: 1, contact: {}, nameservers: ['ns1.example.org'] }, /at least 2/],
  ])('addDomain %j is 400', async (body, message) => {
    const res = await api.post('/reseller/*/addDomain', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('there is no delete route', async () => {
    const res = await api.post('/domain/example-blog.com/delete', {});
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/No route handler/);
  });
});

describe('page and profile', () => {
  it('the control-panel page lists the registrations with their nameservers and lock', async () => {
    const res = await fetch(`${h.emu.url}/accounts/989900`);
    const page = await res.text();
    expect(page).toContain('id="domains-heading"');
    expect(page).toContain('example-registered.net');
    expect(page).toContain('ada.ns.cloudflare.com');
  });

  it("profile 'documented': the nameservers in {\"result\": [...]}, the detail without assumed fields, dates without a time", async () => {
    const doc = await startHarness({ profile: 'documented' });
    try {
      expect((await doc.api.get('/domain/example-blog.com/nameservers')).body).toEqual({ result: ['ns1.stackdns.com', 'ns2.stackdns.com'] });
      expect((await doc.api.get('/domain/example-blog.com')).body).toEqual({ name: 'example-blog.com', nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com'] });
      expect((await doc.api.get('/domain')).body[0].expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await doc.api.post('/domain/example-blog.com/canTransfer', { enable: false })).status).toBe(200);
    } finally {
      await doc.emu.stop();
    }
  });
});
