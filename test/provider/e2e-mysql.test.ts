import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReviewCli } from '../../src/commands/review';
import { capture } from '../drift/helpers';
import { E2E_TIMEOUT_MS, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * reseller_mysql_database under real Terraform against the emulator (issue 40): create
 * with a write-only password from an ephemeral variable, a clean plan, a database deleted
 * in the control panel planned for creation, a rotation, a replacement that warns of the
 * data it deletes, the package type's limit refused at plan time, keep_on_destroy, import
 * by natural key and by an `import {}` block, and destroy.
 */

const SITE = 'mysql-site.com';
const PASSWORD_1 = 'Db-pw-ONE-3f9a1c-Walrus';
const PASSWORD_2 = 'Db-pw-TWO-8b2e7d-Ocelot';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
let ws: ProviderWorkspace;

const database = (name: string, extra: Record<string, unknown> = {}) => ({
  package: '${reseller_package.site.domain_name}', name, password_wo: '${var.db_password}', password_wo_version: 1, ...extra,
});
const declared = (databases: Record<string, Record<string, unknown>> = { shop: database('shop'), blog: database('blog') }): Resources => ({
  reseller_package: { site: { domain_name: SITE, package_type: 'Linux Starter' } },
  ...(Object.keys(databases).length ? { reseller_mysql_database: databases } : {}),
});
const withPassword = (password: string) => ({ ...ws.env, TF_VAR_db_password: password });
/** `terraform <command> -input=false -no-color <rest>` with the database password variable set to `password`. */
const runWith = (password: string, [command, ...rest]: string[], codes = [0]) =>
  terraform(ws.tf, [command, '-input=false', '-no-color', ...rest], ws.dir, withPassword(password), codes);
const planCode = async (password = PASSWORD_1) => (await runWith(password, ['plan', '-detailed-exitcode'], [0, 2])).code;
const databases = () => ws.emu.account().packages.find((p) => p.name === SITE)?.mysqlDatabases ?? [];
const requests = async () => ((await ws.emu.control('GET', 'requests')) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'provider-mysql', variables: { db_password: { type: 'string', sensitive: true, ephemeral: true } } }, declared({}));
}, E2E_TIMEOUT_MS);
afterAll(() => ws?.stop());

