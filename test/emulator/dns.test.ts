import { Api, Harness, startHarness } from './helpers';

/** DNS records over HTTP (api-notes "DNS records"): reads, the atomic diff, zones following names. */

let h: Harness;
let api: Api;
let pkg: number;

beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await api.control('POST', 'reset');
  pkg = await api.addWeb('shop.example', { extra_domain_names: ['shop.example.org'] });
});

const zonePath = (apex = 'shop.example') => `/package/${pkg}/dns/${apex}`;
const EMPTY = { A: [], AAAA: [], CNAME: [], MX: [], TXT: [], SRV: [] };
const diff = (over: Record<string, unknown> = {}, add: Record<string, unknown[]> = {}) => ({
  conflictPolicy: 'reject',
  insertPolicy: 'append',
  new: { ...EMPTY, ...add },
  delete: [],
  ...over,
});
type WireRecord = Record<string, unknown> & { type: string; host: string; ref: number | null };
const records = async (apex = 'shop.example'): Promise<WireRecord[]> => (await api.get(zonePath(apex))).body.records;
const refOf = (list: WireRecord[], type: string, host: string) => list.find((r) => r.type === type && r.host === host)?.ref;

describe('reads', () => {
  it('every name of a package has a zone with the default records; the SOA has no ref', async () => {
    const all = await api.get(`/package/${pkg}/dns`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['shop.example', 'shop.example.org']);
    const list: WireRecord[] = all.body['shop.example'].records;
    const ip = (await api.get(`/package/${pkg}`)).body.web.info.ip4Address;
    expect(list.map(({ ref: _ref, ...r }) => r)).toEqual([
      { type: 'SOA', host: 'shop.example', mname: 'ns1.stackdns.com', rname: 'hostmaster.stackdns.com', serial: 1, refresh: 10800, retry: 3600, expire: 604800, 'minimum-ttl': 3600 },
      { type: 'NS', host: 'shop.example', target: 'ns1.stackdns.com' },
      { type: 'NS', host: 'shop.example', target: 'ns2.stackdns.com' },
      { type: 'NS', host: 'shop.example', target: 'ns3.stackdns.com' },
      { type: 'NS', host: 'shop.example', target: 'ns4.stackdns.com' },
      { type: 'A', host: 'shop.example', ip },
      { type: 'A', host: 'www.shop.example', ip },
      { type: 'MX', host: 'shop.example', pri: 10, target: 'mx.stackmail.com' },
    ]);
    expect(list[0].ref).toBeNull();
    expect(list.slice(1).every((r) => typeof r.ref === 'number')).toBe(true);
    expect(await records()).toEqual(list);
  });

  it('one zone by apex, any case or a trailing dot, by package id or domain; a non-apex name is 404', async () => {
    expect((await api.get(`/package/shop.example/dns/SHOP.example.`)).status).toBe(200);
    for (const name of ['www.shop.example', 'example', 'other.example', 'shop.example.org.uk']) {
      const res = await api.get(zonePath(name));
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/is not a DNS zone of package/);
    }
    expect((await api.get('/package/999999/dns')).status).toBe(404);
  });

  it('another account sees none of it', async () => {
    await api.control('POST', 'accounts', { id: 555000, apiKey: 'other-key' });
    expect((await api.as('other-key').get(`/package/${pkg}/dns`)).status).toBe(404);
    expect((await api.as('other-key').post(zonePath(), diff({}, { TXT: [{ host: '@', txt: 'x' }] }))).status).toBe(404);
  });
});

