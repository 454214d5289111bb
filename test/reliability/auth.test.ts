/**
 * Authentication and isolation: every API route of docs/emulator.md, called with no
 * key, the raw (un-encoded) key, a wrong key or another scheme, is 401; called with
 * ANOTHER account's key on this account's objects it is 404, exactly as for an object
 * that never existed (same status, same message but for the echoed identifier), and
 * no answer carries any of this account's names, ids or brand. Writes through the
 * other key change nothing here.
 */
import http from 'node:http';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { bearer, rawRequest, RawResponse } from './support';

const KEY_A = 'alpha-account-key';
const KEY_B = 'bravo-account-key';
const ACCOUNT_B = 555000;

let emu: RunningEmulator;
let agent: http.Agent;
const a = { pkg: 0, server: 0, mailbox: '', forwarder: '' };

const call = (method: string, path: string, authorization: string | undefined, body?: unknown): Promise<RawResponse> =>
  rawRequest(agent, emu.url, {
    method,
    path,
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function ok(method: string, path: string, key: string, body?: unknown) {
  const res = await call(method, path, bearer(key), body);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}

/** Account A's names, ids and brand: none may reach anyone without A's key. */
function secretsOfA(): RegExp[] {
  return [
    /alpha-secret\.example/, /alpha-extra\.example/, /alphabox/, /alphafwd/, /alpha-target/, /alpha-server\.example/, /Alpha Brand/, /alpha\.example\/logo/,
    new RegExp(`\\b${a.pkg}\\b`), new RegExp(`\\b${a.server}\\b`), new RegExp(`"${a.mailbox}"`), new RegExp(`"${a.forwarder}"`),
    /stack-user:98990[12]\b/, /\b98990[12]\b/, /\b989900\b/,
  ];
}

/**
 * A's secrets found in an answer (headers and body). An identifier the request itself
 * carried may be echoed back ("package 1000001 not found"): that is no leak.
 */
function leaks(res: RawResponse, request = ''): string[] {
  let text = `${JSON.stringify(res.headers)}\n${res.text}`;
  const echoes = [String(a.pkg), String(a.server), 'alpha-secret.example', 'alpha-extra.example', a.mailbox, a.forwarder, 'stack-user:989901', 'stack-user:989902', '989900'];
  for (const echo of echoes.filter((e) => request.includes(e))) text = text.split(echo).join('<echo>');
  return secretsOfA().filter((re) => re.test(text)).map(String);
}

/** Every API route of docs/emulator.md, with A's identifiers in the path and a plausible body. */
function routes(): Array<[string, string, unknown?]> {
  return [
    ['GET', '/reseller/*/susers'],
    ['GET', '/reseller/989900/susers'],
    ['POST', '/reseller/*/susers', { grant_map: { 'stack-user:989901': { [`package:${a.pkg}`]: false } } }],
    ['GET', '/reseller/*/packageTypes'],
    ['POST', '/reseller/*/addWeb', { type: '811', domain_name: 'new-site.example' }],
    ['GET', '/package'],
    ['GET', `/package/${a.pkg}`],
    ['GET', '/package/alpha-secret.example'],
    ['POST', '/reseller/*/deleteWeb', { 'delete-id': [String(a.pkg)] }],
    ['POST', '/reseller/*/updatePackage', { id: [a.pkg], labels: { [a.pkg]: 'Hijacked' } }],
    ['POST', `/package/${a.pkg}/names`, { add: ['hijack.example'] }],
    ['POST', `/package/${a.pkg}/userStatus`, { subservices: { default: false } }],
    ['GET', `/package/${a.pkg}/email/alpha-secret.example`],
    ['POST', `/package/${a.pkg}/email/alpha-secret.example`, { delete: [a.mailbox, a.forwarder] }],
    ['GET', '/cloud_server'],
    ['GET', `/cloud_server/${a.server}`],
    ['POST', '/reseller/*/addCloudServer', { configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'new.example' }, periodMonths: '1', type: 'cloud-20i', forUser: 'stack-user:989901' }],
    ['POST', `/cloud_server/${a.server}/addWeb`, { domain_name: 'new-app.example' }],
  ];
}

const accountA = () => JSON.stringify(emu.snapshot().accounts.find((x) => x.id === 989900));

beforeAll(async () => {
  agent = new http.Agent({ keepAlive: true });
  emu = await startEmulator({ port: 0, apiKey: KEY_A, provisionDelayMs: 0, quiet: true });
  a.pkg = (await ok('POST', '/reseller/*/addWeb', KEY_A, { type: '811', domain_name: 'alpha-secret.example', extra_domain_names: ['alpha-extra.example'], stackUser: 'stack-user:989901' })).result;
  await ok('POST', '/package/alpha-secret.example/email/alpha-secret.example', KEY_A, { new: { mailbox: { local: 'alphabox', send: 'true', receive: 'true', password: 'Alpha-Passw0rd' } } });
  await ok('POST', '/package/alpha-secret.example/email/alpha-secret.example', KEY_A, { new: { forward: { local: 'alphafwd', remote: 'alpha-target@example.org' } } });
  const mail = await ok('GET', '/package/alpha-secret.example/email/alpha-secret.example', KEY_A);
  [a.mailbox, a.forwarder] = [mail.mailbox[0].id, mail.forward[0].id];
  await fetch(`${emu.url}/__emulator/brand`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Alpha Brand', logoUrl: 'https://alpha.example/logo.png' }) });
  a.server = Number((await ok('POST', '/reseller/*/addCloudServer', KEY_A, {
    configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'alpha-server.example', resellerCloudBranded: true },
    periodMonths: '1', type: 'cloud-20i', forUser: 'stack-user:989901',
  })).result);
  await new Promise((r) => setTimeout(r, 20));
  await ok('POST', `/cloud_server/${a.server}/addWeb`, KEY_A, { domain_name: 'alpha-app.example' });
  const added = await fetch(`${emu.url}/__emulator/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: ACCOUNT_B, apiKey: KEY_B }) });
  expect(added.status).toBe(200);
  await ok('POST', '/reseller/*/addWeb', KEY_B, { type: '811', domain_name: 'bravo-site.example' });
});
afterAll(async () => {
  agent?.destroy();
  await emu?.stop();
});

const BAD_CREDENTIALS: Array<[string, string | undefined]> = [
  ['no Authorization header', undefined],
  ['an empty header', ''],
  ['the raw, un-encoded key', `Bearer ${KEY_A}`],
  ['a wrong key', bearer('not-the-key')],
  ['the key with two trailing newlines', bearer(`${KEY_A}\n\n`)],
  ['the key in another case', bearer(KEY_A.toUpperCase())],
  ['another scheme (Basic)', `Basic ${Buffer.from(KEY_A).toString('base64')}`],
  ["another account's raw key", `Bearer ${KEY_B}`],
  ['a bearer token with trailing garbage', `${bearer(KEY_A)} x`],
];

test.each(BAD_CREDENTIALS)('%s: 401 on every route, with no data and no change', async (_name, authorization) => {
  const before = accountA();
  for (const [method, path, body] of routes()) {
    const res = await call(method, path, authorization, body);
    expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 401 });
    expect(JSON.parse(res.text)).toEqual({ error: { message: expect.any(String) } });
    expect({ route: `${method} ${path}`, leaks: leaks(res, path + JSON.stringify(body ?? '')) }).toEqual({ route: `${method} ${path}`, leaks: [] });
  }
  expect(accountA()).toBe(before);
});

test('the raw key is refused with a message that says how to send it', async () => {
  const res = await call('GET', '/package', `Bearer ${KEY_A}`);
  expect(res.status).toBe(401);
  expect(JSON.parse(res.text).error.message).toMatch(/base64/);
});

test("another account's key lists only its own objects", async () => {
  for (const path of ['/package', '/cloud_server', '/reseller/*/susers', '/reseller/*/packageTypes', `/reseller/${ACCOUNT_B}/susers`]) {
    const res = await call('GET', path, bearer(KEY_B));
    expect({ path, status: res.status, leaks: leaks(res) }).toEqual({ path, status: 200, leaks: [] });
  }
  expect((await ok('GET', '/package', KEY_B)).map((p: { name: string }) => p.name)).toEqual(['bravo-site.example']);
  expect(await ok('GET', '/cloud_server', KEY_B)).toEqual([]);
});

/**
 * For each probe, the same request naming an object that never existed: A's objects
 * must look exactly like that through B's key (status, body; headers without brand).
 */
test("another account's key gets 404 for this account's objects, exactly as for objects that never existed", async () => {
  const before = accountA();
  const never = { pkg: '999999', domain: 'never-existed.example', server: '399999', mailbox: 'm999999', forwarder: 'f999999' };
  const swap = (s: string) =>
    s.split(String(a.pkg)).join(never.pkg).split('alpha-secret.example').join(never.domain).split(String(a.server)).join(never.server)
      .split(a.mailbox).join(never.mailbox).split(a.forwarder).join(never.forwarder)
      .split('stack-user:989901').join('stack-user:999991').split('stack-user:989902').join('stack-user:999992');
  const probes = routes().filter(([, path, body]) => /\d{6}|alpha/.test(path + JSON.stringify(body ?? '')) && !path.startsWith('/reseller/*/susers'));
  probes.push(
    ['GET', '/package/alpha-extra.example'],
    ['POST', `/package/${a.pkg}/email/alpha-secret.example`, { new: { mailbox: { local: 'intruder', send: 'true', receive: 'true', password: 'Intruder-Passw0rd' } } }],
    ['POST', `/package/${a.pkg}/email/alpha-secret.example`, { update: { mailbox: [{ id: a.mailbox, password: 'Intruder-Passw0rd' }] } }],
    ['POST', `/package/${a.pkg}/email/alpha-secret.example`, { update: { [a.mailbox]: { password: 'Intruder-Passw0rd' } } }],
    ['POST', '/reseller/*/susers', { users: { 'stack-user:989901': { delete: true } } }],
    ['POST', '/reseller/*/susers', { grant_map: { 'stack-user:989902': { [`package:${a.pkg}`]: true } } }],
  );
  expect(probes.length).toBeGreaterThan(12);
  for (const [method, path, body] of probes) {
    const real = await call(method, path, bearer(KEY_B), body);
    const fake = await call(swap(method), swap(path), bearer(KEY_B), body === undefined ? undefined : JSON.parse(swap(JSON.stringify(body))));
    const route = `${method} ${path} ${JSON.stringify(body ?? '')}`;
    // 404: another account's object. Two documented exceptions: deleteWeb answers {"<id>": false}
    // for any id it does not find, and an order naming a user it does not know is a 400.
    const expected = path.endsWith('deleteWeb') ? 200 : path.endsWith('addCloudServer') ? 400 : 404;
    expect({ route, status: real.status }).toEqual({ route, status: expected });
    expect({ route, body: swap(real.text), status: real.status }).toEqual({ route, body: fake.text, status: fake.status });
    expect({ route, brand: real.headers['x-brand-name'] }).toEqual({ route, brand: undefined });
    // Identifiers the request itself carried may be echoed ("package 1000001 not found"); nothing else.
    expect({ route, leaks: leaks(real, route) }).toEqual({ route, leaks: [] });
  }
  // The other account's writes did nothing here.
  expect(accountA()).toBe(before);
  // The deleteWeb probe answered as for an unknown id: {"<id>": false}.
  expect(await ok('POST', '/reseller/*/deleteWeb', KEY_B, { 'delete-id': [String(a.pkg)] })).toEqual({ result: { [a.pkg]: false } });
  expect(accountA()).toBe(before);
});

test("a reseller id other than the caller's own is 404 on every /reseller route", async () => {
  for (const [method, path, body] of routes().filter(([, p]) => p.startsWith('/reseller/*/'))) {
    const res = await call(method, path.replace('/reseller/*/', '/reseller/989900/'), bearer(KEY_B), body);
    expect({ path, status: res.status, leaks: leaks(res, `/reseller/989900/ ${JSON.stringify(body ?? '')}`) }).toEqual({ path, status: 404, leaks: [] });
    const own = await call(method, path.replace('/reseller/*/', `/reseller/${ACCOUNT_B}/`), bearer(KEY_A), body);
    expect({ path, status: own.status }).toEqual({ path, status: 404 });
  }
});
