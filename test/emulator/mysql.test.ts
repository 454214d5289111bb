import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EmulatorProfile } from '../../src/emulator/profile';
import { Api, Harness, startHarness } from './helpers';

/**
 * The MySQL noun (api-notes "MySQL databases", "FTP credentials") over HTTP, in both
 * profiles: list, create (no id in the answer), delete, a user's password, the package
 * type's limit, the package's FTP user, the state dump and page (never a password),
 * persistence (a password only as a hash) and injected faults.
 */

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const PASSWORD = 'Db-Passw0rd-emulator-1';

describe.each<EmulatorProfile>(['default', 'documented'])('profile %s', (profile) => {
  let h: Harness;
  let api: Api;
  let pkg: number;
  const db = (p = pkg) => `/package/${p}/web/mysqlDatabases`;

  beforeAll(async () => {
    h = await startHarness({ profile });
    api = h.api;
  });
  afterAll(() => h.emu.stop());
  beforeEach(async () => {
    await api.control('POST', 'reset');
    pkg = await api.addWeb('db.example');
  });

  it('creates a database (the answer has no id), lists it with its documented fields, and keeps only a hash of the password', async () => {
    expect((await api.get(db())).body).toEqual([]);
    const created = await api.post(db(), { name: 'shop', password: PASSWORD, allow_random: false });
    expect(created).toMatchObject({ status: 200, body: { result: [] } });
    const list = (await api.get(db())).body;
    expect(list).toEqual([{
      id: expect.any(Number), externalHostname: expect.any(String), name: 'shop', host: expect.any(String),
      quotaMb: expect.any(Number), quotaUsed: 0, server: expect.any(String), type: 'mysql',
    }]);
    expect((await api.get('/package/db.example/web/mysqlDatabases')).body).toEqual(list); // the domain stands in for the id
    const dumped = h.emu.snapshot().accounts[0].packages[0].mysqlDatabases;
    expect(dumped).toEqual([expect.objectContaining({ id: list[0].id, name: 'shop', passwordSha256: sha(PASSWORD) })]);
    expect(JSON.stringify(h.emu.snapshot())).not.toContain(PASSWORD);
    expect(JSON.stringify(await api.control('GET', 'requests'))).not.toContain(PASSWORD);
  });

  it('refuses a bad name or password (400, never echoing the password), a name taken in the account (409), an unknown package (404)', async () => {
    expect((await api.post(db(), { name: 'Shop-1', password: PASSWORD })).status).toBe(400);
    const short = await api.post(db(), { name: 'shop', password: 'short' });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toMatch(/password must be 8 to 128 characters/);
    expect(JSON.stringify(short.body)).not.toContain('short"');
    await api.post(db(), { name: 'shop', password: PASSWORD });
    const other = await api.addWeb('other.example');
    expect((await api.post(db(other), { name: 'shop', password: PASSWORD })).status).toBe(409);
    expect((await api.post(db(424242), { name: 'x', password: PASSWORD })).status).toBe(404);
  });

  it('allow_random stores the name with the account prefix and a number (the live note)', async () => {
    await api.post(db(), { name: 'blog', password: PASSWORD, allow_random: true });
    expect((await api.get(db())).body.map((d: { name: string }) => d.name)).toEqual([expect.stringMatching(/^r\d+_blog-1$/)]);
  });

  it('sets the password of the user whose id is the database id, and deletes a database by id (its data goes with it)', async () => {
    await api.post(db(), { name: 'shop', password: PASSWORD });
    const [{ id }] = (await api.get(db())).body;
    expect(await api.post(`/package/${pkg}/web/mysqlUserPassword`, { user_id: id, password: 'Another-Passw0rd' })).toMatchObject({ status: 200, body: { result: true } });
    expect(h.emu.snapshot().accounts[0].packages[0].mysqlDatabases[0].passwordSha256).toBe(sha('Another-Passw0rd'));
    expect((await api.post(`/package/${pkg}/web/mysqlUserPassword`, { user_id: id + 1000, password: 'Another-Passw0rd' })).status).toBe(404);
    expect(await api.post(`/package/${pkg}/web/removeMysqlDatabase`, { id })).toMatchObject({ status: 200, body: { result: true } });
    expect((await api.get(db())).body).toEqual([]);
    expect((await api.post(`/package/${pkg}/web/removeMysqlDatabase`, { id })).status).toBe(404);
  });

  it('refuses a database beyond the package type\'s mysqlDatabases limit (Linux Starter: 5)', async () => {
    const starter = (await api.post('/reseller/*/addWeb', { type: '812', domain_name: 'small.example' })).body.result as number;
    const limits = (await api.get('/reseller/*/packageTypes')).body.find((t: { id: number }) => t.id === 812).limits;
    expect(limits.mysqlDatabases).toBe(5);
    for (let i = 1; i <= 5; i++) expect((await api.post(db(starter), { name: `db${i}`, password: PASSWORD })).status).toBe(200);
    const refused = await api.post(db(starter), { name: 'db6', password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/mysqlDatabases/);
    expect((await api.get(db(starter))).body).toHaveLength(5);
  });

  it('gives the package\'s primary FTP user, the same on every read, and keeps it nowhere', async () => {
    const first = (await api.get(`/package/${pkg}/web/ftpCredentials`)).body;
    expect(first).toEqual([{ username: 'db.example', password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/) }]);
    expect((await api.get('/package/db.example/web/ftpCredentials')).body).toEqual(first);
    const other = await api.addWeb('other.example');
    expect((await api.get(`/package/${other}/web/ftpCredentials`)).body[0].password).not.toBe(first[0].password);
    expect(JSON.stringify(h.emu.snapshot())).not.toContain(first[0].password);
    expect(JSON.stringify(await api.control('GET', 'requests'))).not.toContain(first[0].password);
  });

  it('deleting the package deletes its databases', async () => {
    await api.post(db(), { name: 'shop', password: PASSWORD });
    await api.post('/reseller/*/deleteWeb', { 'delete-id': [String(pkg)] });
    expect(h.emu.snapshot().accounts[0].packages).toEqual([]);
    expect((await api.get(db())).status).toBe(404);
  });

  it('an injected fault on the create drops the answer after the write: the database exists, as a client must find out by listing', async () => {
    await api.control('POST', 'faults', { rules: [{ method: 'POST', path: '/web/mysqlDatabases$', dropAfterCommit: true, times: 1 }] });
    await expect(api.post(db(), { name: 'shop', password: PASSWORD })).rejects.toThrow();
    expect((await api.get(db())).body.map((d: { name: string }) => d.name)).toEqual(['shop']);
    await api.control('POST', 'faults', { rules: [{ method: 'GET', path: '/web/mysqlDatabases$', status: 503, times: 1 }] });
    expect((await api.get(db())).status).toBe(503);
    expect((await api.get(db())).status).toBe(200);
  });

  it('the control-panel page lists each database by name and host, never a password or its hash', async () => {
    await api.post(db(), { name: 'shop', password: PASSWORD });
    const page = await (await fetch(`${h.emu.url}/`)).text();
    expect(page).toContain('MySQL databases');
    expect(page).toContain('shop');
    expect(page).toContain('mysql-01.emulator.internal');
    expect(page).not.toContain(PASSWORD);
    expect(page).not.toContain(sha(PASSWORD));
    const ftp = (await api.get(`/package/${pkg}/web/ftpCredentials`)).body[0].password;
    expect(page).not.toContain(ftp);
  });
});

