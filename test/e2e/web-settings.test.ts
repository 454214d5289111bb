import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import type { DriftDocument } from '../../src/commands/drift/report';
import { HostingPackage, ResellerHosting, WebSettings, WebSettingsProps } from '../../src';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { apiEnv, capture } from '../drift/helpers';
import { E2E_TIMEOUT_MS, E2EEmulator, planExitCode, requireTerraform, stackEnv, startE2EEmulator, tempDir, terraform } from './support';

/**
 * Web settings through the REAL Terraform engine with the provisioner carriers
 * (terraform_data): applied; a change in the control panel (force-HTTPS switched off, a
 * certificate removed) found by `drift` and repaired by `drift --fix`; `import` declares
 * a package's current settings; a certificate not issued in time warns (with progress
 * lines) or fails; declared absent, the settings go back to the platform's defaults.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const SITE = 'web-carriers.example.com';
let tf: string;
let emu: E2EEmulator;
let dir: string;
let outdir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;
let journalDir: string;
let api: ResellerClient;

const SETTINGS: Partial<WebSettingsProps> = { forceHttps: true, freeCertificates: [SITE, `www.${SITE}`], phpVersion: '8.2' };

function synth(settings: Partial<WebSettingsProps> | undefined = SETTINGS): void {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'web');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const site = new HostingPackage(stack, 'site', { domainName: SITE, packageType: 'Linux Starter' });
  if (settings) new WebSettings(stack, 'site_web', { package: site, ...settings });
  app.synth();
  stackDir = join(outdir, 'stacks', 'web');
}

const apply = (codes = [0]) => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env, codes);
const web = () => emu.account().packages.find((p) => p.name === SITE)!.web;
const issued = () => web().certificates.filter((c) => c.state === 'issued').map((c) => c.commonName).sort();
const drift = async (args: string[] = []) => {
  const run = await capture(runDriftCli, ['--stacks', outdir, '--json', ...args], apiEnv(emu.url, journalDir));
  return { ...run, doc: JSON.parse(run.stdout) as DriftDocument };
};
const webReport = (doc: DriftDocument) => doc.objects.find((o) => o.kind === 'web-settings')!;

beforeAll(async () => {
  tf = requireTerraform();
  dir = tempDir('web-settings');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 50 });
  outdir = join(dir, 'cdktf.out');
  journalDir = join(dir, 'journal');
  env = stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, journalDir, extra: { RESELLER_PROGRESS_INTERVAL_MS: '300' } });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY, retryBaseDelayMs: 10 });
  synth();
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('apply forces HTTPS, has both certificates issued and sets PHP 8.2; plan and drift are clean', async () => {
  await apply();
  expect(web()).toMatchObject({ forceHttps: true, phpVersion: 'php82' });
  expect(issued()).toEqual([SITE, `www.${SITE}`]);
  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(0);
  expect(webReport(doc)).toMatchObject({ status: 'in-sync', key: SITE });
});

test('drift shows force-HTTPS switched off and a certificate removed in the control panel; --fix puts both back', async () => {
  await api.web.setForceHttps(SITE, false);
  const www = (await api.web.certificates(SITE)).find((c) => c.commonName === `www.${SITE}`)!;
  await api.web.deleteCertificates(SITE, [www.id]);
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(2);
  expect(webReport(doc)).toMatchObject({
    status: 'changed',
    diffs: [{ field: 'forceHttps', declared: true, live: false }, { field: 'freeCertificates', declared: [SITE, `www.${SITE}`], live: [SITE] }],
  });
  const fixed = await drift(['--fix', '--detailed-exitcode']);
  expect(fixed.code).toBe(0);
  expect(web().forceHttps).toBe(true);
  expect(issued()).toEqual([SITE, `www.${SITE}`]);
});

test('import --kinds web-settings declares the package\'s current settings', async () => {
  const out = await capture(runImportCli, ['--kinds', 'web-settings'], apiEnv(emu.url, journalDir));
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("import { HostingPackage, WebSettings } from 'cdktf-reseller-hosting';");
  expect(out.stdout).toContain(
    `new WebSettings(this, 'web_web_carriers_example_com', { package: pkg_web_carriers_example_com, forceHttps: true, freeCertificates: ['${SITE}', 'www.${SITE}'], phpVersion: '8.2' });`,
  );
});

test('a certificate not issued in time: the apply waits with progress lines, then warns ("warn") or fails ("fail"), saying why', async () => {
  const names = [SITE, `shop.${SITE}`, `www.${SITE}`]; // shop.… is not a name of the package: it never points here
  synth({ ...SETTINGS, freeCertificates: names, certificateTimeoutMinutes: 0.05 });
  const warned = await apply();
  expect(warned.stdout).toMatch(/waiting for the free certificate of shop\.web-carriers\.example\.com \(web-carriers\.example\.com\): asked for, not issued yet/);
  expect(warned.stdout + warned.stderr).toMatch(/the free certificate of shop\.web-carriers\.example\.com was asked for but is not issued after \dm\d\ds\. The service issues one only once the name's DNS points at it/);
  synth({ ...SETTINGS, freeCertificates: names, certificateTimeoutMinutes: 0.05, onCertificateTimeout: 'fail' });
  const failed = await apply([1]);
  expect(failed.stdout + failed.stderr).toMatch(/site_web: the free certificate of shop\.web-carriers\.example\.com was asked for but is not issued after[\s\S]*on_certificate_timeout is "fail"/);
  synth();
  await apply();
});

test('declared absent: HTTPS is no longer forced, PHP and certificates stay; with deleteCertificates the free certificates go', async () => {
  synth({ ...SETTINGS, absent: true });
  await apply();
  expect(web()).toMatchObject({ forceHttps: false, phpVersion: 'php82' });
  expect(issued()).toEqual([SITE, `www.${SITE}`]);
  synth();
  await apply();
  expect(web().forceHttps).toBe(true);
  synth({ ...SETTINGS, deleteCertificates: true, absent: true });
  const removed = await apply();
  expect(removed.stdout).toMatch(/back to the platform's defaults \(HTTPS not forced; PHP left as it is; deleted the free certificate\(s\) of web-carriers\.example\.com, www\.web-carriers\.example\.com\)/);
  expect(web()).toMatchObject({ forceHttps: false, phpVersion: 'php82', certificates: [] });
});
