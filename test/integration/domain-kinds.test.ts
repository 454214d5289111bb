import { ResellerClient } from '../../src/client';
import { DnsRecordSpec, DomainNameserversSpec, DomainTransferLockSpec } from '../../src/protocol';
import { checkAccount, createContext, ensure, observe, ReconcileContext, remove } from '../../src/reconcile';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';

/**
 * The registration kinds through the core, over real HTTP against the emulator: a write
 * whose response is lost (the emulator commits it, then drops the connection) is read
 * back, one refused is written again from a fresh read; the account checks name the closest registrations; and
 * DNS records in a registration's own zone.
 */
let emu: TestEmulator;
let client: ResellerClient;
let ctx: ReconcileContext;
let lines: string[];

beforeAll(async () => {
  emu = await startTestEmulator({ provisionDelayMs: 50 });
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  client = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  lines = [];
  ctx = createContext({ client, info: (l) => lines.push(l), warn: (l) => lines.push(l), timing: { pollIntervalMs: 50, confirmTimeoutMs: 2_000 }, history: {} });
});
afterEach(async () => {
  client.close();
  await emu.control('DELETE', 'faults');
});
afterAll(() => emu?.stop());

const requests = async () => ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);
const ns = (nameservers: string[], domain = 'example-registered.net'): DomainNameserversSpec => ({ kind: 'domain-nameservers', path: 'Stack/ns', domain, nameservers });

test('a nameserver write whose response is lost is read back, not repeated; the registry ends as declared', async () => {
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: '^/domain/[^/]+/nameservers$', dropAfterCommit: true, times: 1 }] });
  await emu.control('DELETE', 'requests');
  const live = await ensure(ctx, ns(['ns1.example-dns.net', 'ns2.example-dns.net']));
  expect(live.fields.nameservers).toEqual(['ns1.example-dns.net', 'ns2.example-dns.net']);
  expect(await client.domains.nameservers('example-registered.net')).toEqual(['ns1.example-dns.net', 'ns2.example-dns.net']);
  // The client does not repeat a POST whose outcome is unknown; the core read back and found it done.
  expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual(['POST /domain/example-registered.net/nameservers']);
});

test('a nameserver write refused with 503 (outcome unknown, not done) is read back, then written again from the fresh read', async () => {
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: '^/domain/[^/]+/nameservers$', status: 503, times: 1 }] });
  await emu.control('DELETE', 'requests');
  const live = await ensure(ctx, ns(['ns1.example-dns.net', 'ns2.example-dns.net']));
  expect(live.fields.nameservers).toEqual(['ns1.example-dns.net', 'ns2.example-dns.net']);
  const writes = (await requests()).filter((r) => r.startsWith('POST'));
  expect(writes).toEqual(['POST /domain/example-registered.net/nameservers', 'POST /domain/example-registered.net/nameservers']);
  expect(lines.some((l) => /outcome unknown, reading back before trying again/.test(l))).toBe(true);
});

test('checkAccount names the closest registrations; a held one passes; a lock is read back and written', async () => {
  const check = await checkAccount(ctx, ns(['ns1.example-dns.net', 'ns2.example-dns.net'], 'example-registred.net'), () => true);
  expect(check.problems).toEqual([{
    field: 'domain',
    rule: '"example-registred.net" is not a domain name this account holds (it is adopted, never registered); the closest it holds: example-registered.net, example-moving.org, example-studio.com',
  }]);
  expect((await checkAccount(ctx, ns(['ns1.example-dns.net', 'ns2.example-dns.net']), () => true)).problems).toEqual([]);
  const lock: DomainTransferLockSpec = { kind: 'domain-transfer-lock', path: 'Stack/lock', domain: 'example-blog.com', locked: true };
  expect((await observe(ctx, { kind: 'domain-transfer-lock', key: 'example-blog.com', placement: '', parent: '' }))?.fields.locked).toBe(false);
  expect((await ensure(ctx, lock)).fields.locked).toBe(true);
  expect(await client.domains.transferAllowed('example-blog.com')).toBe(false);
  await remove(ctx, { kind: 'domain-transfer-lock', key: 'example-blog.com', placement: '', parent: '' });
  expect(lines).toContain('forgot the transfer lock of example-blog.com: the registration keeps its lock as it is');
  expect(await client.domains.transferAllowed('example-blog.com')).toBe(false);
});

test('a nameserver set for a domain the account does not hold fails the ensure, naming the field', async () => {
  await expect(ensure(ctx, ns(['ns1.example-dns.net', 'ns2.example-dns.net'], 'not-held.example'))).rejects.toMatchObject({
    field: 'domain', message: expect.stringContaining('Stack/ns: domain "not-held.example" is not a domain name this account holds'),
  });
});

test('a DNS record in a registration\'s own zone: created, observed, removed through /domain/{name}/dns; refused where a package holds the name', async () => {
  const txt: DnsRecordSpec = { kind: 'dns-record', path: 'Stack/txt', domain: 'example-registered.net', zone: 'example-registered.net', name: '_acme-challenge', type: 'TXT', value: 'abc' };
  await emu.control('DELETE', 'requests');
  const live = await ensure(ctx, txt);
  expect(live.identity).toMatchObject({ placement: 'domain', key: 'example-registered.net/_acme-challenge.example-registered.net/TXT/abc' });
  expect(live.fields).toMatchObject({ domain: 'example-registered.net', name: '_acme-challenge' });
  expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual(['POST /domain/example-registered.net/dns']);
  await remove(ctx, live.identity);
  expect(await observe(ctx, live.identity)).toBeUndefined();
  await client.packages.create({ type: 811, domainName: 'example-studio.com', extraDomainNames: [] });
  const onPackage = { ...txt, domain: 'example-studio.com', zone: 'example-studio.com' };
  expect((await checkAccount(createContext({ client }), onPackage, () => true)).problems).toEqual([{
    field: 'domain', rule: '"example-studio.com" is a name of package example-studio.com, whose zone is the registration\'s: declare the record with package = "example-studio.com" instead',
  }]);
});
