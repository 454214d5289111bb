import { inspect } from 'node:util';
import { BadRequestError, ConflictError, ResellerClient, ResponseShapeError } from '../../src/client';
import { isStoredNameOf, mysqlUserIdOf, primaryFtpCredentials } from '../../src/client/assumptions';
import { parseDatabaseEntry } from '../../src/client/databases';
import { ShapeMismatch } from '../../src/client/shape';
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import type { EmulatorProfile } from '../../src/emulator/profile';
import { apiError, json, ScriptedServer, startScriptedServer } from './scripted-server';

/**
 * The client's MySQL databases and FTP credentials: against the emulator in both
 * profiles (the bodies it sends, what it reads, the errors it maps), a tolerant read of
 * entries that leave fields out, the three assumptions, and no password (a database's
 * or the FTP one) in any error, log line or inspection, whatever the server answers.
 */

const KEY = 'client-mysql-key';
const PASSWORD = 'Db-XYZZY-client-pw-77';

describe.each<EmulatorProfile>(['default', 'documented'])('against the emulator, profile %s', (profile) => {
  let emu: RunningEmulator;
  let api: ResellerClient;
  const lines: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKey: KEY, quiet: true, profile });
    api = new ResellerClient({ baseUrl: emu.url, apiKey: KEY, retryBaseDelayMs: 10, log: (l) => lines.push(l) });
  });
  afterAll(async () => {
    api.close();
    await emu.stop();
  });

  it('creates (the answer names nothing), lists, sets the user\'s password, deletes', async () => {
    const pkg = await api.packages.create({ type: 811, domainName: `client-${profile}.example`, extraDomainNames: [] });
    await api.databases.create(pkg, 'shop', PASSWORD);
    const [shop] = await api.databases.list(pkg);
    expect(shop).toEqual({ id: expect.any(Number), name: 'shop', host: 'mysql-01.emulator.internal', externalHostname: 'mysql-01.emulator.example', server: 'mysql-01', quotaMb: 1024, quotaUsed: 0 });
    expect(await api.databases.list(`client-${profile}.example`)).toEqual([shop]);
    await api.databases.setPassword(pkg, shop, 'Another-Db-Passw0rd');
    await expect(api.databases.create(pkg, 'shop', PASSWORD)).rejects.toBeInstanceOf(ConflictError);
    const weak = await api.databases.create(pkg, 'other', 'short').catch((e: unknown) => e);
    expect(weak).toBeInstanceOf(BadRequestError);
    expect(String((weak as Error).message)).not.toContain('short"');
    await api.databases.delete(pkg, shop.id);
    expect(await api.databases.list(pkg)).toEqual([]);
    const ftp = await api.ftp.credentials(pkg);
    expect(ftp).toEqual({ username: `client-${profile}.example`, password: expect.any(String) });
    for (const line of lines) for (const secret of [PASSWORD, 'Another-Db-Passw0rd', ftp.password]) expect(line).not.toContain(secret);
    expect(inspect(api)).not.toContain(KEY);
  });
});

describe('tolerant reader and assumptions', () => {
  it('a list entry needs an id and a name; hosts, server and quotas are read when present', () => {
    expect(parseDatabaseEntry({ id: '42', name: 'shop' }, '')).toEqual({ id: 42, name: 'shop' });
    expect(parseDatabaseEntry({ id: 42, name: 'shop', host: null, externalHostname: '', quotaMb: '100', quotaUsed: 5 }, '')).toEqual({ id: 42, name: 'shop', quotaMb: 100, quotaUsed: 5 });
    expect(() => parseDatabaseEntry({ name: 'shop' }, '[0]')).toThrow(/\[0\]\.id/);
    expect(() => parseDatabaseEntry({ id: 1 }, '[0]')).toThrow(/\[0\]\.name/);
  });

  it('the stored name of a requested name is itself (any case); the user id is the database id; the first FTP user is the primary one', () => {
    expect(isStoredNameOf('shop', 'shop')).toBe(true);
    expect(isStoredNameOf('Shop', 'shop')).toBe(true);
    expect(isStoredNameOf('r1_shop-1', 'shop')).toBe(false);
    expect(mysqlUserIdOf({ id: 7 })).toBe(7);
    expect(primaryFtpCredentials([{ username: 'a' }, { username: 'b' }])).toEqual({ username: 'a' });
    expect(() => primaryFtpCredentials([])).toThrow(ShapeMismatch);
  });
});

describe('secrets, whatever the server answers', () => {
  let server: ScriptedServer;
  const lines: string[] = [];
  const FTP_PASSWORD = 'Ftp-SECRET-from-server-19';
  beforeAll(async () => {
    server = await startScriptedServer((req, res) => {
      if (req.url === '/package/1/web/mysqlDatabases' && req.method === 'POST') return apiError(res, 400, `password ${PASSWORD} is too weak; you sent ${req.body}`);
      if (req.url === '/package/1/web/mysqlUserPassword') return apiError(res, 404, `no user for ${req.body}`);
      if (req.url === '/package/1/web/ftpCredentials') return json(res, 200, [{ username: 7, password: FTP_PASSWORD }]);
      if (req.url === '/package/2/web/ftpCredentials') return json(res, 200, []);
      return apiError(res, 500, 'unexpected');
    });
  });
  afterAll(() => server.close());
  const client = () => new ResellerClient({ baseUrl: server.url, apiKey: KEY, retryBaseDelayMs: 1, maxRetries: 0, log: (l) => lines.push(l) });

  it('a password the server echoes never reaches an error or a log line; nor does an FTP password of a malformed answer', async () => {
    const api = client();
    const errors = [
      await api.databases.create(1, 'shop', PASSWORD).catch((e: unknown) => e),
      await api.databases.setPassword(1, { id: 9 }, PASSWORD).catch((e: unknown) => e),
      await api.ftp.credentials(1).catch((e: unknown) => e),
      await api.ftp.credentials(2).catch((e: unknown) => e),
    ];
    expect(errors[2]).toBeInstanceOf(ResponseShapeError);
    expect(String((errors[3] as Error).message)).toMatch(/at least one user/);
    for (const e of errors) {
      const text = `${String((e as Error).message)} ${inspect(e)} ${JSON.stringify(e)} ${(e as Error).stack}`;
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(FTP_PASSWORD);
    }
    for (const line of lines) expect(line).not.toContain(PASSWORD);
    api.close();
  });
});