describe('persistence', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-mysql-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps databases across a restart with the password as a hash only; a file of version 2 gets empty lists', async () => {
    const file = path.join(dir, 'state.json');
    const first = await startHarness({ dataFile: file });
    const pkg = await first.api.addWeb('kept.example');
    await first.api.post(`/package/${pkg}/web/mysqlDatabases`, { name: 'kept', password: PASSWORD });
    const ftp = (await first.api.get(`/package/${pkg}/web/ftpCredentials`)).body[0].password;
    const before = (await first.api.get(`/package/${pkg}/web/mysqlDatabases`)).body;
    await first.emu.stop();
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(ftp);
    expect(text).toContain(sha(PASSWORD));

    const second = await startHarness({ dataFile: file });
    expect((await second.api.get(`/package/${pkg}/web/mysqlDatabases`)).body).toEqual(before);
    await second.api.post(`/package/${pkg}/web/mysqlDatabases`, { name: 'next', password: PASSWORD });
    const ids = (await second.api.get(`/package/${pkg}/web/mysqlDatabases`)).body.map((d: { id: number }) => d.id);
    expect(new Set(ids).size).toBe(2);
    await second.emu.stop();

    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.state.version = 2;
    delete doc.state.counters.mysqlDatabaseId;
    for (const p of doc.state.accounts[0].packages) delete p.mysqlDatabases;
    fs.writeFileSync(file, JSON.stringify(doc));
    const third = await startHarness({ dataFile: file });
    expect((await third.api.get(`/package/${pkg}/web/mysqlDatabases`)).body).toEqual([]);
    await third.emu.stop();
  });
});
