import { E2E_TIMEOUT_MS, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * reseller_web_settings under real Terraform against the emulator (issue 39): HTTPS,
 * free certificates and PHP applied; a change made in the control panel (force-HTTPS
 * switched off, a certificate removed) shows in the plan; a certificate still being
 * issued is pending, not drift; plan-time errors for what the API would refuse; import;
 * a removal that restores the platform's defaults, and says so; the data sources.
 */

const SITE = 'web-site.com';
let ws: ProviderWorkspace;

type Settings = Record<string, unknown>;
const declared = (settings: Settings = {}, more: Resources = {}): Resources => ({
  reseller_package: { site: { domain_name: SITE, extra_domain_names: ['web-site.org'], package_type: 'Linux Starter' } },
  reseller_web_settings: {
    site: { package: '${reseller_package.site.domain_name}', force_https: true, free_certificates: [SITE, `www.${SITE}`], php_version: '8.2', ...settings },
  },
  ...more,
});

const apply = (env: NodeJS.ProcessEnv = {}) => terraform(ws.tf, ['apply', '-auto-approve', '-input=false', '-no-color'], ws.dir, { ...ws.env, ...env });
const web = () => ws.emu.account().packages.find((p) => p.name === SITE)!.web;
const issued = () => web().certificates.filter((c) => c.state === 'issued').map((c) => c.commonName).sort();
/** Terraform's output with its line wrapping undone. */
const flat = (r: { stdout: string; stderr: string }) => `${r.stdout}${r.stderr}`.replace(/\s+/g, ' ');
/** A Terraform command that takes no -input flag (state, output). */
const requests = async () => ((await ws.emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'provider-web', env: { RESELLER_PROGRESS_INTERVAL_MS: '300' } }, declared());
}, E2E_TIMEOUT_MS);

afterAll(() => ws?.stop());

