import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { runImportCli } from '../../src/commands/import';
import { findTerraform, REPO_ROOT, runTerraform } from '../../scripts/lib/terraform';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { apiEnv, capture, LoggedRequest, removeTempDirs, tempDir, synthGenerated } from './helpers';

/**
 * `reseller-hosting import --kinds mysql-database` adopts an account's MySQL databases:
 * each is declared without a password (the header says why and what keepOnDestroy is
 * for); the stack compiles, synthesizes with the provider engine, `import --blocks`
 * writes one import block per database, and the apply imports them, writes nothing and
 * leaves every password as it was.
 */
let emu: TestEmulator;
let api: ResellerClient;
let env: NodeJS.ProcessEnv;
let project: string;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  emu = await startTestEmulator();
  env = apiEnv(emu.url, tempDir('journal-'));
  api = new ResellerClient({ baseUrl: emu.url, apiKey: env.RESELLER_API_KEY!, retryBaseDelayMs: 10 });
  const shop = await api.packages.create({ type: 811, domainName: 'db-shop.example', extraDomainNames: [] });
  await api.databases.create(shop, 'shop', 'Shop-db-Passw0rd');
  await api.databases.create(shop, 'shop_stats', 'Stats-db-Passw0rd');
  await api.packages.create({ type: 812, domainName: 'no-db.example', extraDomainNames: [] });
  project = tempDir('reseller-import-mysql-');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'cdktf-reseller-hosting'), 'dir');
  for (const dep of ['cdktf', 'constructs']) symlinkSync(join(REPO_ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs(emu?.dir);
});

test('declares each database by package and name, without a password; the provider engine imports them and writes nothing', async () => {
  const file = join(project, 'databases.ts');
  const run = await capture(runImportCli, ['--out', file, '--class-name', 'DatabasesStack', '--engine', 'provider', '--kinds', 'mysql-database'], env, project);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/with 0 cloud server\(s\), 2 package\(s\), 2 MySQL database\(s\)$/m);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain("new MysqlDatabase(this, 'mysql_db_shop_example_shop', { package: pkg_db_shop_example, name: 'shop' });");
  expect(source).toContain("new MysqlDatabase(this, 'mysql_db_shop_example_shop_stats', { package: pkg_db_shop_example, name: 'shop_stats' });");
  expect(source).toMatch(/\/\/ MySQL databases are declared without a password: adoption keeps the current one/);
  expect(source).toMatch(/\/\/ Removing a MysqlDatabase deletes its data: set keepOnDestroy: true/);
  expect(source.split('\n').filter((l) => !l.trim().startsWith('//')).join('\n')).not.toMatch(/password/i);

  const { outdir, stackDir } = synthGenerated(project, 'databases', 'DatabasesStack', 'dbs');

  const blocks = await capture(runImportCli, ['--blocks', '--stacks', outdir], env, project);
  expect(blocks.stdout).toMatch(/: 4 import block\(s\) for stack dbs\n$/);
  const terraform = findTerraform();
  const tfEnv = { RESELLER_API_KEY: env.RESELLER_API_KEY, RESELLER_API_URL: env.RESELLER_API_URL };
  expect((await runTerraform(['init', '-input=false', '-no-color'], { cwd: stackDir, env: tfEnv, binary: terraform })).stderr).toBe('');
  await emu.control('DELETE', 'requests');
  const plan = await runTerraform(['plan', '-input=false', '-no-color', '-out=p'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain('Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.');
  const apply = await runTerraform(['apply', '-input=false', '-no-color', 'p'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(apply.stderr).toBe('');
  expect(((await emu.control('GET', 'requests')) as LoggedRequest[]).filter((r) => r.method !== 'GET')).toEqual([]);
  const hashes = emu.account().packages.flatMap((p) => p.mysqlDatabases.map((d) => [d.name, d.passwordSha256])).sort();
  expect(hashes).toEqual([['shop', sha256('Shop-db-Passw0rd')], ['shop_stats', sha256('Stats-db-Passw0rd')]]);
  const again = await runTerraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], { cwd: stackDir, env: tfEnv, binary: terraform });
  expect(again.code).toBe(0);
}, 120_000);
