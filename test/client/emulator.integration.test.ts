import {
  labelOf,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PaymentRequiredError,
  ResellerClient,
  UnauthorizedError,
  WriteOutcomeUnknownError,
  isDuplicateError,
  isValidationError,
} from '../../src/client';
import { RunningEmulator, startEmulator } from '../../src/emulator';

/**
 * Every client method against the emulator over real HTTP. The assertions state the
 * api-notes behaviour (the wire contract), not whatever the emulator happens to do.
 */

const KEY = 'emulator-key';
let emu: RunningEmulator;
let client: ResellerClient;
const logLines: string[] = [];

async function control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.url}/__emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  fault: string | null;
}
const requests = async () => (await control('GET', 'requests')) as LoggedRequest[];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, provisionDelayMs: 0 });
  client = new ResellerClient({ baseUrl: emu.url, apiKey: KEY, retryBaseDelayMs: 5, maxRetryDelayMs: 20, timeoutMs: 5000, log: (l) => logLines.push(l) });
});
afterAll(async () => {
  client?.close();
  await emu?.stop();
});
beforeEach(async () => {
  await control('POST', 'reset');
});

let domainCounter = 0;
const freshDomain = () => `site${++domainCounter}-${Date.now().toString(36)}.example.com`;

describe('users', () => {
  test('listUsers returns the fixtures; findUserByEmail is case-insensitive', async () => {
    const list = await client.users.list();
    expect(Object.keys(list.contact).sort()).toEqual(['stack-user:989901', 'stack-user:989902']);
    expect(list.contact['stack-user:989901'].email).toBe('owner@example.com');
    expect(list.grantMap).toEqual({ 'stack-user:989901': {}, 'stack-user:989902': {} });
    await expect(client.users.findByEmail('OWNER@Example.com')).resolves.toBe('stack-user:989901');
    await expect(client.users.findByEmail('ops@example.org')).resolves.toBe('stack-user:989902');
    await expect(client.users.findByEmail('nobody@example.com')).resolves.toBeUndefined();
  });

  test('createUser / deleteUser', async () => {
    const ref = await client.users.create({ email: 'new.person@example.net', personName: 'New Person' });
    expect(ref).toMatch(/^stack-user:[0-9]+$/);
    const list = await client.users.list();
    expect(list.contact[ref]).toMatchObject({ email: 'new.person@example.net', person_name: 'New Person' });
    await expect(client.users.findByEmail('New.Person@example.net')).resolves.toBe(ref);
    await client.users.delete(ref);
    expect((await client.users.list()).contact[ref]).toBeUndefined();
  });

  test('setPackageGrant links and unlinks a user and a package', async () => {
    const id = await client.packages.create({ type: 811, domainName: freshDomain(), extraDomainNames: [] });
    await client.users.setPackageGrant('stack-user:989902', id, true);
    expect((await client.users.list()).grantMap['stack-user:989902']).toEqual({ [`package:${id}`]: 1 });
    expect((await client.packages.get(id))?.stackUsers).toEqual(['stack-user:989902']);
    await client.users.setPackageGrant('stack-user:989902', String(id), false);
    expect((await client.users.list()).grantMap['stack-user:989902']).toEqual({});
  });
});

