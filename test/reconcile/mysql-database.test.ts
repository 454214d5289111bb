import { createHash } from 'node:crypto';
import { ResellerClient } from '../../src/client';
import { definitionOf, MysqlDatabaseSpec } from '../../src/protocol';
import { createContext, ensure, list, observe, ReconcileContext, remove } from '../../src/reconcile';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';

/**
 * The MySQL database reconciler against the emulator over HTTP: a create whose answer is
 * lost (an injected fault) is found by listing, never made twice; a name another
 * package's database holds is refused with a clear message; the package type's limit
 * is refused before the create at apply time too; a delete of what is gone succeeds;
 * one read of a package's databases serves every object on it.
 */

let emu: TestEmulator;
let api: ResellerClient;
const PASSWORD = 'Reconcile-db-Passw0rd';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ctx = (secret: string | undefined = PASSWORD): ReconcileContext => createContext({
  client: api, secret, history: {}, timing: { pollIntervalMs: 20, confirmTimeoutMs: 2_000, progressIntervalMs: 60_000 },
});
const spec = (packageDomain: string, name: string): MysqlDatabaseSpec =>
  definitionOf('mysql-database').check({ kind: 'mysql-database', path: `test/${name}`, packageDomain, name, passwordVersion: 1 }).spec;
const databases = (domain: string) => emu.account().packages.find((p) => p.name === domain)!.mysqlDatabases;

beforeAll(async () => {
  emu = await startTestEmulator({ provisionDelayMs: 0 });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10, maxRetries: 0 });
  await api.packages.create({ type: 811, domainName: 'one.example', extraDomainNames: [] });
  await api.packages.create({ type: 812, domainName: 'small.example', extraDomainNames: [] });
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

test('a create whose answer is lost after the write is found by listing: one database, with the password', async () => {
  await emu.control('POST', 'faults', { method: 'POST', path: '/web/mysqlDatabases$', dropAfterCommit: true, times: 1 });
  const warnings: string[] = [];
  const live = await ensure(createContext({ client: api, secret: PASSWORD, history: {}, warn: (l) => warnings.push(l), timing: { pollIntervalMs: 20, confirmTimeoutMs: 2_000 } }), spec('one.example', 'shop'));
  expect(live.computed).toMatchObject({ storedName: 'shop', host: 'mysql-01.emulator.internal' });
  expect(databases('one.example').map((d) => [d.name, d.passwordSha256])).toEqual([['shop', sha256(PASSWORD)]]);
  expect(warnings.join('\n')).toMatch(/outcome unknown, reading back/);
  expect(warnings.join('\n')).not.toContain(PASSWORD);
  await emu.control('DELETE', 'faults');
});

test('a name another package\'s database holds is refused naming the rule, not retried', async () => {
  await expect(ensure(ctx(), spec('small.example', 'shop'))).rejects.toThrow(
    /test\/shop: the account already has a MySQL database named shop \(on another package\): .* names are unique in the account/,
  );
  expect(databases('small.example')).toEqual([]);
});

test('without a password a missing database cannot be created; an existing one is adopted as it is', async () => {
  await expect(ensure(ctx(''), spec('one.example', 'blog'))).rejects.toThrow(/test\/blog: MySQL database blog of package one\.example does not exist and no password was given/);
  const adopted = await ensure(ctx(''), spec('one.example', 'shop'));
  expect(adopted.liveId).toBe(String(databases('one.example')[0].id));
});

test('the package type\'s limit is checked before the create at apply time too (Linux Starter: 5)', async () => {
  for (let i = 1; i <= 5; i++) await ensure(ctx(), spec('small.example', `small${i}`));
  await emu.control('DELETE', 'requests');
  await expect(ensure(ctx(), spec('small.example', 'small6'))).rejects.toThrow(
    /test\/small6: package small\.example may hold 5 MySQL databases \(its package type Linux Starter, limit mysqlDatabases\): it has 5, and this apply adds 1 \(small6\), 6 in all/,
  );
  expect(((await emu.control('GET', 'requests')) as Array<{ method: string }>).filter((r) => r.method === 'POST')).toEqual([]);
});

test('observe and list read a package\'s databases once, shared by every object on it; remove is idempotent', async () => {
  const c = ctx();
  await emu.control('DELETE', 'requests');
  const found = await Promise.all(['small1', 'small2', 'small3'].map((n) => observe(c, definitionOf('mysql-database').identity(spec('small.example', n)))));
  expect(found.map((o) => o?.fields.name)).toEqual(['small1', 'small2', 'small3']);
  expect((await list(c, 'mysql-database', { within: 'small.example' })).map((o) => o.identity.key)).toHaveLength(5);
  const reads = ((await emu.control('GET', 'requests')) as Array<{ path: string }>).map((r) => r.path);
  expect(reads.filter((p) => p.endsWith('/web/mysqlDatabases'))).toEqual(['/package/small.example/web/mysqlDatabases']);
  const id = definitionOf('mysql-database').identity(spec('small.example', 'small5'));
  await remove(ctx(), id);
  await remove(ctx(), id);
  expect(databases('small.example').map((d) => d.name)).toEqual(['small1', 'small2', 'small3', 'small4']);
});
