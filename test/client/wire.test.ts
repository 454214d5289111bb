import { labelOf, ResellerClient } from '../../src/client';
import { RecordedRequest, ScriptedServer, json, startScriptedServer } from './scripted-server';

/**
 * The wire contract of api-notes.md, method by method: path, body, and the
 * normalisation of what comes back. A scripted server answers with canned bodies in
 * the API's documented (and sometimes variant) forms.
 */

const KEY = 'wire-key';
let server: ScriptedServer;
let client: ResellerClient;
let answers: Record<string, unknown>;
let headers: Record<string, Record<string, string>>;

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    if (!(key in answers)) return json(res, 404, { error: { message: 'No route handler' } });
    json(res, 200, answers[key], headers[key] ?? {});
  });
  client = new ResellerClient({ baseUrl: server.url, apiKey: KEY, retryBaseDelayMs: 1 });
});
afterAll(() => server.close());
beforeEach(() => {
  answers = {};
  headers = {};
  server.requests.length = 0;
});

function only(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0];
}
const bodyOf = (r: RecordedRequest) => JSON.parse(r.body) as unknown;

test('every request carries Authorization: Bearer base64(key); POSTs send JSON', async () => {
  answers['GET /package'] = [];
  answers['POST /reseller/*/deleteWeb'] = { result: { '9': true } };
  await client.packages.list();
  await client.packages.delete(9);
  for (const r of server.requests) {
    expect(r.headers.authorization).toBe(`Bearer ${Buffer.from(KEY).toString('base64')}`);
    expect(r.headers.accept).toBe('application/json');
  }
  expect(server.requests[1].headers['content-type']).toBe('application/json');
});

describe('users', () => {
  const contact = (email: string) => ({
    address: '1 Road\nTown', avatarUrl: '', cc: 'GBR', ccAlpha2: 'GB', ccAlpha3: 'GBR', city: 'Leeds', company_name: '',
    company_number: '', createdAt: '2024-01-01T00:00:00+00:00', email, ext_billing_ref: null, nominet_contact_type: 'IND',
    notes: '', pc: 'LS1 1AA', person_name: 'A Person', sp: 'West Yorkshire', trading_name: '', voice: '+44.1130000000',
    firstName: 'A', lastName: 'Person',
  });

  test('listUsers: grant_map -> grantMap; PHP-style empty [] maps are accepted', async () => {
    answers['GET /reseller/*/susers'] = {
      contact: { 'stack-user:1': contact('Owner@Example.com'), 'stack-user:2': contact('ops@example.org') },
      grant_map: { 'stack-user:1': { 'package:7': 1, 'domain:3': 1 }, 'stack-user:2': [] },
      users: {},
      service_by_tuple: {},
    };
    const list = await client.users.list();
    expect(list.grantMap).toEqual({ 'stack-user:1': { 'package:7': 1, 'domain:3': 1 }, 'stack-user:2': {} });
    expect(list.contact['stack-user:1']).toEqual(contact('Owner@Example.com'));
    expect(Object.keys(list)).toEqual(['contact', 'grantMap']);
    expect(only().url).toBe('/reseller/*/susers');
  });

  test('findUserByEmail is case-insensitive; an ambiguous e-mail is an error', async () => {
    answers['GET /reseller/*/susers'] = { contact: { 'stack-user:1': contact('Owner@Example.com') }, grant_map: [] };
    await expect(client.users.findByEmail('owner@EXAMPLE.com')).resolves.toBe('stack-user:1');
    await expect(client.users.findByEmail('nobody@example.com')).resolves.toBeUndefined();
    answers['GET /reseller/*/susers'] = {
      contact: { 'stack-user:10': contact('x@example.com'), 'stack-user:9': contact('X@example.com') },
      grant_map: {},
    };
    await expect(client.users.findByEmail('x@example.com')).rejects.toThrow(/2 control-panel users have the e-mail x@example.com \(stack-user:9, stack-user:10\)/);
  });

  test('createUser, deleteUser, setPackageGrant bodies', async () => {
    answers['POST /reseller/*/susers'] = { result: { ref: 'stack-user:77', updated: 1 } };
    await expect(client.users.create({ email: 'new@example.com', personName: 'New Person' })).resolves.toBe('stack-user:77');
    await client.users.create({ email: 'bare@example.com' });
    answers['POST /reseller/*/susers'] = { result: { updated: 1 } };
    await client.users.delete('stack-user:77');
    await client.users.setPackageGrant('stack-user:1', '123', true);
    await client.users.setPackageGrant('stack-user:1', 123, false);
    expect(server.requests.map(bodyOf)).toEqual([
      { newUser: { email: 'new@example.com', person_name: 'New Person' } },
      { newUser: { email: 'bare@example.com' } },
      { users: { 'stack-user:77': { delete: true } } },
      { grant_map: { 'stack-user:1': { 'package:123': true } } },
      { grant_map: { 'stack-user:1': { 'package:123': false } } },
    ]);
  });
});