describe('reseller_mysql_database with real Terraform', () => {
  it('creates each database with the password from the ephemeral variable (never in state), then plans no change reading the package\'s databases once', async () => {
    ws.writeConfig(declared());
    await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect(databases().map((d) => [d.name, d.passwordSha256]).sort()).toEqual([['blog', sha256(PASSWORD_1)], ['shop', sha256(PASSWORD_1)]]);
    const state = readFileSync(join(ws.dir, 'terraform.tfstate'), 'utf8');
    expect(state).not.toContain(PASSWORD_1);
    const shop = JSON.parse(state).resources.find((r: { type: string; name: string }) => r.type === 'reseller_mysql_database' && r.name === 'shop').instances[0].attributes;
    expect(shop).toMatchObject({
      id: `${SITE}/shop`, package: SITE, name: 'shop', stored_name: 'shop', host: 'mysql-01.emulator.internal', external_host: 'mysql-01.emulator.example',
      database_id: String(databases().find((d) => d.name === 'shop')!.id), password_wo: null, password_wo_version: 1,
    });
    await ws.emu.control('DELETE', 'requests');
    expect(await planCode()).toBe(0);
    expect((await requests()).filter((r) => r.includes('/web/mysqlDatabases'))).toEqual([`GET /package/${SITE}/web/mysqlDatabases`]);
  }, E2E_TIMEOUT_MS);

  it('a database deleted in the control panel shows in the plan as one to create; the apply creates it again', async () => {
    const blog = databases().find((d) => d.name === 'blog')!;
    await ws.api.databases.delete(SITE, blog.id);
    const plan = await runWith(PASSWORD_1, ['plan', '-detailed-exitcode'], [2]);
    expect(plan.stdout).toContain('reseller_mysql_database.blog will be created');
    await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect(databases().map((d) => d.name).sort()).toEqual(['blog', 'shop']);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('a raised password_wo_version rotates the password in place (the user-password route), and only the version is in the plan', async () => {
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }));
    const plan = await savedPlan(ws.tf, ws.dir, withPassword(PASSWORD_2));
    expect(plan.changes).toEqual({ 'reseller_mysql_database.shop': ['update'] });
    expect(plan.showText).toMatch(/~ password_wo_version\s+= 1 -> 2/);
    for (const text of [plan.planText, plan.showText, plan.jsonText]) expect(text).not.toContain(PASSWORD_2);
    await ws.emu.control('DELETE', 'requests');
    await runWith(PASSWORD_2, ['apply', '-auto-approve', 'p']);
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([`POST /package/${SITE}/web/mysqlUserPassword`]);
    expect(databases().find((d) => d.name === 'shop')!.passwordSha256).toBe(sha256(PASSWORD_2));
    expect(databases().find((d) => d.name === 'blog')!.passwordSha256).toBe(sha256(PASSWORD_1));
    expect(await planCode(PASSWORD_2)).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('data sources read a package\'s databases (one read, shared with the resources) and one database by package and name', async () => {
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }), {
      data: {
        reseller_mysql_databases: { site: { package: SITE } },
        reseller_mysql_database: { shop: { package: SITE, name: 'shop' } },
      },
      output: {
        names: { value: '${[for db in data.reseller_mysql_databases.site.mysql_databases : db.stored_name]}' },
        ids: { value: '${data.reseller_mysql_databases.site.ids}' },
        shop_host: { value: '${data.reseller_mysql_database.shop.host}' },
        shop_id: { value: '${data.reseller_mysql_database.shop.database_id}' },
      },
    });
    await ws.emu.control('DELETE', 'requests');
    await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect((await requests()).filter((r) => r.includes('/web/mysqlDatabases'))).toEqual([`GET /package/${SITE}/web/mysqlDatabases`]);
    const outputs = JSON.parse((await terraform(ws.tf, ['output', '-json'], ws.dir, ws.env)).stdout);
    expect(outputs.names.value).toEqual(['blog', 'shop']);
    expect(outputs.ids.value).toEqual([`${SITE}/blog`, `${SITE}/shop`]);
    expect(outputs.shop_host.value).toBe('mysql-01.emulator.internal');
    expect(outputs.shop_id.value).toBe(String(databases().find((d) => d.name === 'shop')!.id));
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }), {
      data: { reseller_mysql_database: { nope: { package: SITE, name: 'shpo' } } },
    });
    const missing = await runWith(PASSWORD_1, ['plan'], [1]);
    expect(missing.stderr).toMatch(/reseller_mysql_database: MySQL database "mysql-site\.com\/shpo" not found/);
    expect(missing.stderr.replace(/\s+/g, ' ')).toMatch(/Closest existing: mysql-site\.com\/shop/);
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }));
  }, E2E_TIMEOUT_MS);

  it('a new name plans a replacement that warns, on the name, that the database\'s data is deleted; review says DESTRUCTIVE', async () => {
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('journal') }));
    const plan = await savedPlan(ws.tf, ws.dir, withPassword(PASSWORD_1));
    expect(plan.changes).toEqual({ 'reseller_mysql_database.blog': ['delete', 'create'] });
    expect(plan.planText).toMatch(/Warning: Replacing this MySQL database deletes its data \(every table and row\)/);
    expect(plan.planText).toMatch(/in resource\.reseller_mysql_database\.blog:\s+\d+: +"name": "journal"/);
    writeFileSync(join(ws.dir, 'plan.json'), plan.jsonText);
    const review = await capture(runReviewCli, [join(ws.dir, 'plan.json')], {});
    expect(review.stdout).toContain(`MySQL database ${SITE}/blog is REPLACED: deleted with its data (every table and row), then ${SITE}/journal created (name "blog" -> "journal" forces it)`);
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }));
  }, E2E_TIMEOUT_MS);

  it('a database beyond the package type\'s limit (Linux Starter: 5) fails the plan on the package attribute, before any write', async () => {
    const many: Record<string, Record<string, unknown>> = { shop: database('shop', { password_wo_version: 2 }), blog: database('blog') };
    for (const n of [3, 4, 5, 6]) many[`db${n}`] = database(`db${n}`);
    ws.writeConfig(declared(many));
    await ws.emu.control('DELETE', 'requests');
    const plan = await runWith(PASSWORD_1, ['plan'], [1]);
    expect(plan.stderr).toContain(
      'Error: Invalid package: mysql-site.com may hold 5 MySQL databases (its package type Linux Starter, limit mysqlDatabases): it has 2, and this plan adds 4 (db3, db4, db5, db6), 6 in all.',
    );
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([]);
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }));
  }, E2E_TIMEOUT_MS);

  it('import by package/name and by an import block adopts the database as it is; without password_wo its password is left alone', async () => {
    await ws.api.databases.create(SITE, 'legacy', 'Legacy-pw-kept-9d1');
    const legacy = { package: SITE, name: 'legacy' };
    ws.writeConfig({ ...declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }), reseller_mysql_database: {
      shop: database('shop', { password_wo_version: 2 }), blog: database('blog'), legacy,
    } });
    const imported = await runWith(PASSWORD_1, ['import', 'reseller_mysql_database.legacy', `${SITE}/legacy`]);
    expect(imported.stdout).toContain('Import successful!');
    expect(await planCode()).toBe(0);
    await terraform(ws.tf, ['state', 'rm', '-no-color', 'reseller_mysql_database.legacy'], ws.dir, ws.env);
    ws.writeConfig({ ...declared(), reseller_mysql_database: { shop: database('shop', { password_wo_version: 2 }), blog: database('blog'), legacy } },
      { import: [{ to: 'reseller_mysql_database.legacy', id: `${SITE}/legacy` }] });
    const plan = await runWith(PASSWORD_1, ['plan'], [0]);
    expect(plan.stdout).toMatch(/Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/);
    await ws.emu.control('DELETE', 'requests');
    await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(databases().find((d) => d.name === 'legacy')!.passwordSha256).toBe(sha256('Legacy-pw-kept-9d1'));
  }, E2E_TIMEOUT_MS);

  it('keep_on_destroy: removing the resource forgets the database, with a warning, and deletes nothing', async () => {
    const legacy = { package: SITE, name: 'legacy', keep_on_destroy: true };
    ws.writeConfig({ ...declared(), reseller_mysql_database: { shop: database('shop', { password_wo_version: 2 }), blog: database('blog'), legacy } });
    await ws.emu.control('DELETE', 'requests');
    await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect((await requests()).filter((r) => r.startsWith('POST'))).toEqual([]); // recorded in the state only
    ws.writeConfig(declared({ shop: database('shop', { password_wo_version: 2 }), blog: database('blog') }));
    const applied = await runWith(PASSWORD_1, ['apply', '-auto-approve']);
    expect(applied.stdout + applied.stderr).toMatch(/Warning: Destroying the MySQL database mysql-site\.com\/legacy keeps it in the account/);
    expect(applied.stdout + applied.stderr).toMatch(/The MySQL database mysql-site\.com\/legacy was removed from state and kept in the account/);
    expect(databases().map((d) => d.name).sort()).toEqual(['blog', 'legacy', 'shop']);
    expect(await planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('destroy deletes the declared databases (and their data), then the package; its plan says so, and how to keep one', async () => {
    const plan = await runWith(PASSWORD_1, ['plan', '-destroy']);
    const text = (plan.stdout + plan.stderr).replace(/\s+/g, ' ');
    expect(text).toContain('Warning: Destroying the MySQL database mysql-site.com/shop deletes it with its data (every table and row)');
    expect(text).toContain('To keep it in the account instead, set keep_on_destroy = true and apply before removing it');
    await runWith(PASSWORD_1, ['destroy', '-auto-approve']);
    expect(ws.emu.account().packages).toEqual([]);
  }, E2E_TIMEOUT_MS);
});