describe('reseller_web_settings with real Terraform', () => {
  it('applies HTTPS, free certificates and PHP 8.2; the next plan is clean and reads each setting once', async () => {
    await apply();
    expect(web()).toMatchObject({ forceHttps: true, phpVersion: 'php82' });
    expect(issued()).toEqual([SITE, `www.${SITE}`]);
    await ws.emu.control('DELETE', 'requests');
    expect(await ws.planCode()).toBe(0);
    const reads = (await requests()).filter((r) => r.includes('/web/'));
    expect(reads.sort()).toEqual([`GET /package/${SITE}/web/certificates`, `GET /package/${SITE}/web/forceSSL`, `GET /package/${SITE}/web/phpVersion`]);
  }, E2E_TIMEOUT_MS);

  it('a change in the control panel shows in the plan (force-HTTPS switched off, a certificate removed); the apply puts both back', async () => {
    await ws.api.web.setForceHttps(SITE, false);
    const www = (await ws.api.web.certificates(SITE)).find((c) => c.commonName === `www.${SITE}`)!;
    await ws.api.web.deleteCertificates(SITE, [www.id]);
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.changes).toEqual({ 'reseller_web_settings.site': ['update'] });
    expect(plan.showText).toMatch(/~ force_https\s+= false -> true/);
    expect(plan.showText).toMatch(/~ free_certificates\s+= \[\s*\+ "www\.web-site\.com",/);
    // The refresh's own record of what changed outside Terraform.
    const drift = plan.json.resource_drift.find((d: { address: string }) => d.address === 'reseller_web_settings.site');
    expect(drift.change.after).toMatchObject({ force_https: false, free_certificates: [SITE] });
    await ws.run(['apply', '-auto-approve', 'p']);
    expect(web().forceHttps).toBe(true);
    expect(issued()).toEqual([SITE, `www.${SITE}`]);
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a certificate still being issued is pending, not drift: the apply warns after timeouts.create with progress lines; once issued, its removal shows', async () => {
    await ws.emu.control('POST', 'web/settings', { certificateDelayMs: 3_600_000 });
    const resources = declared({ free_certificates: [SITE, `www.${SITE}`, 'web-site.org'], timeouts: { create: '3s' } });
    ws.writeConfig(resources);
    const applied = await apply({ TF_LOG: 'info' });
    const out = applied.stdout + applied.stderr;
    expect(out).toMatch(/waiting for the free certificate of web-site\.org \(web-site\.com\): asked for, not issued yet/);
    expect(flat(applied)).toMatch(/Warning: .*the free certificate of web-site\.org was asked for but is not issued after \dm\d\ds\. The service issues one only once the name's DNS points at it/);
    expect(out).toContain('Apply complete!');
    const pendingPlan = await ws.run(['plan', '-detailed-exitcode'], [0]);
    expect(pendingPlan.stdout).toContain('No changes.');
    expect(flat(pendingPlan)).toMatch(/free_certificates: web-site\.org still pending \(issuance of its free certificate\)/);
    await ws.emu.control('POST', 'web/settings', { certificateDelayMs: 0 });
    const clean = await ws.run(['plan', '-detailed-exitcode'], [0]);
    expect(clean.stdout + clean.stderr).not.toMatch(/still pending/);
    // Issued and read back once: its removal in the control panel is now a difference.
    await ws.run(['apply', '-auto-approve', '-refresh-only']);
    const org = (await ws.api.web.certificates(SITE)).find((c) => c.commonName === 'web-site.org')!;
    await ws.api.web.deleteCertificates(SITE, [org.id]);
    const removed = await ws.run(['plan', '-detailed-exitcode'], [2]);
    expect(removed.stdout).toMatch(/\+ "web-site\.org"/);
    await apply();
    expect(issued()).toEqual([SITE, 'web-site.org', `www.${SITE}`]);
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('on_certificate_timeout = "fail": a name whose DNS does not point here fails the apply, saying why', async () => {
    ws.writeConfig(declared({ free_certificates: [SITE, `www.${SITE}`, 'shop.elsewhere.net'], on_certificate_timeout: 'fail', timeouts: { create: '2s' } }));
    const failed = await ws.run(['apply', '-auto-approve'], [1]);
    expect(flat(failed)).toMatch(/the free certificate of shop\.elsewhere\.net was asked for but is not issued after \dm\d\ds\. The service issues one only once the name's DNS points at it.*on_certificate_timeout is "fail"/);
    expect(web().waitingForDns.map((w) => w.name)).toEqual(['shop.elsewhere.net']);
    ws.writeConfig(declared());
    await apply();
    expect(await ws.planCode()).toBe(0);
    // web-site.org left free_certificates above: its certificate stayed in place (delete_certificates is false).
    expect(issued()).toEqual([SITE, 'web-site.org', `www.${SITE}`]);
    const org = (await ws.api.web.certificates(SITE)).find((c) => c.commonName === 'web-site.org')!;
    await ws.api.web.deleteCertificates(SITE, [org.id]);
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('plan-time errors: a PHP version the package is not offered lists the available ones; a type without free SSL or PHP switching is named', async () => {
    ws.writeConfig(declared({ php_version: '5.6' }));
    const php = await ws.run(['plan'], [1]);
    expect(flat(php)).toMatch(/"5\.6" is not a PHP version available for package web-site\.com; available: 7\.4, 8\.0, 8\.1, 8\.2, 8\.3/);
    const windows = { win: { domain_name: 'win-site.com', package_type: 'Windows Unlimited' } };
    ws.writeConfig({ ...declared(), reseller_package: { ...declared().reseller_package, ...windows } });
    await apply();
    ws.writeConfig({
      ...declared(),
      reseller_package: { ...declared().reseller_package, ...windows },
      reseller_web_settings: { ...declared().reseller_web_settings, win: { package: '${reseller_package.win.domain_name}', free_certificates: ['win-site.com'], php_version: '8.2' } },
    });
    const limits = await ws.run(['plan'], [1]);
    const text = flat(limits);
    expect(text).toMatch(/free_certificates cannot be set: package type "Windows Unlimited" of package win-site\.com does not offer free SSL certificates/);
    expect(text).toMatch(/php_version cannot be set: package type "Windows Unlimited" of package win-site\.com does not allow switching the PHP version/);
    ws.writeConfig(declared());
    await apply();
  }, E2E_TIMEOUT_MS);

  it('import by the package\'s domain, and an import {} block, adopt the current settings: the next plan is clean', async () => {
    await terraform(ws.tf, ['state', 'rm', 'reseller_web_settings.site'], ws.dir, ws.env);
    const imported = await ws.run(['import', 'reseller_web_settings.site', SITE]);
    expect(imported.stdout).toContain('Import successful!');
    expect(await ws.planCode()).toBe(0);
    await terraform(ws.tf, ['state', 'rm', 'reseller_web_settings.site'], ws.dir, ws.env);
    ws.writeConfig(declared(), { import: [{ to: 'reseller_web_settings.site', id: 'WEB-site.com' }] });
    const plan = await ws.run(['plan'], [0]);
    expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
    await apply();
    ws.writeConfig(declared());
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('the data sources list the certificates (no PEM) and the PHP versions offered', async () => {
    ws.writeConfig(declared(), {
      data: { reseller_certificates: { site: { package: 'web-site.org' } }, reseller_php_versions: { site: { package: SITE } } },
      output: {
        names: { value: '${data.reseller_certificates.site.free_common_names}' },
        certificates: { value: '${data.reseller_certificates.site.certificates}' },
        versions: { value: '${data.reseller_php_versions.site.versions}' },
        latest: { value: '${data.reseller_php_versions.site.latest}' },
        current: { value: '${data.reseller_php_versions.site.current}' },
      },
    });
    await apply();
    const out = JSON.parse((await terraform(ws.tf, ['output', '-json'], ws.dir, ws.env)).stdout);
    expect(out.names.value).toEqual([SITE, `www.${SITE}`]);
    expect(out.certificates.value[0]).toEqual({ id: expect.any(String), common_name: SITE, provider: 'letsencrypt/standard', free: true, issued_at: expect.any(String) });
    expect(JSON.stringify(out)).not.toMatch(/BEGIN CERTIFICATE/);
    expect(out.versions.value).toEqual(['7.4', '8.0', '8.1', '8.2', '8.3']);
    expect(out).toMatchObject({ latest: { value: '8.3' }, current: { value: '8.2' } });
    ws.writeConfig(declared());
    await apply();
  }, E2E_TIMEOUT_MS);

  it('removing it restores the platform\'s defaults, and the plan says so: HTTPS no longer forced, PHP and certificates stay; with delete_certificates they go', async () => {
    ws.writeConfig({ reseller_package: declared().reseller_package });
    const plan = await ws.run(['plan'], [0]);
    expect(flat(plan)).toMatch(/Warning: Removing web-site\.com's web settings restores the platform's defaults/);
    expect(flat(plan)).toMatch(/nothing is deleted.*HTTPS is no longer forced on web-site\.com; the PHP version stays at 8\.2; its free certificates stay in place/);
    await apply();
    expect(web()).toMatchObject({ forceHttps: false, phpVersion: 'php82' });
    expect(issued()).toEqual([SITE, `www.${SITE}`]);
    ws.writeConfig(declared({ delete_certificates: true, free_certificates: [SITE] }));
    await apply();
    expect(issued()).toEqual([SITE]); // the whole list: www's certificate is deleted
    ws.writeConfig({ reseller_package: declared().reseller_package });
    const deleting = await ws.run(['plan'], [0]);
    expect(flat(deleting)).toMatch(/every free certificate of the package is deleted/);
    await apply();
    expect(web()).toMatchObject({ forceHttps: false, phpVersion: 'php82', certificates: [] });
  }, E2E_TIMEOUT_MS);
});
