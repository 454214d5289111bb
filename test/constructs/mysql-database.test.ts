import { TerraformStack, TerraformVariable } from 'cdktf';
import {
  DataResellerMysqlDatabase, DataResellerMysqlDatabases, EphemeralResellerFtpCredentials, EphemeralResellerMysqlConnection, HostingPackage, MysqlDatabase,
} from '../../src';
import { env, resources, specOf, synth, validationMessages, warnings } from './util';

/**
 * MysqlDatabase and its data sources and ephemeral resources, synthesized: the provider
 * engine's resource (write-only password, version, keep_on_destroy, replaced with its
 * package), the carriers' resources (the password only in the ensure provisioner's
 * environment; keepOnDestroy told to the destroy provisioner), the rules, and the
 * ephemeral blocks, which CDK for Terraform 0.21 has no class for.
 */

/** The stack's package (declared once). */
const site = (stack: TerraformStack) => (stack.node.tryFindChild('site') as HostingPackage | undefined)
  ?? new HostingPackage(stack, 'site', { domainName: 'Shop.Example', packageType: 'Linux Starter' });
/** The value of the stack's sensitive, ephemeral password variable (declared once). */
const secret = (stack: TerraformStack) => {
  const found = stack.node.tryFindChild('db_password') as TerraformVariable | undefined;
  if (found) return found.value;
  const v = new TerraformVariable(stack, 'db_password', { type: 'string', sensitive: true });
  v.addOverride('ephemeral', true);
  return v.value;
};