describe('package types and packages', () => {
  test('listPackageTypes: ids normalised to numbers; limits "INF" as null, numbers as numbers, none when absent', async () => {
    answers['GET /reseller/*/packageTypes'] = [
      { id: '811', label: 'Linux Unlimited', platform: 'linux', limits: { domains: 'INF', webspace: '10240', mailboxes: 10, odd: 'lots' } },
      { id: 813, label: 'Windows Unlimited', platform: 'windows' },
    ];
    await expect(client.packageTypes.list()).resolves.toEqual([
      { id: 811, label: 'Linux Unlimited', platform: 'linux', limits: { domains: null, webspace: 10240, mailboxes: 10 } },
      { id: 813, label: 'Windows Unlimited', platform: 'windows', limits: {} },
    ]);
  });

  test('listPackages: string ids normalised; labelOf reads packageLabels', async () => {
    const entry = { id: '7', created: '2024-01-01T00:00:00+00:00', enabled: true, name: 'a.com', names: ['a.com', 'b.com'], packageTypeName: 'Linux Unlimited', productSpec: null, stackUsers: ['stack-user:1'], typeRef: '811', packageLabels: [] };
    answers['GET /package'] = [entry, { ...entry, id: 8, typeRef: 812, packageLabels: ['Shop'] }, { ...entry, id: 9, packageLabels: [{ label: 'Blog' }] }, { ...entry, id: 10, packageLabels: [{ name: 'Old' }] }];
    const list = await client.packages.list();
    expect(list.map((p) => [p.id, p.typeRef])).toEqual([[7, 811], [8, 812], [9, 811], [10, 811]]);
    expect(list.map((p) => labelOf(p))).toEqual(['', 'Shop', 'Blog', 'Old']);
    expect(list[0]).toEqual({ ...entry, id: 7, typeRef: 811 });
  });

  test('getPackage by id or domain: web.name -> name, web.platform -> platform, label', async () => {
    const detail = { id: 7, enabled: false, names: ['a.com'], stackUsers: [], typeRef: 811, label: 'Shop', web: { name: 'a.com', platform: 'linux' } };
    answers['GET /package/7'] = detail;
    answers['GET /package/a.com'] = { ...detail, label: undefined };
    const expected = { id: 7, enabled: false, name: 'a.com', names: ['a.com'], stackUsers: [], typeRef: 811, label: 'Shop', platform: 'linux' };
    await expect(client.packages.get(7)).resolves.toEqual(expected);
    // No label in the response: not verifiable, so no label member (never read as "").
    const unlabelled = await client.packages.get('a.com');
    expect(unlabelled).not.toHaveProperty('label');
    expect(unlabelled).toEqual({ ...expected, label: undefined });
  });

  test('write bodies: addWeb, cloud addWeb, deleteWeb, updatePackage, names, userStatus', async () => {
    answers['POST /reseller/*/addWeb'] = { result: 1000001 };
    answers['POST /cloud_server/55/addWeb'] = { result: '1000002' };
    answers['POST /reseller/*/deleteWeb'] = { result: { '1000001': true } };
    answers['POST /reseller/*/updatePackage'] = { result: true };
    answers['POST /package/1000001/names'] = { result: ['a.com', 'c.com'] };
    answers['POST /package/1000001/userStatus'] = { result: true };
    await expect(client.packages.create({ type: 811, domainName: 'a.com', extraDomainNames: ['b.com'], label: 'Shop', documentRoots: { 'b.com': 'public_html/b' }, stackUser: 'stack-user:1' })).resolves.toBe(1000001);
    await expect(client.packages.create({ type: 812, domainName: 'z.com', extraDomainNames: [] })).resolves.toBe(1000001);
    await expect(client.packages.createOnCloudServer('55', { domainName: 'c.com', extraDomainNames: [] })).resolves.toBe(1000002);
    await expect(client.packages.delete('1000001')).resolves.toBe(true);
    await client.packages.setType(1000001, 812);
    await client.packages.setLabel(1000001, 'New');
    await expect(client.packages.changeNames(1000001, { add: ['c.com'], remove: ['b.com'] })).resolves.toEqual(['a.com', 'c.com']);
    await client.packages.changeNames(1000001, { add: ['d.com'] });
    await client.packages.setEnabled(1000001, false);
    await client.packages.setEnabled(1000001, true);
    expect(server.requests.map((r) => [r.method, r.url, bodyOf(r)])).toEqual([
      ['POST', '/reseller/*/addWeb', { type: '811', domain_name: 'a.com', extra_domain_names: ['b.com'], label: 'Shop', documentRoots: { 'b.com': 'public_html/b' }, stackUser: 'stack-user:1' }],
      ['POST', '/reseller/*/addWeb', { type: '812', domain_name: 'z.com', extra_domain_names: [], label: '', documentRoots: {}, stackUser: null }],
      ['POST', '/cloud_server/55/addWeb', { domain_name: 'c.com', extra_domain_names: [] }],
      ['POST', '/reseller/*/deleteWeb', { 'delete-id': ['1000001'] }],
      ['POST', '/reseller/*/updatePackage', { id: ['1000001'], packageBundleTypes: { '1000001': '812' } }],
      ['POST', '/reseller/*/updatePackage', { id: ['1000001'], labels: { '1000001': 'New' } }],
      ['POST', '/package/1000001/names', { add: ['c.com'], rem: ['b.com'] }],
      ['POST', '/package/1000001/names', { add: ['d.com'], rem: [] }],
      ['POST', '/package/1000001/userStatus', { subservices: { default: false } }],
      ['POST', '/package/1000001/userStatus', { includeRepeated: true, subservices: { default: true } }],
    ]);
  });

  test('a {"result": false} answer to updatePackage/userStatus is an error', async () => {
    answers['POST /reseller/*/updatePackage'] = { result: false };
    await expect(client.packages.setLabel(1, 'x')).rejects.toThrow('setPackageLabel POST /reseller/*/updatePackage failed: the API answered {"result": false}');
  });

  test('resellerId goes into /reseller/{id} paths', async () => {
    const other = new ResellerClient({ baseUrl: server.url, apiKey: KEY, resellerId: '4242' });
    answers['GET /reseller/4242/packageTypes'] = [];
    await expect(other.packageTypes.list()).resolves.toEqual([]);
  });
});

