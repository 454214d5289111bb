import {
  isFreeCertificateProvider, phpVersionOfAvailable, phpVersionOfRead, phpVersionOnWire, phpVersionWriteBody, ResellerClient,
} from '../../src/client';
import { parseWebCertificate } from '../../src/client/web';
import { RunningEmulator, startEmulator } from '../../src/emulator';

/**
 * The client's web noun against the emulator over HTTP (api-notes "Web: HTTPS and PHP
 * version of a package"), in both profiles, and the assumed forms it reads and writes.
 */

const KEY = 'emulator-key';

describe.each(['default', 'documented'] as const)('client.web against the %s profile', (profile) => {
  let emu: RunningEmulator;
  let client: ResellerClient;
  let requests: () => Promise<Array<{ method: string; path: string; status: number }>>;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true, profile });
    client = new ResellerClient({ baseUrl: emu.url, apiKey: KEY, retryBaseDelayMs: 5 });
    requests = async () => (await fetch(`${emu.url}/__emulator/requests`)).json() as Promise<Array<{ method: string; path: string; status: number }>>;
    await client.packages.create({ type: 811, domainName: 'client-web.example', extraDomainNames: [] });
  });
  afterAll(async () => {
    client?.close();
    await emu?.stop();
  });

  test('force-HTTPS: false, set true, read back; setting the value it has is done (a 409 "already so" counts as success)', async () => {
    expect(await client.web.forceHttps('client-web.example')).toBe(false);
    await client.web.setForceHttps('client-web.example', true);
    expect(await client.web.forceHttps('client-web.example')).toBe(true);
    await expect(client.web.setForceHttps('client-web.example', true)).resolves.toBeUndefined();
    const last = (await requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/forceSSL')).pop()!;
    expect(last.status).toBe(profile === 'default' ? 409 : 200);
  });

  test('certificates: asked for, listed with lowercase common name and free flag, no PEM kept; deleted by id', async () => {
    await client.web.requestFreeCertificate('client-web.example', 'www.client-web.example');
    const list = await client.web.certificates('client-web.example');
    expect(list).toEqual([{ id: expect.stringMatching(/^[0-9]+$/), commonName: 'www.client-web.example', provider: 'letsencrypt/standard', free: true, createdAt: expect.any(String) }]);
    expect(JSON.stringify(list)).not.toMatch(/CERTIFICATE/);
    await client.web.deleteCertificates('client-web.example', [list[0].id]);
    expect(await client.web.certificates('client-web.example')).toEqual([]);
  });

  test('PHP: "php81" reads as 8.1; 8.2 is written as {"value": "php82"} and read back; the versions offered, major.minor', async () => {
    expect(await client.web.phpVersion('client-web.example')).toBe('8.1');
    await client.web.setPhpVersion('client-web.example', '8.2');
    expect(await client.web.phpVersion('client-web.example')).toBe('8.2');
    expect((await client.web.availablePhpVersions('client-web.example')).map((v) => v.version)).toEqual(['7.4', '8.0', '8.1', '8.2', '8.3']);
    await expect(client.web.setPhpVersion('client-web.example', 'php82')).rejects.toThrow(/major\.minor/);
  });
});

describe('assumed forms (assumptions.ts)', () => {
  test('phpVersionOnWire / phpVersionOfRead: "8.2" <-> "php82"; other forms read tolerantly, nonsense is undefined (not verifiable)', () => {
    expect(phpVersionOnWire('8.2')).toBe('php82');
    expect(phpVersionOnWire('7.4')).toBe('php74');
    for (const [text, version] of [['php82', '8.2'], ['PHP74', '7.4'], ['8.2', '8.2'], ['8.2.27', '8.2'], ['php-8.3', '8.3'], ['php810', '8.10']] as const) {
      expect([text, phpVersionOfRead(text)]).toEqual([text, version]);
    }
    for (const text of ['', 'latest', 'php', 7, null, { value: 'php82' }]) expect(phpVersionOfRead(text)).toBeUndefined();
  });

  test('phpVersionWriteBody is {"value": …}; phpVersionOfAvailable reads FullVersion, else Handler', () => {
    expect(phpVersionWriteBody('php82')).toEqual({ value: 'php82' });
    expect(phpVersionOfAvailable({ FullVersion: '8.2.27', Handler: 'x', Title: 'PHP 8.2' })).toBe('8.2');
    expect(phpVersionOfAvailable({ Handler: 'php74' })).toBe('7.4');
    expect(phpVersionOfAvailable({ Title: 'PHP 8.2' })).toBeUndefined();
  });

  test('isFreeCertificateProvider: letsencrypt and its variants; a bought certificate is not free', () => {
    expect(['letsencrypt/standard', 'LetsEncrypt', 'letsencrypt/wildcard'].map(isFreeCertificateProvider)).toEqual([true, true, true]);
    expect(['sectigo/dv', 'letsencryptish', ''].map(isFreeCertificateProvider)).toEqual([false, false, false]);
  });

  test('a certificate entry: numeric or string id, a missing provider or createdAt tolerated, the PEM and any key dropped', () => {
    expect(parseWebCertificate({ id: 7, commonName: 'WWW.Example.com.', certificatePem: 'PEM', privateKey: 'KEY' }, '[0]')).toEqual({
      id: '7', commonName: 'www.example.com', provider: '', free: false,
    });
    expect(() => parseWebCertificate({ id: 7 }, '[0]')).toThrow(/commonName/);
  });
});
