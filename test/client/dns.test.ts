import { ConflictError, DnsRecord, ResellerClient, fullyQualifiedHost, normaliseIpv6, relativeHost } from '../../src/client';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { json, RecordedRequest, ScriptedServer, startScriptedServer } from './scripted-server';

/**
 * The DNS noun (api-notes "DNS records"): against the emulator over HTTP in both
 * profiles (the documented one reads numbers as strings and names with a trailing dot),
 * and against a scripted server for the wire body and the tolerant reading.
 */

const KEY = 'dns-client-key';
const strip = ({ ref: _ref, ...rest }: DnsRecord) => rest;

describe.each(['default', 'documented'] as const)('against the emulator (%s profile)', (profile) => {
  let emu: RunningEmulator;
  let client: ResellerClient;
  let pkg: number;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true, apiKey: KEY, profile });
    client = new ResellerClient({ baseUrl: emu.url, apiKey: KEY });
    pkg = await client.packages.create({ type: 811, domainName: 'Shop.example', extraDomainNames: ['shop.example.org'] });
  });
  afterAll(async () => {
    client.close();
    await emu.stop();
  });

  it('lists every zone and reads one, fully qualified and normalised whatever the read form', async () => {
    const zones = await client.dns.listZones(pkg);
    expect(zones.map((z) => z.name)).toEqual(['shop.example', 'shop.example.org']);
    const zone = await client.dns.getZone(pkg, 'shop.example');
    expect(zone).toEqual(zones[0]);
    expect(zone!.records.map(strip)).toEqual([
      { type: 'SOA', host: 'shop.example', value: 'ns1.stackdns.com' },
      ...[1, 2, 3, 4].map((n) => ({ type: 'NS', host: 'shop.example', value: `ns${n}.stackdns.com` })),
      { type: 'A', host: 'shop.example', value: expect.stringMatching(/^192\.0\.2\.\d+$/) },
      { type: 'A', host: 'www.shop.example', value: expect.stringMatching(/^192\.0\.2\.\d+$/) },
      { type: 'MX', host: 'shop.example', value: 'mx.stackmail.com', priority: 10 },
    ]);
    expect(zone!.records[0].ref).toBeNull();
    expect(zone!.records.slice(1).every((r) => typeof r.ref === 'number')).toBe(true);
  });

  it('getZone of a name that is not a zone apex, or of an unknown package: undefined', async () => {
    await expect(client.dns.getZone(pkg, 'www.shop.example')).resolves.toBeUndefined();
    await expect(client.dns.getZone(999999, 'shop.example')).resolves.toBeUndefined();
  });

  it('adds records with fully qualified or relative hosts, replaces one in one change, reads the new refs back', async () => {
    await client.dns.changeZone('shop.example', 'shop.example', {
      add: [
        { type: 'TXT', host: 'shop.example', value: 'v=spf1 include:stackmail.com -all' },
        { type: 'CNAME', host: 'blog.shop.example.', value: 'shop.example.org' },
        { type: 'MX', host: '@', value: 'backup-mx.example.net', priority: 20 },
        { type: 'SRV', host: '_sip._tcp', value: 'sip.shop.example', priority: 1, weight: 5, port: 5060 },
        { type: 'AAAA', host: 'v6', value: '2001:DB8:0:0::1' },
      ],
    });
    let records = (await client.dns.getZone(pkg, 'shop.example'))!.records;
    expect(records.map(strip)).toEqual(expect.arrayContaining([
      { type: 'TXT', host: 'shop.example', value: 'v=spf1 include:stackmail.com -all' },
      { type: 'CNAME', host: 'blog.shop.example', value: 'shop.example.org' },
      { type: 'MX', host: 'shop.example', value: 'backup-mx.example.net', priority: 20 },
      { type: 'SRV', host: '_sip._tcp.shop.example', value: 'sip.shop.example', priority: 1, weight: 5, port: 5060 },
      { type: 'AAAA', host: 'v6.shop.example', value: '2001:db8::1' },
    ]));
    const old = records.find((r) => r.type === 'TXT')!;
    await client.dns.changeZone(pkg, 'shop.example', { add: [{ type: 'TXT', host: '@', value: 'v=spf1 -all' }], delete: [old.ref!] });
    records = (await client.dns.getZone(pkg, 'shop.example'))!.records;
    const txt = records.filter((r) => r.type === 'TXT');
    expect(txt.map(strip)).toEqual([{ type: 'TXT', host: 'shop.example', value: 'v=spf1 -all' }]);
    expect(txt[0].ref).not.toBe(old.ref);
  });

  it('a CNAME conflict under reject is a ConflictError and changes nothing', async () => {
    const before = await client.dns.getZone(pkg, 'shop.example');
    const error = await client.dns.changeZone(pkg, 'shop.example', { add: [{ type: 'CNAME', host: 'www', value: 'elsewhere.example.net' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, operation: 'changeDnsZone', method: 'POST', path: `/package/${pkg}/dns/shop.example` });
    await expect(client.dns.getZone(pkg, 'shop.example')).resolves.toEqual(before);
  });
});

