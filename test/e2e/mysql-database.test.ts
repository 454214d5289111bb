import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import { runDriftCli } from '../../src/commands/drift';
import { runReviewCli } from '../../src/commands/review';
import type { DriftDocument } from '../../src/commands/drift/report';
import { HostingPackage, MysqlDatabase, ResellerHosting } from '../../src';
import { ResellerClient } from '../../src/client';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { apiEnv, capture } from '../drift/helpers';
import {
  E2E_TIMEOUT_MS, E2EEmulator, filesUnder, planExitCode, readText, requireTerraform, savedPlan, sha256, stackEnv, startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * MySQL databases through the REAL Terraform engine with the provisioner carriers
 * (terraform_data): each database's password comes from a sensitive, ephemeral variable
 * through the provisioner environment (as a mailbox's does), never a trigger, the state or
 * the plan; a rotation by passwordVersion; a database deleted in the control panel found
 * by `drift` and created again by `drift --fix`; `absent` deletes (review: with its data),
 * and `keepOnDestroy` only forgets.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const SITE = 'mysql-carriers.example.com';
const PASSWORD_1 = 'Carrier-db-ONE-71d3e0-Ibis';
const PASSWORD_2 = 'Carrier-db-TWO-4a9c52-Lynx';
let tf: string;
let emu: E2EEmulator;
let dir: string;
let outdir: string;
let stackDir: string;
let journalDir: string;
let api: ResellerClient;

interface Options { readonly shopVersion?: number; readonly blogAbsent?: boolean; readonly keepShop?: boolean; readonly shopAbsent?: boolean }

function synth(options: Options = {}): void {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'mysql');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const password = new TerraformVariable(stack, 'db_password', { type: 'string', sensitive: true });
  password.addOverride('ephemeral', true);
  const site = new HostingPackage(stack, 'site', { domainName: SITE, packageType: 'Linux Starter' });
  new MysqlDatabase(stack, 'shop_db', {
    package: site, name: 'shop', password: password.value, passwordVersion: options.shopVersion ?? 1, keepOnDestroy: options.keepShop, absent: options.shopAbsent,
  });
  new MysqlDatabase(stack, 'blog_db', { package: site, name: 'blog', password: password.value, absent: options.blogAbsent });
  app.synth();
  stackDir = join(outdir, 'stacks', 'mysql');
}

const env = (password = PASSWORD_1) => stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, journalDir, extra: { TF_VAR_db_password: password } });
const apply = (password = PASSWORD_1) => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env(password));
const databases = () => emu.account().packages.find((p) => p.name === SITE)?.mysqlDatabases ?? [];
const hashes = () => databases().map((d) => [d.name, d.passwordSha256]).sort();
const drift = async (args: string[] = [], extra: NodeJS.ProcessEnv = {}) => {
  const run = await capture(runDriftCli, ['--stacks', outdir, '--json', ...args], { ...apiEnv(emu.url, journalDir), ...extra });
  return { ...run, doc: JSON.parse(run.stdout) as DriftDocument };
};
const statusOf = (doc: DriftDocument) => Object.fromEntries(doc.objects.filter((o) => o.kind === 'mysql-database').map((o) => [o.path, o.status]));
/** Every file Terraform and the handler wrote, by path (saved plans are checked through `terraform show`). */
const written = () => Object.fromEntries([...filesUnder(stackDir, (n) => n === 'p'), ...filesUnder(journalDir)].map((f) => [f, readText(f)]));