describe('package types and packages', () => {
  test('listPackageTypes returns the fixture types with numeric ids, and their limits ("INF": null)', async () => {
    const unlimited = { domains: null, webspace: null, bandwidth: null, mailboxes: null, mysqlDatabases: null };
    // Web settings: free certificates (unlimited) and PHP switching, neither on Windows.
    const web = { freeSsl: null, switchPhpVersion: 1 };
    await expect(client.packageTypes.list()).resolves.toEqual([
      { id: 811, label: 'Linux Unlimited', platform: 'linux', limits: { ...unlimited, ...web } },
      { id: 812, label: 'Linux Starter', platform: 'linux', limits: { domains: 5, webspace: 10240, bandwidth: null, mailboxes: 10, mysqlDatabases: 5, mailAutoresponders: 2, ...web } },
      { id: 813, label: 'Windows Unlimited', platform: 'windows', limits: { ...unlimited, freeSsl: 0, switchPhpVersion: 0 } },
      { id: 820, label: 'Managed Cloud', platform: 'linux', limits: { ...unlimited, ...web } },
    ]);
  });

  test('package lifecycle: create, list, get by id and domain, change, disable, delete', async () => {
    const domain = freshDomain();
    const extra = `www-${domain}`;
    const id = await client.packages.create({
      type: 811, domainName: domain, extraDomainNames: [extra], label: 'Example Ltd',
      documentRoots: { [extra]: 'public_html/www' }, stackUser: 'stack-user:989901',
    });
    expect(typeof id).toBe('number');

    const listed = (await client.packages.list()).find((p) => p.id === id);
    expect(listed).toMatchObject({ id, name: domain, names: [domain, extra], typeRef: 811, enabled: true, stackUsers: ['stack-user:989901'] });
    expect(labelOf(listed!)).toBe('Example Ltd');

    const detail = {
      id, enabled: true, name: domain, names: [domain, extra], stackUsers: ['stack-user:989901'], typeRef: 811, label: 'Example Ltd', platform: 'linux',
      webIpv4: expect.stringMatching(/^192\.0\.2\.[0-9]+$/),
    };
    await expect(client.packages.get(id)).resolves.toEqual(detail);
    await expect(client.packages.get(String(id))).resolves.toEqual(detail);
    await expect(client.packages.get(domain)).resolves.toEqual(detail);

    await client.packages.setType(id, 812);
    await client.packages.setLabel(id, 'Renamed');
    expect(await client.packages.get(id)).toMatchObject({ typeRef: 812, label: 'Renamed' });
    const typeError = await client.packages.setType(id, 813).catch((e: unknown) => e);
    expect(typeError).toBeInstanceOf(BadRequestError); // new type on another platform
    expect(isValidationError(typeError)).toBe(true);

    const third = `mail-${domain}`;
    await expect(client.packages.changeNames(id, { add: [third], remove: [extra] })).resolves.toEqual([domain, third]);
    await expect(client.packages.changeNames(id, { add: [third] })).resolves.toEqual([domain, third]); // silent no-op
    await expect(client.packages.changeNames(id, { remove: [domain, third] })).rejects.toBeInstanceOf(BadRequestError);

    await client.packages.setEnabled(id, false);
    expect((await client.packages.get(id))?.enabled).toBe(false);
    expect((await client.packages.list()).find((p) => p.id === id)?.enabled).toBe(false);
    await client.packages.setEnabled(id, true);
    expect((await client.packages.get(id))?.enabled).toBe(true);

    await expect(client.packages.delete(id)).resolves.toBe(true);
    await expect(client.packages.get(id)).resolves.toBeUndefined();
    await expect(client.packages.get(domain)).resolves.toBeUndefined();
    await expect(client.packages.delete(id)).resolves.toBe(false);
  });

  test('a domain already on a package is a 409 ConflictError (isDuplicateError)', async () => {
    const domain = freshDomain();
    await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
    const error = await client.packages.create({ type: 812, domainName: domain, extraDomainNames: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(isDuplicateError(error)).toBe(true);
    expect((error as ConflictError).message).toMatch(/^createPackage POST \/reseller\/\*\/addWeb failed: 409 Conflict: /);
    expect((error as ConflictError).apiMessage).toBeTruthy();
  });

  test('validation failures are 400 BadRequestError with the API message', async () => {
    const error = await client.packages.create({ type: 811, domainName: 'not a domain', extraDomainNames: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).apiMessage).toBeTruthy();
  });

  test('an unknown package in a write path is a NotFoundError', async () => {
    await expect(client.packages.setEnabled(999999999, false)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('mail', () => {
  const password = 'Mailbox-Pass-123';

  test('mailboxes and forwarders: create, read, update, duplicate, delete', async () => {
    const domain = freshDomain();
    const id = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
    await expect(client.mail.get(id, domain)).resolves.toEqual({ name: domain, mailboxes: [], forwarders: [], responders: [] });

    const created = await client.mail.createMailbox(id, domain, { local: 'info', send: true, receive: false, password });
    expect(created).toEqual({ name: domain, created: [{ type: 'mailbox', id: 'info', generatedId: null }] });
    expect(JSON.stringify(created)).not.toContain(password);

    const fwd = await client.mail.createForwarder(domain, domain, { local: 'sales', remote: 'team@example.org' });
    expect(fwd.name).toBe(domain);

    let mail = await client.mail.get(domain, domain); // a domain stands in for the package id
    expect(mail.mailboxes).toEqual([expect.objectContaining({ local: 'info', send: true, receive: false, enabled: true })]);
    expect(mail.mailboxes[0].id).toMatch(/^m/);
    expect(mail.forwarders).toEqual([{ id: expect.stringMatching(/^f/), local: 'sales', remote: 'team@example.org' }]);

    const dup = await client.mail.createMailbox(id, domain, { local: 'info', send: true, receive: true, password }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ConflictError);
    expect(isDuplicateError(dup)).toBe(true);
    expect(String((dup as Error).message)).not.toContain(password);

    await client.mail.updateMailbox(id, domain, { id: mail.mailboxes[0].id, send: false, receive: true });
    await client.mail.updateMailbox(id, domain, { id: mail.mailboxes[0].id, password: 'Another-Pass-456' });
    mail = await client.mail.get(id, domain);
    expect(mail.mailboxes[0]).toMatchObject({ local: 'info', send: false, receive: true });

    // deleteMail's 200 proves nothing (a wrong body shape also gets 200): read back.
    await client.mail.delete(id, domain, [mail.mailboxes[0].id, mail.forwarders[0].id]);
    await expect(client.mail.get(id, domain)).resolves.toEqual({ name: domain, mailboxes: [], forwarders: [], responders: [] });
  });

  test('a rejected password is a BadRequestError that does not repeat the password', async () => {
    const domain = freshDomain();
    const id = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
    const error = await client.mail.createMailbox(id, domain, { local: 'x', send: true, receive: true, password: 'short' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(JSON.stringify(error)).not.toMatch(/"short"|: short\b/);
  });

  test('mail of an unknown domain is a NotFoundError', async () => {
    const domain = freshDomain();
    const id = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
    await expect(client.mail.get(id, `other-${domain}`)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('cloud servers', () => {
  const order = (hostName: string, extra: Partial<{ spec: string; branded: boolean }> = {}) => ({
    configuration: { spec: extra.spec ?? 'small', zone: 'dc_location-uk', provider: '20icloud', mvpsName: hostName, resellerCloudBranded: extra.branded ?? false },
    periodMonths: 1,
    type: 'cloud-20i',
    forUser: 'stack-user:989901',
  });

  test('order (branded), list, get with brand, add a package on it', async () => {
    await control('POST', 'brand', { name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });
    const host = `web-${freshDomain()}`;
    const id = await client.cloudServers.order(order(host, { branded: true }));
    expect(typeof id).toBe('number');

    const listed = (await client.cloudServers.list()).find((s) => s.id === id);
    expect(listed).toMatchObject({ id, name: host, isCloud: expect.any(Boolean), isManaged: expect.any(Boolean), packageIds: [] });
    expect(listed!.configuration).toMatchObject({ spec: 'small', Zone: 'dc_location-uk', Provider: '20icloud' });

    const one = await client.cloudServers.get(id);
    expect(one?.server).toEqual(listed);
    expect(one?.brand).toEqual({ name: 'Acme Hosting', logoUrl: 'https://acme.example/logo.png' });

    const plainId = await client.cloudServers.order(order(`plain-${freshDomain()}`));
    const plain = await client.cloudServers.get(String(plainId));
    expect(plain?.server.id).toBe(plainId);
    expect(plain?.brand).toBeUndefined();

    const domain = freshDomain();
    const packageId = await client.packages.createOnCloudServer(id, { domainName: domain, extraDomainNames: [] });
    expect((await client.cloudServers.list()).find((s) => s.id === id)?.packageIds).toEqual([packageId]);
    expect((await client.packages.get(domain))?.id).toBe(packageId);
  });

  test('an unknown server is undefined; a server appears only once provisioned', async () => {
    await expect(client.cloudServers.get(987654321)).resolves.toBeUndefined();
    await control('POST', 'settings', { provisionDelayMs: 300 });
    const id = await client.cloudServers.order(order(`slow-${freshDomain()}`));
    await expect(client.cloudServers.get(id)).resolves.toBeUndefined();
    expect((await client.cloudServers.list()).some((s) => s.id === id)).toBe(false);
    const deadline = Date.now() + 5000;
    while (!(await client.cloudServers.list()).some((s) => s.id === id)) {
      if (Date.now() > deadline) throw new Error('server never provisioned');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await client.cloudServers.get(id))?.server.id).toBe(id);
  });

  test('an order the balance cannot pay is a 402 PaymentRequiredError, not retried', async () => {
    const error = await client.cloudServers.order(order(`big-${freshDomain()}`, { spec: '32x-large' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).apiMessage).toMatch(/balance/);
    expect((await requests()).filter((r) => r.path === '/reseller/*/addCloudServer')).toHaveLength(1);
  });
});

describe('auth and failure handling over real HTTP', () => {
  test('a wrong key is a 401 UnauthorizedError', async () => {
    const other = new ResellerClient({ baseUrl: emu.url, apiKey: 'not-the-key' });
    const error = await other.packages.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).apiMessage).toBeTruthy();
    expect((error as Error).message).not.toContain('not-the-key');
    other.close();
  });

  test('GET 503s are retried until they succeed', async () => {
    await control('POST', 'faults', { method: 'GET', path: '^/package$', status: 503, times: 2 });
    await expect(client.packages.list()).resolves.toEqual([]);
    expect((await requests()).map((r) => r.status)).toEqual([503, 503, 200]);
  });

  test('a POST 429 with Retry-After is retried, and the write happens once', async () => {
    await control('POST', 'faults', { method: 'POST', path: 'addWeb$', status: 429, retryAfterS: 0, times: 1 });
    const domain = freshDomain();
    const id = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] });
    expect((await client.packages.list()).filter((p) => p.name === domain).map((p) => p.id)).toEqual([id]);
    expect((await requests()).filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([429, 200]);
  });

  test('a POST whose connection drops after the commit: WriteOutcomeUnknownError, sent once, and the object can be looked up', async () => {
    await control('POST', 'faults', { method: 'POST', path: 'addWeb$', dropAfterCommit: true, times: 1 });
    const domain = freshDomain();
    const error = await client.packages.create({ type: 811, domainName: domain, extraDomainNames: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteOutcomeUnknownError);
    expect((error as Error).message).toContain('look the object up before trying again');
    expect((await requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
    // The write did happen: looking up finds it (what the handler does next).
    expect((await client.packages.get(domain))?.name).toBe(domain);
  });

  test('a POST that takes longer than the timeout: WriteOutcomeUnknownError with timedOut, sent once', async () => {
    await control('POST', 'faults', { method: 'POST', path: 'deleteWeb$', latencyMs: 600, times: 1 });
    const impatient = new ResellerClient({ baseUrl: emu.url, apiKey: KEY, timeoutMs: 200 });
    const error = await impatient.packages.delete(123).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WriteOutcomeUnknownError);
    expect((error as WriteOutcomeUnknownError).timedOut).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect((await requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
    impatient.close();
  });

  test('log lines name method, path and status only', () => {
    expect(logLines.length).toBeGreaterThan(20);
    for (const line of logLines) expect(line).toMatch(/^(GET|POST) \/\S* -> (\d{3}|[A-Z_]+|timeout) \(\d+ ms\)(; retry \d+ of \d+ in \d+ ms)?$/);
  });
});