describe('writes', () => {
  it('adds records with relative hosts; reads them fully qualified with fresh refs', async () => {
    const res = await api.post(zonePath(), diff({}, {
      TXT: [{ host: '@', txt: 'v=spf1 include:stackmail.com -all' }, { host: '_dmarc', txt: 'v=DMARC1; p=none' }],
      CNAME: [{ host: 'blog', target: 'shop.example.org.' }],
      MX: [{ host: '@', pri: '20', target: 'backup-mx.example.net' }],
      SRV: [{ host: '_sip._tcp', pri: 1, weight: '5', port: 5060, target: 'sip.shop.example' }],
      AAAA: [{ host: 'v6', ipv6: '2001:DB8::1' }],
      A: [{ host: '*', ip: '198.51.100.7' }],
    }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
    const list = await records();
    expect(list).toEqual(expect.arrayContaining([
      expect.objectContaining({ type: 'TXT', host: 'shop.example', txt: 'v=spf1 include:stackmail.com -all' }),
      expect.objectContaining({ type: 'TXT', host: '_dmarc.shop.example', txt: 'v=DMARC1; p=none' }),
      expect.objectContaining({ type: 'CNAME', host: 'blog.shop.example', target: 'shop.example.org' }),
      expect.objectContaining({ type: 'MX', host: 'shop.example', pri: 20, target: 'backup-mx.example.net' }),
      expect.objectContaining({ type: 'SRV', host: '_sip._tcp.shop.example', pri: 1, weight: 5, port: 5060, target: 'sip.shop.example' }),
      expect.objectContaining({ type: 'AAAA', host: 'v6.shop.example', ipv6: '2001:db8::1' }),
      expect.objectContaining({ type: 'A', host: '*.shop.example', ip: '198.51.100.7' }),
    ]));
    const refs = list.map((r) => r.ref).filter((r) => r !== null);
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('a replacement is one POST: the new record is added and the old ref deleted; refs are never reused', async () => {
    await api.post(zonePath(), diff({}, { TXT: [{ host: '@', txt: 'old' }] }));
    const old = refOf(await records(), 'TXT', 'shop.example')!;
    expect((await api.post(zonePath(), diff({ delete: [String(old)] }, { TXT: [{ host: '@', txt: 'new' }] }))).status).toBe(200);
    const txt = (await records()).filter((r) => r.type === 'TXT');
    expect(txt).toEqual([expect.objectContaining({ txt: 'new' })]);
    expect(txt[0].ref).toBeGreaterThan(old);
    // Deleting the same ref again (a retried write) changes nothing and does not fail.
    expect((await api.post(zonePath(), diff({ delete: [old] }))).status).toBe(200);
    expect((await records()).filter((r) => r.type === 'TXT')).toEqual(txt);
  });

  it('an identical record added twice is kept twice (look before adding)', async () => {
    const add = diff({}, { TXT: [{ host: '@', txt: 'same' }] });
    await api.post(zonePath(), add);
    await api.post(zonePath(), add);
    expect((await records()).filter((r) => r.type === 'TXT' && r.txt === 'same')).toHaveLength(2);
  });

  it('conflictPolicy reject: a CNAME beside other records fails the whole POST with 409 and changes nothing', async () => {
    const before = await records();
    const ref = refOf(before, 'MX', 'shop.example')!;
    const res = await api.post(zonePath(), diff({ delete: [String(ref)] }, {
      TXT: [{ host: '@', txt: 'would be added' }],
      CNAME: [{ host: 'www', target: 'elsewhere.example.net' }],
    }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/ConflictingObject: new\.CNAME\[0\]: a CNAME at www\.shop\.example conflicts with the A record/);
    expect(await records()).toEqual(before);
    // A CNAME then anything at its name conflicts too, a second CNAME included.
    await api.post(zonePath(), diff({}, { CNAME: [{ host: 'blog', target: 'a.example.net' }] }));
    expect((await api.post(zonePath(), diff({}, { CNAME: [{ host: 'blog', target: 'b.example.net' }] }))).status).toBe(409);
    expect((await api.post(zonePath(), diff({}, { TXT: [{ host: 'blog', txt: 'x' }] }))).status).toBe(409);
  });

  it('conflictPolicy replace removes the conflicting records; ignore skips the conflicting add', async () => {
    expect((await api.post(zonePath(), diff({ conflictPolicy: 'ignore' }, {
      CNAME: [{ host: 'www', target: 'elsewhere.example.net' }],
      TXT: [{ host: 'www', txt: 'kept' }],
    }))).status).toBe(200);
    let www = (await records()).filter((r) => r.host === 'www.shop.example');
    expect(www.map((r) => r.type).sort()).toEqual(['A', 'TXT']);
    expect((await api.post(zonePath(), diff({ conflictPolicy: 'replace' }, { CNAME: [{ host: 'www', target: 'elsewhere.example.net' }] }))).status).toBe(200);
    www = (await records()).filter((r) => r.host === 'www.shop.example');
    expect(www).toEqual([expect.objectContaining({ type: 'CNAME', target: 'elsewhere.example.net' })]);
    // The apex's SOA and NS are never replaced: a CNAME there is a conflict under any policy but ignore.
    expect((await api.post(zonePath(), diff({ conflictPolicy: 'replace' }, { CNAME: [{ host: '@', target: 'x.example.net' }] }))).status).toBe(409);
  });

  it('insertPolicy replace swaps the records of each (host, type) that new adds to, before the adds', async () => {
    await api.post(zonePath(), diff({}, { TXT: [{ host: '@', txt: 'one' }, { host: '@', txt: 'two' }, { host: 'www', txt: 'other host' }] }));
    await api.post(zonePath(), diff({ insertPolicy: 'replace' }, { TXT: [{ host: '@', txt: 'only' }] }));
    const txt = (await records()).filter((r) => r.type === 'TXT').map((r) => [r.host, r.txt]);
    expect(txt).toEqual([['www.shop.example', 'other host'], ['shop.example', 'only']]);
    // The apex NS survive insertPolicy replace (NS cannot be added, so it never applies to them).
    expect((await records()).filter((r) => r.type === 'NS')).toHaveLength(4);
  });

  it('the SOA and the apex NS cannot be deleted; NS cannot be added', async () => {
    const list = await records();
    const ns = refOf(list, 'NS', 'shop.example')!;
    const res = await api.post(zonePath(), diff({ delete: [String(ns)] }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/NS at the apex and cannot be deleted/);
    const add = await api.post(zonePath(), { ...diff(), new: { ...EMPTY, NS: [{ host: 'sub', target: 'ns.example.net' }] } });
    expect(add.status).toBe(400);
    expect(add.body.error.message).toMatch(/new\.NS: NS records are not writable/);
    expect(await records()).toEqual(list);
  });

  it.each([
    ['missing conflictPolicy', { conflictPolicy: undefined }, {}, /conflictPolicy must be one of/],
    ['bad insertPolicy', { insertPolicy: 'prepend' }, {}, /insertPolicy must be one of/],
    ['neither new nor delete', { new: undefined, delete: undefined }, {}, /must have new and\/or delete/],
    ['a ref that is not digits', { delete: ['abc'] }, {}, /delete\[0\] must be a record ref/],
    ['an absolute host', {}, { TXT: [{ host: 'www.shop.example.', txt: 'x' }] }, /new\.TXT\[0\]\.host must be relative/],
    ['a bad label', {}, { A: [{ host: 'bad host', ip: '192.0.2.1' }] }, /new\.A\[0\]\.host/],
    ['an IPv6 address in an A', {}, { A: [{ host: '@', ip: '2001:db8::1' }] }, /new\.A\[0\]\.ip must be an IPv4 address/],
    ['a bad AAAA', {}, { AAAA: [{ host: '@', ipv6: '192.0.2.1' }] }, /new\.AAAA\[0\]\.ipv6/],
    ['an MX without pri', {}, { MX: [{ host: '@', target: 'mx.example.net' }] }, /new\.MX\[0\]\.pri must be an integer/],
    ['a port out of range', {}, { SRV: [{ host: '_x._tcp', pri: 1, weight: 1, port: 70000, target: 'a.example.net' }] }, /new\.SRV\[0\]\.port/],
    ['a one-label target', {}, { CNAME: [{ host: 'x', target: 'localhost' }] }, /new\.CNAME\[0\]\.target/],
    ['an empty TXT', {}, { TXT: [{ host: '@', txt: '' }] }, /new\.TXT\[0\]\.txt must not be empty/],
    ['an unknown type', {}, { PTR: [] }, /new\.PTR: "PTR" is not a record type/],
  ])('400 for %s, and nothing changes', async (_name, over, add, message) => {
    const before = await records();
    const res = await api.post(zonePath(), { ...diff(over as Record<string, unknown>, add as Record<string, unknown[]>) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
    expect(await records()).toEqual(before);
  });

  it('a write is refused for a non-apex name (404)', async () => {
    expect((await api.post(zonePath('www.shop.example'), diff({}, { TXT: [{ host: '@', txt: 'x' }] }))).status).toBe(404);
  });
});

describe('zones follow the package names', () => {
  it('a name added gets a zone with defaults, a name removed takes its zone along, deleteWeb takes all', async () => {
    await api.post(`/package/${pkg}/names`, { add: ['shop.example.net'], rem: ['shop.example.org'] });
    expect(Object.keys((await api.get(`/package/${pkg}/dns`)).body)).toEqual(['shop.example', 'shop.example.net']);
    expect((await records('shop.example.net')).map((r) => r.type)).toEqual(['SOA', 'NS', 'NS', 'NS', 'NS', 'A', 'A', 'MX']);
    expect((await api.get(zonePath('shop.example.org'))).status).toBe(404);
    // Re-adding the name gives a fresh zone: new refs, not the old ones.
    const oldRefs = (h.emu.snapshot().accounts[0].packages[0].dns[0].records).map((r) => r.ref);
    await api.post(`/package/${pkg}/names`, { add: ['shop.example.org'] });
    const fresh = (await records('shop.example.org')).map((r) => r.ref).filter((r) => r !== null);
    expect(fresh.some((r) => oldRefs.includes(r))).toBe(false);
    await api.post('/reseller/*/deleteWeb', { 'delete-id': [String(pkg)] });
    expect((await api.get(`/package/${pkg}/dns`)).status).toBe(404);
  });

  it('a name under another name of the package is not a zone apex; it becomes one when the name above it leaves', async () => {
    const id = await api.addWeb('blog.example', { extra_domain_names: ['www.blog.example', 'blog.example.net'] });
    expect(Object.keys((await api.get(`/package/${id}/dns`)).body)).toEqual(['blog.example', 'blog.example.net']);
    expect((await api.get(`/package/${id}/dns/www.blog.example`)).status).toBe(404);
    await api.post(`/package/${id}/names`, { rem: ['blog.example.net'], add: ['news.blog.example.net'] });
    expect(Object.keys((await api.get(`/package/${id}/dns`)).body)).toEqual(['blog.example', 'news.blog.example.net']);
  });

  it('the state dump shows every zone, records as the API reads them', async () => {
    const dump = h.emu.snapshot().accounts[0].packages[0].dns;
    expect(dump.map((z) => z.apex)).toEqual(['shop.example', 'shop.example.org']);
    expect(dump[0].records).toEqual(await records());
  });
});

describe('control API: an edit as the control panel makes it', () => {
  it('changes a record in place, keeping its ref; the host stays unless given', async () => {
    const ref = refOf(await records(), 'A', 'www.shop.example')!;
    const res = await api.control('POST', 'dns', { package: pkg, zone: 'shop.example', ref, record: { ip: '203.0.113.9' } });
    expect(res.status).toBe(200);
    expect(res.body.record).toEqual({ type: 'A', host: 'www.shop.example', ref, ip: '203.0.113.9' });
    expect((await records()).find((r) => r.ref === ref)).toEqual(res.body.record);
    const moved = await api.control('POST', 'dns', { package: 'shop.example', zone: 'shop.example', ref, record: { host: 'web', ip: '203.0.113.9' } });
    expect(moved.body.record.host).toBe('web.shop.example');
  });

  it('refuses the SOA and NS, unknown refs, bad values and CNAME conflicts', async () => {
    const list = await records();
    const ns = refOf(list, 'NS', 'shop.example')!;
    const mx = refOf(list, 'MX', 'shop.example')!;
    expect((await api.control('POST', 'dns', { package: pkg, zone: 'shop.example', ref: ns, record: { target: 'x.example.net' } })).status).toBe(400);
    expect((await api.control('POST', 'dns', { package: pkg, zone: 'shop.example', ref: 1, record: {} })).status).toBe(404);
    expect((await api.control('POST', 'dns', { package: pkg, zone: 'shop.example', ref: mx, record: { pri: -1 } })).status).toBe(400);
    await api.post(zonePath(), diff({}, { CNAME: [{ host: 'blog', target: 'a.example.net' }] }));
    const cname = refOf(await records(), 'CNAME', 'blog.shop.example')!;
    expect((await api.control('POST', 'dns', { package: pkg, zone: 'shop.example', ref: cname, record: { host: 'www', target: 'a.example.net' } })).status).toBe(409);
  });
});

describe('documented profile', () => {
  let doc: Harness;
  beforeAll(async () => {
    doc = await startHarness({ profile: 'documented' });
  });
  afterAll(() => doc.emu.stop());

  it('reads numbers as text and names with a trailing dot; the write result is null', async () => {
    const id = await doc.api.addWeb('doc.example');
    const res = await doc.api.post(`/package/${id}/dns/doc.example`, diff({}, { SRV: [{ host: '_sip._tcp', pri: 1, weight: 2, port: 5060, target: 'sip.doc.example' }] }));
    expect(res.body).toEqual({ result: null });
    const list: WireRecord[] = (await doc.api.get(`/package/${id}/dns/doc.example`)).body.records;
    expect(list.find((r) => r.type === 'SRV')).toMatchObject({ host: '_sip._tcp.doc.example.', pri: '1', weight: '2', port: '5060', target: 'sip.doc.example.' });
    expect(list.find((r) => r.type === 'SOA')).toMatchObject({ host: 'doc.example.', mname: 'ns1.stackdns.com.', serial: '1', ref: null });
    // The state is the same in both profiles.
    expect(doc.emu.snapshot().accounts[0].packages[0].dns[0].records.find((r) => r.type === 'SRV')).toMatchObject({ pri: 1, target: 'sip.doc.example' });
  });
});
