import { ResellerClient } from '../../src/client';
import { definitionOf, WebSettingsSpec } from '../../src/protocol';
import { checkAccount, createContext, diff, ensure, list, observe, ReconcileContext, remove } from '../../src/reconcile';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';

/**
 * The core's web settings against the emulator over HTTP: what the declaration leaves
 * alone (another name's certificate, a bought one) is left alone; with deleteCertificates
 * the declared names are the whole list of free certificates; a lost answer to a write
 * is read back, never sent twice in a way that duplicates; reads through the context's
 * lists; the plan-time checks; the removal to defaults.
 */

let emu: TestEmulator;
let api: ResellerClient;
const SITE = 'core-web.example';
const def = definitionOf('web-settings');

const context = (): ReconcileContext => createContext({ client: api, timing: { pollIntervalMs: 20, confirmTimeoutMs: 3_000, progressIntervalMs: 60_000 } });
const spec = (fields: Partial<WebSettingsSpec> = {}): WebSettingsSpec =>
  def.check({ kind: 'web-settings', path: 'core/web', packageDomain: SITE, ...fields } as unknown as WebSettingsSpec).spec;
const free = async () => (await api.web.certificates(SITE)).filter((c) => c.free).map((c) => c.commonName).sort();

beforeAll(async () => {
  emu = await startTestEmulator();
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 5 });
  await api.packages.create({ type: 812, domainName: SITE, extraDomainNames: [`shop.${SITE}`] });
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

test('certificates the declaration does not name are left alone, and no difference; deleteCertificates makes the list whole', async () => {
  await api.web.requestFreeCertificate(SITE, `shop.${SITE}`);
  await emu.control('POST', 'web/certificates', { package: SITE, commonName: `www.${SITE}`, provider: 'sectigo/dv' });
  const declared = spec({ freeCertificates: [SITE] });
  await ensure(context(), declared);
  expect(await free()).toEqual([SITE, `shop.${SITE}`]);
  const seen = await observe(context(), def.identity(declared), declared);
  expect(seen!.fields.freeCertificates).toEqual([SITE]);
  expect(await diff(context(), declared, seen!)).toEqual([]);
  // The whole list: shop's free certificate goes, the bought one stays.
  const whole = spec({ freeCertificates: [SITE], deleteCertificates: true });
  expect(await diff(context(), whole, (await observe(context(), def.identity(whole)))!)).toEqual([
    { field: 'freeCertificates', declared: [SITE], live: [SITE, `shop.${SITE}`] },
  ]);
  await ensure(context(), whole);
  expect(await free()).toEqual([SITE]);
  expect((await api.web.certificates(SITE)).map((c) => c.provider).sort()).toEqual(['letsencrypt/standard', 'sectigo/dv']);
});

test('a lost answer to a write is read back: HTTPS forced once, one certificate per name', async () => {
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: '/web/(forceSSL|freeSSL)$', dropAfterCommit: true, times: 2 }] });
  try {
    const declared = spec({ forceHttps: true, freeCertificates: [SITE, `www.${SITE}`] });
    await expect(ensure(context(), declared)).resolves.toMatchObject({ fields: { forceHttps: true } });
  } finally {
    await emu.control('DELETE', 'faults');
  }
  expect(await api.web.forceHttps(SITE)).toBe(true);
  const names = (await api.web.certificates(SITE)).filter((c) => c.free).map((c) => c.commonName);
  expect(names.filter((n) => n === `www.${SITE}`)).toHaveLength(1);
});

test('a certificate not issued in time: warn returns it pending; fail throws naming the name and DNS', async () => {
  await emu.control('POST', 'web/settings', { certificateDelayMs: 3_600_000 });
  try {
    const warnings: string[] = [];
    const ctx = { ...context(), warn: (line: string) => warnings.push(line) };
    const late = spec({ freeCertificates: [SITE, `late.${SITE}`], certificateTimeoutMinutes: 0.002 });
    const result = await ensure(ctx, late);
    expect(result.pending).toEqual({ freeCertificates: [`late.${SITE}`] });
    expect(warnings.join('\n')).toMatch(/the free certificate of late\.core-web\.example was asked for but is not issued after/);
    await expect(ensure(context(), spec({ ...late, onCertificateTimeout: 'fail' }))).rejects.toThrow(/late\.core-web\.example .*DNS points at it.*on_certificate_timeout is "fail"/s);
  } finally {
    await emu.control('POST', 'web/settings', { certificateDelayMs: 0 });
  }
});

test('list: three reads per package through the context\'s lists; observe after list reads nothing more', async () => {
  const ctx = createContext({ client: api, oneReadPerList: true });
  const all = await list(ctx, 'web-settings');
  const packages = (await api.packages.list()).length;
  expect(all).toHaveLength(packages);
  expect(ctx.lists.reads).toBe(1 + 3 * packages);
  await observe(ctx, { kind: 'web-settings', key: SITE, placement: SITE, parent: '' });
  expect(ctx.lists.reads).toBe(1 + 3 * packages);
});

test('plan-time checks: a PHP version not offered lists the offered ones; a type without free SSL or PHP switching is named', async () => {
  const unknown = await checkAccount(context(), spec({ phpVersion: '5.6' }), () => true);
  expect(unknown.problems).toEqual([{ field: 'phpVersion', rule: `"5.6" is not a PHP version available for package ${SITE}; available: 7.4, 8.0, 8.1, 8.2, 8.3` }]);
  expect((await checkAccount(context(), spec({ phpVersion: '8.3' }), () => true)).problems).toEqual([]);
  await api.packages.create({ type: 813, domainName: 'core-win.example', extraDomainNames: [] });
  const windows = def.check({ kind: 'web-settings', path: 'core/win', packageDomain: 'core-win.example', freeCertificates: ['core-win.example'], phpVersion: '8.2' } as unknown as WebSettingsSpec).spec;
  expect((await checkAccount(context(), windows, () => true)).problems.map((p) => `${p.field} ${p.rule}`)).toEqual([
    'freeCertificates cannot be set: package type "Windows Unlimited" of package core-win.example does not offer free SSL certificates (its limit freeSsl is 0)',
    'phpVersion cannot be set: package type "Windows Unlimited" of package core-win.example does not allow switching the PHP version (its limit switchPhpVersion is 0)',
  ]);
  // Only the fields that change are checked: a value left as it is never blocks a plan.
  expect((await checkAccount(context(), windows, () => false)).problems).toEqual([]);
});

test('remove puts the defaults back: HTTPS no longer forced; PHP and certificates stay unless the declaration deletes them', async () => {
  await ensure(context(), spec({ forceHttps: true, freeCertificates: [SITE], phpVersion: '8.2' }));
  await remove(context(), def.identity(spec()), { declared: spec({ forceHttps: true, freeCertificates: [SITE] }) });
  expect([await api.web.forceHttps(SITE), await api.web.phpVersion(SITE), await free()]).toEqual([false, '8.2', [SITE, `www.${SITE}`]]);
  await remove(context(), def.identity(spec()), { declared: spec({ deleteCertificates: true }) });
  expect(await free()).toEqual([]);
  // The settings last as long as the package: still there.
  expect(await observe(context(), def.identity(spec()))).toBeDefined();
});