describe('against a scripted server', () => {
  let server: ScriptedServer;
  let client: ResellerClient;
  let answer: unknown;

  beforeAll(async () => {
    server = await startScriptedServer((req, res) => json(res, 200, req.method === 'POST' ? { result: answer } : answer));
    client = new ResellerClient({ baseUrl: server.url, apiKey: KEY, retryBaseDelayMs: 1 });
  });
  afterAll(async () => {
    client.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  const only = (): RecordedRequest => {
    expect(server.requests).toHaveLength(1);
    return server.requests[0];
  };

  it('the write: every new key present, relative hosts, refs as strings, policies defaulted; the result is not read', async () => {
    for (const result of [true, null, { added: 3 }, [], 'ok']) {
      server.requests.length = 0;
      answer = result;
      await client.dns.changeZone(1000001, 'Example.com', {
        add: [
          { type: 'A', host: 'www.example.com', value: '192.0.2.1' },
          { type: 'MX', host: 'example.com.', value: 'mx.example.net', priority: 10 },
          { type: 'TXT', host: '_dmarc', value: 'v=DMARC1; p=none' },
        ],
        delete: [7000001, '7000002'],
      });
      const req = only();
      expect(req).toMatchObject({ method: 'POST', url: '/package/1000001/dns/Example.com' });
      expect(JSON.parse(req.body)).toEqual({
        conflictPolicy: 'reject',
        insertPolicy: 'append',
        new: {
          A: [{ host: 'www', ip: '192.0.2.1' }],
          AAAA: [],
          CNAME: [],
          MX: [{ host: '@', target: 'mx.example.net', pri: 10 }],
          TXT: [{ host: '_dmarc', txt: 'v=DMARC1; p=none' }],
          SRV: [],
        },
        delete: ['7000001', '7000002'],
      });
    }
  });

  it('bad arguments are TypeErrors before anything is sent', async () => {
    const change = (c: Parameters<ResellerClient['dns']['changeZone']>[2]) => client.dns.changeZone(1, 'example.com', c);
    await expect(change({ add: [{ type: 'NS' as 'A', host: '@', value: 'ns.example.net' }] })).rejects.toThrow(/add\[0\]\.type must be one of A, AAAA, CNAME, MX, TXT, SRV/);
    await expect(change({ add: [{ type: 'MX', host: '@', value: 'mx.example.net' }] })).rejects.toThrow(/priority of a MX record must be an integer/);
    await expect(change({ add: [{ type: 'SRV', host: '_x._tcp', value: 't.example.net', priority: 1, weight: 1 }] })).rejects.toThrow(/port of a SRV record/);
    await expect(change({ add: [{ type: 'A', host: 'www.other.example.', value: '192.0.2.1' }] })).rejects.toThrow(/host "www.other.example." is not in zone example.com/);
    await expect(change({ delete: ['abc'] })).rejects.toThrow(/delete\[0\] must be a record ref/);
    expect(server.requests).toHaveLength(0);
  });

  it('reads tolerantly: a bare list as a zone value, numbers as strings, trailing dots, any case, unknown types kept', async () => {
    answer = {
      'Example.com.': [
        { type: 'soa', host: 'example.com.', ref: null, mname: 'NS1.stackdns.com.', rname: 'hostmaster.stackdns.com.', serial: '2026010101' },
        { type: 'MX', host: 'Example.com.', ref: '7000003', pri: '10', target: 'MX.Example.net.' },
        { type: 'SRV', host: '_sip._tcp.example.com', ref: 7000004, pri: '1', weight: 5, port: '5060', target: 'sip.example.com.' },
        { type: 'AAAA', host: 'v6.example.com', ref: 7000005, ipv6: '2001:0DB8:0000:0000:0000:0000:0000:0001' },
        { type: 'CAA', host: 'example.com', ref: 7000006, flags: 0, tag: 'issue', value: 'ca.example' },
      ],
      'example.org': { records: [] },
    };
    const zones = await client.dns.listZones('example.com');
    expect(only()).toMatchObject({ method: 'GET', url: '/package/example.com/dns' });
    expect(zones).toEqual([
      {
        name: 'example.com',
        records: [
          { ref: null, type: 'SOA', host: 'example.com', value: 'ns1.stackdns.com' },
          { ref: 7000003, type: 'MX', host: 'example.com', value: 'mx.example.net', priority: 10 },
          { ref: 7000004, type: 'SRV', host: '_sip._tcp.example.com', value: 'sip.example.com', priority: 1, weight: 5, port: 5060 },
          { ref: 7000005, type: 'AAAA', host: 'v6.example.com', value: '2001:db8::1' },
          { ref: 7000006, type: 'CAA', host: 'example.com', value: '' },
        ],
      },
      { name: 'example.org', records: [] },
    ]);
  });

  it('a package without zones may read as [] (PHP); a record without its value is a shape error naming the field', async () => {
    answer = [];
    await expect(client.dns.listZones(1)).resolves.toEqual([]);
    answer = { records: [{ type: 'MX', host: 'example.com', ref: 1, target: 'mx.example.net' }] };
    await expect(client.dns.getZone(1, 'example.com')).rejects.toThrow(/getDnsZone: expected records\[0\]\.pri to be a number/);
  });
});

describe('names', () => {
  it.each([
    ['example.com', 'example.com', '@'],
    ['EXAMPLE.com.', 'example.com', '@'],
    ['@', 'example.com', '@'],
    ['www.example.com', 'example.com', 'www'],
    ['www.example.com.', 'Example.com.', 'www'],
    ['_dmarc', 'example.com', '_dmarc'],
    ['*.example.com', 'example.com', '*'],
    ['a.b', 'example.com', 'a.b'],
  ])('relativeHost(%p, %p) = %p', (host, zone, relative) => {
    expect(relativeHost(host, zone)).toBe(relative);
  });

  it('fullyQualifiedHost is the inverse; an absolute name outside the zone is an error', () => {
    expect(fullyQualifiedHost('@', 'example.com')).toBe('example.com');
    expect(fullyQualifiedHost('www', 'example.com.')).toBe('www.example.com');
    expect(fullyQualifiedHost('www.example.com', 'example.com')).toBe('www.example.com');
    expect(() => relativeHost('www.example.org.', 'example.com')).toThrow(TypeError);
  });

  it('normaliseIpv6 gives the RFC 5952 form', () => {
    expect(normaliseIpv6('2001:0DB8::0:1')).toBe('2001:db8::1');
    expect(normaliseIpv6(' ::FFFF:192.0.2.1 ')).toBe('::ffff:c000:201');
    expect(normaliseIpv6('not an address')).toBe('not an address');
  });
});