describe('mail', () => {
  test('getMail: mailbox -> mailboxes, forward -> forwarders, send/receive as booleans or strings', async () => {
    answers['GET /package/a.com/email/a.com'] = {
      name: 'a.com',
      mailbox: [
        { id: 'm1', local: 'info', send: 'true', receive: 'false', enabled: true, quotaMB: 1024, usageMB: '3.5' },
        { id: 'm2', local: 'sales', send: false, receive: true, enabled: 1 },
      ],
      forward: [{ id: 'f3', local: 'team', remote: 'team@example.org' }],
    };
    await expect(client.mail.get('a.com', 'a.com')).resolves.toEqual({
      name: 'a.com',
      mailboxes: [
        { id: 'm1', local: 'info', send: true, receive: false, enabled: true, quotaMB: 1024, usageMB: 3.5 },
        { id: 'm2', local: 'sales', send: false, receive: true, enabled: true },
      ],
      forwarders: [{ id: 'f3', local: 'team', remote: 'team@example.org' }],
      responders: [],
    });
  });

  test('createMailbox: "true"/"false" strings on the wire; the echoed password is dropped', async () => {
    answers['POST /package/7/email/a.com'] = { result: { result: [{ type: 'mailbox', id: 'info', generatedId: null, password: 'S3cret!pw' }], name: 'a.com' } };
    const result = await client.mail.createMailbox(7, 'a.com', { local: 'info', send: true, receive: false, password: 'S3cret!pw' });
    expect(result).toEqual({ name: 'a.com', created: [{ type: 'mailbox', id: 'info', generatedId: null }] });
    expect(JSON.stringify(result)).not.toContain('S3cret');
    expect(bodyOf(only())).toEqual({ new: { mailbox: { local: 'info', send: 'true', receive: 'false', password: 'S3cret!pw' } } });
  });

  test('createForwarder, updateMailbox (keyed by id, as the service\'s webmail driver sends it), deleteMail (flat array)', async () => {
    answers['POST /package/7/email/a.com'] = { result: { result: [{ type: 'forward', id: 'team', generatedId: null }], name: 'a.com' } };
    await expect(client.mail.createForwarder(7, 'a.com', { local: 'team', remote: 'team@example.org' })).resolves.toEqual({
      name: 'a.com',
      created: [{ type: 'forward', id: 'team', generatedId: null }],
    });
    answers['POST /package/7/email/a.com'] = { result: { result: [], name: 'a.com' } };
    await client.mail.updateMailbox(7, 'a.com', { id: 'm1', send: false, password: 'N3w!pw' });
    await client.mail.updateMailbox('7', 'a.com', { id: 'm1', receive: true });
    await client.mail.delete(7, 'a.com', ['m1', 'f3']);
    expect(server.requests.map(bodyOf)).toEqual([
      { new: { forward: { local: 'team', remote: 'team@example.org' } } },
      { update: { m1: { send: 'false', password: 'N3w!pw' } } },
      { update: { m1: { receive: 'true' } } },
      { delete: ['m1', 'f3'] },
    ]);
  });

  test('autoresponders: create (new.responder as the production plugin sends it), update keyed by r… id, delete by id, the own list route', async () => {
    answers['POST /package/7/email/a.com'] = { result: { result: [], name: 'a.com' } };
    answers['GET /package/7/email/a.com/responder'] = [{ id: 'r5', local: 'away', subject: 'S', content: 'C', forwardTo: null, enabled: true, startTime: null, endTime: null, type: 'text/html' }];
    const fields = { subject: 'Out', content: '<p>Soon</p>', type: 'text/html', enabled: true, startTime: '2026-12-24T09:00:00Z', endTime: null, forwardTo: 'desk@example.org' };
    await client.responders.create(7, 'a.com', 'away', fields);
    await client.responders.update('7', 'a.com', 'r5', { ...fields, enabled: false });
    await client.responders.delete(7, 'a.com', 'r5');
    expect(await client.responders.list(7, 'a.com')).toEqual([
      { id: 'r5', local: 'away', subject: 'S', content: 'C', type: 'text/html', enabled: true, startTime: null, endTime: null, forwardTo: null },
    ]);
    const wire = { subject: 'Out', content: '<p>Soon</p>', type: 'text/html', enabled: true, startTime: '2026-12-24T09:00:00Z', endTime: null, forwardTo: 'desk@example.org' };
    expect(server.requests.filter((r) => r.method === 'POST').map(bodyOf)).toEqual([
      { new: { responder: { local: 'away', ...wire } } },
      { update: { r5: { ...wire, enabled: false } } },
      { delete: ['r5'] },
    ]);
  });

  test('createForwarder tolerates a different (assumed) response shape', async () => {
    answers['POST /package/7/email/a.com'] = { result: 'f99' };
    await expect(client.mail.createForwarder(7, 'a.com', { local: 'x', remote: 'y@example.org' })).resolves.toEqual({ name: 'a.com', created: [] });
  });

  test('domains are percent-encoded path segments', async () => {
    answers['GET /package/xn--bcher-kva.example/email/xn--bcher-kva.example'] = { name: 'xn--bcher-kva.example', mailbox: [], forward: [] };
    await client.mail.get('xn--bcher-kva.example', 'xn--bcher-kva.example');
    await expect(client.mail.get(7, 'a.com/../x')).rejects.toThrow(); // 404 from the script: encoded, not traversed
    expect(server.requests[1].url).toBe('/package/7/email/a.com%2F..%2Fx');
  });
});

