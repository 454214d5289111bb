import { ResellerClient } from '../../src/client';
import { runImportCli } from '../../src/commands/import';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { apiEnv, capture, removeTempDirs, tempDir } from './helpers';

/**
 * `reseller-hosting import --reference NAME`: a package or cloud server the user chooses
 * not to manage is written as a reference (which the provider engine reads through a
 * data source), and a referenced package's mail is left out.
 */
let emu: TestEmulator;
let api: ResellerClient;
let env: NodeJS.ProcessEnv;
let journal: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  journal = tempDir('journal-');
  env = apiEnv(emu.url, journal);
  api = new ResellerClient({ baseUrl: emu.url, apiKey: env.RESELLER_API_KEY!, retryBaseDelayMs: 10 });
  const legacy = await api.packages.create({ type: 811, domainName: 'legacy.example.com', extraDomainNames: ['legacy.example.net'] });
  await api.mail.createForwarder(legacy, 'legacy.example.com', { local: 'sales', remote: 'team@example.org' });
  const keep = await api.packages.create({ type: 812, domainName: 'keep.example.com', extraDomainNames: [] });
  await api.mail.createForwarder(keep, 'keep.example.com', { local: 'info', remote: 'team@example.org' });
});

afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs(journal, emu?.dir);
});

test('a referenced package (named by any of its domains) is read, not managed; the others are declared as before', async () => {
  const run = await capture(runImportCli, ['--engine', 'provider', '--reference', 'LEGACY.example.net'], env, journal);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("HostingPackage.fromDomainName(this, 'pkg_legacy_example_com', 'legacy.example.com');");
  expect(run.stdout).not.toContain('sales@legacy.example.com');
  expect(run.stdout).not.toMatch(/localPart: 'sales'/);
  expect(run.stdout).toMatch(/new HostingPackage\(this, 'pkg_keep_example_com', \{/);
  expect(run.stdout).toMatch(/new Forwarder\(this, 'fwd_info_keep_example_com', \{ package: pkg_keep_example_com, localPart: 'info'/);
  expect(run.stderr).toMatch(/1 package\(s\), 0 mailbox\(es\), 1 forwarder\(s\); 1 left out or referenced only/);
});

test('a name that is no package or cloud server of the account is an error', async () => {
  const run = await capture(runImportCli, ['--reference', 'nothing.example.com'], env, journal);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/--reference nothing\.example\.com: no cloud server or package of the account has this name/);
});