beforeAll(async () => {
  tf = requireTerraform();
  dir = tempDir('mysql-carriers');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 50 });
  outdir = join(dir, 'cdktf.out');
  journalDir = join(dir, 'journal');
  api = new ResellerClient({ baseUrl: emu.url, apiKey: DEFAULT_API_KEY, retryBaseDelayMs: 10 });
  synth();
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env());
});
afterAll(async () => {
  api?.close();
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('apply creates each database with the password of the ephemeral variable, carried only in the provisioner environment; the next plan is clean', async () => {
  const applied = await apply();
  // Terraform suppresses the output of a provisioner whose environment holds a sensitive, ephemeral value.
  expect(applied.stdout).toContain('terraform_data.shop_db_settings (local-exec): (output suppressed due to sensitive, ephemeral value in config)');
  expect(hashes()).toEqual([['blog', sha256(PASSWORD_1)], ['shop', sha256(PASSWORD_1)]]);
  expect((await planExitCode(tf, stackDir, env())).code).toBe(0);
  const texts = { ...written(), apply: applied.stdout + applied.stderr };
  expect(Object.keys(texts).some((f) => f.endsWith('terraform.tfstate'))).toBe(true);
  expect(Object.entries(texts).filter(([, t]) => t.includes(PASSWORD_1)).map(([f]) => f)).toEqual([]);
});

test('a raised passwordVersion replaces only the settings carrier, and its ensure sets the new password', async () => {
  synth({ shopVersion: 2 });
  const plan = await savedPlan(tf, stackDir, env(PASSWORD_2));
  expect(plan.changes).toEqual({ 'terraform_data.shop_db_settings': ['delete', 'create'] });
  for (const text of [plan.planText, plan.showText, plan.jsonText]) expect(text).not.toContain(PASSWORD_2);
  const applied = await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env(PASSWORD_2));
  expect(applied.stdout).toMatch(/Apply complete! Resources: 1 added, 0 changed, 1 destroyed/);
  expect(hashes()).toEqual([['blog', sha256(PASSWORD_1)], ['shop', sha256(PASSWORD_2)]]);
  expect(Object.entries(written()).filter(([, t]) => t.includes(PASSWORD_2)).map(([f]) => f)).toEqual([]);
});

test('drift finds a database deleted in the control panel (missing); drift --fix creates it again with the variable\'s password', async () => {
  await api.databases.delete(SITE, databases().find((d) => d.name === 'blog')!.id);
  const found = await drift();
  expect(found.code).toBe(0);
  expect(statusOf(found.doc)).toEqual({ 'mysql/blog_db': 'missing', 'mysql/shop_db': 'in-sync' });
  const refused = await drift(['--fix']);
  expect(refused.stdout + refused.stderr).toMatch(/cannot be created without its password: set (RESELLER_MYSQL_PASSWORD or )?TF_VAR_db_password/);
  const fixed = await drift(['--fix'], { TF_VAR_db_password: PASSWORD_1 });
  expect(fixed.stdout + fixed.stderr).not.toContain(PASSWORD_1);
  expect(hashes()).toEqual([['blog', sha256(PASSWORD_1)], ['shop', sha256(PASSWORD_2)]]);
  expect(statusOf((await drift()).doc)).toEqual({ 'mysql/blog_db': 'in-sync', 'mysql/shop_db': 'in-sync' });
});

test('absent: true deletes the database, and review says its data goes with it; keepOnDestroy only forgets the other', async () => {
  synth({ shopVersion: 2, blogAbsent: true, keepShop: true });
  const plan = await savedPlan(tf, stackDir, env(PASSWORD_2));
  writeFileSync(join(dir, 'plan.json'), plan.jsonText);
  const review = await capture(runReviewCli, [join(dir, 'plan.json')], {});
  expect(review.stdout).toContain('MySQL database mysql-carriers.example.com/blog is DELETED (declared absent: true), with its data (every table and row)');
  await terraform(tf, ['apply', '-input=false', '-no-color', 'p'], stackDir, env(PASSWORD_2));
  expect(databases().map((d) => d.name)).toEqual(['shop']);

  synth({ shopVersion: 2, blogAbsent: true, keepShop: true, shopAbsent: true });
  const forgot = await apply(PASSWORD_2);
  expect(forgot.stdout).toMatch(/mysql-carriers\.example\.com\/shop: kept in the account \(keep on destroy\): nothing is deleted/);
  expect(databases().map((d) => d.name)).toEqual(['shop']);
  expect(readFileSync(join(stackDir, 'terraform.tfstate'), 'utf8')).not.toContain(PASSWORD_2);
});