describe('cloud servers', () => {
  const server1 = {
    configuration: { CpuCores: 2, RamMb: 4096, OsDiskSizeGb: 80, DataDiskSizeGb: 0, Provider: '20icloud', Zone: 'dc_location-uk', Country: 'GB', VpsOsId: 1, spec: 'medium' },
    externalId: 99, location: 'dc_location-uk', name: 'web1.example.com', productSpec: 'cloud-20i', count: '∞', cpanel: '', cpanelInfo: '', cpanelRebuilding: '',
    id: '31', isCloud: 1, isManaged: 0, packageIds: ['1000002'], profileId: 3, timelineService: 'x',
  };

  test('listCloudServers: isCloud/isManaged 1/0 -> booleans, ids -> numbers', async () => {
    answers['GET /cloud_server'] = [server1, { ...server1, id: 32, isCloud: true, isManaged: true, packageIds: [] }];
    const list = await client.cloudServers.list();
    expect(list[0]).toEqual({
      id: 31, name: 'web1.example.com', location: 'dc_location-uk', configuration: server1.configuration, externalId: 99,
      productSpec: 'cloud-20i', isCloud: true, isManaged: false, packageIds: [1000002], profileId: 3, timelineService: 'x',
    });
    expect(list[1]).toMatchObject({ id: 32, isCloud: true, isManaged: true, packageIds: [] });
  });

  test('getCloudServer: brand from X-Brand-Name / X-Brand-Logo; none without headers', async () => {
    answers['GET /cloud_server/31'] = server1;
    headers['GET /cloud_server/31'] = { 'X-Brand-Name': 'Acme Hosting', 'X-Brand-Logo': 'https://acme.example/logo.png' };
    answers['GET /cloud_server/32'] = { ...server1, id: 32 };
    const branded = await client.cloudServers.get(31);
    expect(branded?.brand).toEqual({ name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });
    expect(branded?.server.id).toBe(31);
    headers['GET /cloud_server/31'] = { 'X-Brand-Name': encodeURIComponent('Bücher Hosting'), 'X-Brand-Logo': 'https://b.example/100%25.png' };
    expect((await client.cloudServers.get(31))?.brand).toEqual({ name: 'Bücher Hosting', logoUrl: 'https://b.example/100%25.png' });
    const plain = await client.cloudServers.get('32');
    expect(plain).toEqual({ server: expect.objectContaining({ id: 32 }) });
    expect(plain).not.toHaveProperty('brand');
  });

  test('orderCloudServer: periodMonths as a string, "<id>" result -> number', async () => {
    answers['POST /reseller/*/addCloudServer'] = { result: '123' };
    const id = await client.cloudServers.order({
      configuration: { spec: 'medium', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example.com', resellerCloudBranded: true },
      periodMonths: 12, type: 'cloud-20i', forUser: 'stack-user:1',
    });
    expect(id).toBe(123);
    expect(bodyOf(only())).toEqual({
      configuration: { spec: 'medium', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example.com', resellerCloudBranded: true },
      periodMonths: '12', type: 'cloud-20i', forUser: 'stack-user:1',
    });
  });
});