describe('provider engine', () => {
  it('is one reseller_mysql_database: write-only password from the variable, its version, replaced with its package', () => {
    const { json } = synth((stack) => {
      new MysqlDatabase(stack, 'shop_db', { package: site(stack), name: 'shop', password: secret(stack), passwordVersion: 2, keepOnDestroy: true });
    }, true, 'provider');
    expect(resources(json, 'reseller_mysql_database').shop_db).toEqual({
      package: '${reseller_package.site.domain_name}', name: 'shop', password_wo: '${var.db_password}', password_wo_version: 2, keep_on_destroy: true,
      lifecycle: { replace_triggered_by: ['reseller_package.site.package_id'] },
    });
  });

  it('storedName refers to the resource\'s stored_name; the connection opens from it (so after the database exists)', () => {
    const { json } = synth((stack) => {
      const db = new MysqlDatabase(stack, 'shop_db', { package: site(stack), name: 'shop', password: secret(stack) });
      const conn = new EphemeralResellerMysqlConnection(stack, 'shop_conn', { database: db, password: secret(stack) });
      const ftp = new EphemeralResellerFtpCredentials(stack, 'ftp', { package: '${reseller_package.site.package_id}' });
      expect(db.storedName).toBe('${reseller_mysql_database.shop_db.stored_name}');
      expect([conn.host, conn.password, conn.url, ftp.username, ftp.password]).toEqual([
        '${ephemeral.reseller_mysql_connection.shop_conn.host}', '${ephemeral.reseller_mysql_connection.shop_conn.password}',
        '${ephemeral.reseller_mysql_connection.shop_conn.url}', '${ephemeral.reseller_ftp_credentials.ftp.username}', '${ephemeral.reseller_ftp_credentials.ftp.password}',
      ]);
    }, true, 'provider');
    expect(json.ephemeral).toEqual({
      reseller_mysql_connection: { shop_conn: { package: 'shop.example', name: '${reseller_mysql_database.shop_db.stored_name}', password: '${var.db_password}' } },
      reseller_ftp_credentials: { ftp: { package: '${reseller_package.site.package_id}' } },
    });
    expect(json.terraform.required_providers.reseller).toBeDefined();
  });

  it('data sources: one database by package and name, and a package\'s databases', () => {
    const { json } = synth((stack) => {
      const one = new DataResellerMysqlDatabase(stack, 'one', { package: 'shop.example', name: 'shop' });
      new DataResellerMysqlDatabases(stack, 'all', { package: site(stack) });
      expect(one.storedName).toMatch(/\$\{TfToken\[/);
    }, true, 'provider');
    expect(Object.values(json.data.reseller_mysql_database)).toEqual([{ package: 'shop.example', name: 'shop' }]);
    expect(Object.values(json.data.reseller_mysql_databases)).toEqual([{ package: 'shop.example' }]);
  });
});

describe('carriers', () => {
  it('the password reaches only the ensure provisioner\'s environment; keepOnDestroy is told to the destroy provisioner', () => {
    const { json } = synth((stack) => {
      new MysqlDatabase(stack, 'shop_db', { package: site(stack), name: 'shop', password: secret(stack), keepOnDestroy: true });
      new MysqlDatabase(stack, 'blog_db', { package: site(stack), name: 'blog', passwordEnv: 'BLOG_DB_PASSWORD' });
    });
    const all = resources(json);
    expect(env(all.shop_db_settings, 'ensure').RESELLER_MYSQL_PASSWORD).toBe('${var.db_password}');
    expect(all.shop_db_settings.triggers_replace).toEqual({ object: '${terraform_data.shop_db.id}', keepOnDestroy: 'true', passwordVersion: '1' });
    expect(all.shop_db.triggers_replace).toMatchObject({ kind: 'mysql-database', key: 'shop.example/shop', placement: 'shop.example' });
    expect(env(all.shop_db, 'delete').RESELLER_KEEP_ON_DESTROY).toBe('true');
    expect(env(all.blog_db, 'delete').RESELLER_KEEP_ON_DESTROY).toBeUndefined();
    expect(specOf(all.blog_db_settings)).toMatchObject({ kind: 'mysql-database', name: 'blog', passwordEnv: 'BLOG_DB_PASSWORD', passwordVersion: 1 });
    expect(JSON.stringify(json)).not.toMatch(/RESELLER_MYSQL_PASSWORD[^}]*BLOG/);
  });

  it('keepOnDestroy from a variable is refused: a destroy provisioner reads only literals', () => {
    const { stack } = synth((s) => {
      const keep = new TerraformVariable(s, 'keep', { type: 'bool' });
      new MysqlDatabase(s, 'shop_db', { package: site(s), name: 'shop', passwordEnv: 'PW', keepOnDestroy: keep.booleanValue as unknown as boolean });
    }, false);
    expect(validationMessages(stack)).toContainEqual(expect.stringMatching(/MyStack\/shop_db: keepOnDestroy must be true or false in the code with the provisioner carriers/));
  });
});

describe('rules', () => {
  it('names every broken rule with path and field; a literal password is a warning, never echoed', () => {
    const { stack } = synth((s) => {
      const pkg = site(s);
      new MysqlDatabase(s, 'bad', { package: pkg, name: 'Shop-DB', passwordVersion: 0, password: 'literal-Secret-1', passwordEnv: 'X' });
      new MysqlDatabase(s, 'one', { package: pkg, name: 'shop', password: secret(s) });
      new MysqlDatabase(s, 'two', { package: pkg, name: 'shop', password: secret(s) });
      const bad = s.node.findChild('bad');
      expect(warnings(bad).join('\n')).toMatch(/MyStack\/bad: password is a literal string in the code/);
    }, false);
    const messages = validationMessages(stack).join('\n');
    expect(messages).toMatch(/MyStack\/bad: name must be 1-32 lowercase letters, digits or "_", starting with a letter/);
    expect(messages).toMatch(/MyStack\/bad: passwordVersion must be a positive integer/);
    expect(messages).toMatch(/MyStack\/bad: password and passwordEnv must not both be set/);
    expect(messages).toMatch(/MyStack\/two: name "shop" is already declared by MySQL database MyStack\/one \(database names are unique in the account, across packages\)/);
    expect(messages).not.toContain('literal-Secret-1');
  });

  it('passwordEnv is for the carriers: the provider engine refuses it', () => {
    const { stack } = synth((s) => {
      new MysqlDatabase(s, 'shop_db', { package: site(s), name: 'shop', passwordEnv: 'DB_PW' });
    }, false, 'provider');
    expect(validationMessages(stack).join('\n')).toMatch(/passwordEnv is for the provisioner carriers only: with engine 'provider' the password is the write-only attribute password_wo/);
  });
});
