import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { E2E_TIMEOUT_MS, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * The ephemeral resources under real Terraform (>= 1.10; here 1.11.4): a site's deploy
 * step gets the package's FTP credentials (`reseller_ftp_credentials`) and its database's
 * connection (`reseller_mysql_connection`, with the password from the same ephemeral
 * variable as the database's `password_wo`) in a provisioner's environment. Terraform
 * opens and closes them at plan and apply time; their values reach the deploy step and
 * never the state, the plan file or its JSON.
 */

const SITE = 'ephemeral-site.com';
const DB_PASSWORD = 'Eph-db-pw-5e1b9c-Heron';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
let ws: ProviderWorkspace;
let out: string;
let deployed: string;

/** The deploy step: writes what it was given (hashes of the secrets) to a file, as a real one would upload the site and write its config. */
const DEPLOY = [
  "const h = (s) => require('crypto').createHash('sha256').update(s || '').digest('hex');",
  'const e = process.env;',
  'require(\'fs\').writeFileSync(e.OUT, JSON.stringify({ ftpUser: e.FTP_USER, ftpPassword: h(e.FTP_PASSWORD), dbHost: e.DB_HOST, dbName: e.DB_NAME, dbUser: e.DB_USER, dbPassword: h(e.DB_PASSWORD), dbUrl: h(e.DB_URL) }));',
].join(' ');

const config = (dbName = '${reseller_mysql_database.shop.stored_name}'): [Resources, Record<string, unknown>] => [{
  reseller_package: { site: { domain_name: SITE, package_type: 'Linux Unlimited' } },
  reseller_mysql_database: { shop: { package: '${reseller_package.site.domain_name}', name: 'shop', password_wo: '${var.db_password}', password_wo_version: 1 } },
  terraform_data: {
    deploy: {
      triggers_replace: ['${reseller_mysql_database.shop.database_id}'],
      provisioner: [{
        'local-exec': {
          interpreter: ['node', '-e'],
          command: DEPLOY,
          environment: {
            OUT: deployed,
            FTP_USER: '${ephemeral.reseller_ftp_credentials.site.username}',
            FTP_PASSWORD: '${ephemeral.reseller_ftp_credentials.site.password}',
            DB_HOST: '${ephemeral.reseller_mysql_connection.shop.host}',
            DB_NAME: '${ephemeral.reseller_mysql_connection.shop.database}',
            DB_USER: '${ephemeral.reseller_mysql_connection.shop.user}',
            DB_PASSWORD: '${ephemeral.reseller_mysql_connection.shop.password}',
            DB_URL: '${ephemeral.reseller_mysql_connection.shop.url}',
          },
        },
      }],
    },
  },
}, {
  ephemeral: {
    // By package_id: known once the package exists, so Terraform opens it after the package is created.
    reseller_ftp_credentials: { site: { package: '${reseller_package.site.package_id}' } },
    reseller_mysql_connection: { shop: { package: '${reseller_package.site.domain_name}', name: dbName, password: '${var.db_password}' } },
  },
}];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'ephemeral-deploy-'));
  deployed = join(out, 'deployed.json');
  ws = await startProviderWorkspace({
    name: 'provider-ephemeral',
    variables: { db_password: { type: 'string', sensitive: true, ephemeral: true } },
    env: { TF_VAR_db_password: DB_PASSWORD },
  }, {});
}, E2E_TIMEOUT_MS);
afterAll(async () => {
  await ws?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe('ephemeral resources with real Terraform', () => {
  it('the schema offers both, with their secrets sensitive', async () => {
    const schema = JSON.parse((await terraform(ws.tf, ['providers', 'schema', '-json'], ws.dir, ws.env)).stdout);
    const provider = Object.values(schema.provider_schemas as Record<string, { ephemeral_resource_schemas: Record<string, { block: { attributes: Record<string, { sensitive?: boolean }> } }> }>)[0];
    expect(Object.keys(provider.ephemeral_resource_schemas).sort()).toEqual(['reseller_ftp_credentials', 'reseller_mysql_connection']);
    expect(provider.ephemeral_resource_schemas.reseller_ftp_credentials.block.attributes.password.sensitive).toBe(true);
    expect(provider.ephemeral_resource_schemas.reseller_mysql_connection.block.attributes.url.sensitive).toBe(true);
  }, E2E_TIMEOUT_MS);

  it('a deploy step gets the FTP credentials and the database connection, opened and closed during the apply, after what they name exists', async () => {
    ws.writeConfig(...config());
    const applied = await ws.run(['apply', '-auto-approve']);
    expect(applied.stdout).toMatch(/ephemeral\.reseller_ftp_credentials\.site: Opening\.\.\./);
    expect(applied.stdout).toMatch(/ephemeral\.reseller_mysql_connection\.shop: Opening\.\.\./);
    expect(applied.stdout).toMatch(/ephemeral\.reseller_ftp_credentials\.site: Closing\.\.\./);
    expect(applied.stdout).toMatch(/ephemeral\.reseller_mysql_connection\.shop: Closing\.\.\./);
    const ftp = await ws.api.ftp.credentials(SITE);
    expect(JSON.parse(readFileSync(deployed, 'utf8'))).toEqual({
      ftpUser: ftp.username, ftpPassword: sha256(ftp.password),
      dbHost: 'mysql-01.emulator.internal', dbName: 'shop', dbUser: 'shop', dbPassword: sha256(DB_PASSWORD),
      dbUrl: sha256(`mysql://shop:${encodeURIComponent(DB_PASSWORD)}@mysql-01.emulator.internal:3306/shop`),
    });
    // The database got the same password the deploy step was given.
    expect(ws.emu.account().packages[0].mysqlDatabases[0].passwordSha256).toBe(sha256(DB_PASSWORD));
  }, E2E_TIMEOUT_MS);

  it('a plan opens them again (everything they name exists now) and changes nothing; no value reaches the state, the plan file or its JSON', async () => {
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.changes).toEqual({});
    expect(plan.planText).toMatch(/ephemeral\.reseller_ftp_credentials\.site: Opening\.\.\./);
    expect(plan.planText).toMatch(/ephemeral\.reseller_mysql_connection\.shop: Closing\.\.\./);
    const ftp = await ws.api.ftp.credentials(SITE);
    const planFile = readFileSync(join(ws.dir, 'p')).toString('latin1');
    const state = readFileSync(join(ws.dir, 'terraform.tfstate'), 'utf8');
    const show = (await terraform(ws.tf, ['show', '-json', '-no-color'], ws.dir, ws.env)).stdout;
    for (const [name, text] of Object.entries({ planText: plan.planText, showText: plan.showText, planJson: plan.jsonText, planFile, state, show })) {
      expect({ name, ftp: text.includes(ftp.password), db: text.includes(DB_PASSWORD) }).toEqual({ name, ftp: false, db: false });
    }
    // Only the managed resources are recorded (an ephemeral one is at most named as a dependency).
    expect(JSON.parse(state).resources.map((r: { mode: string; type: string }) => `${r.mode} ${r.type}`).sort()).toEqual(
      ['managed reseller_mysql_database', 'managed reseller_package', 'managed terraform_data'],
    );
  }, E2E_TIMEOUT_MS);

  it('a database name the package does not have fails the plan, naming the closest names; a missing package too', async () => {
    ws.writeConfig(...config('shpo'));
    const missing = await ws.run(['plan'], [1]);
    expect(missing.stderr).toMatch(/reseller_mysql_connection: MySQL database of package ephemeral-site\.com "shpo" not found/);
    expect(missing.stderr).toMatch(/Closest existing: shop/);
    const [resources, ephemeral] = config();
    (ephemeral.ephemeral as Record<string, Record<string, Record<string, unknown>>>).reseller_ftp_credentials.site.package = 'nowhere.example';
    ws.writeConfig(resources, ephemeral);
    const noPackage = await ws.run(['plan'], [1]);
    expect(noPackage.stderr).toMatch(/reseller_ftp_credentials: package "nowhere\.example" not found/);
    ws.writeConfig(...config());
  }, E2E_TIMEOUT_MS);

  it('destroy removes the database and the package; the ephemeral resources leave nothing behind', async () => {
    await ws.run(['destroy', '-auto-approve']);
    expect(ws.emu.account().packages).toEqual([]);
    expect(existsSync(join(ws.dir, 'terraform.tfstate'))).toBe(true);
    expect(readFileSync(join(ws.dir, 'terraform.tfstate'), 'utf8')).not.toContain(DB_PASSWORD);
    await terraform(ws.tf, ['validate', '-no-color'], ws.dir, ws.env);
  }, E2E_TIMEOUT_MS);
});

describe('the documented pattern (examples/ephemeral-resources/reseller_mysql_connection), applied as written', () => {
  let docs: ProviderWorkspace;
  let record: string;

  beforeAll(async () => {
    docs = await startProviderWorkspace({ name: 'provider-ephemeral-example', env: { TF_VAR_db_password: DB_PASSWORD } }, {});
    cpSync(join(REPO_ROOT, 'examples', 'ephemeral-resources', 'reseller_mysql_connection', 'ephemeral-resource.tf'), join(docs.dir, 'example.tf'));
    // The user's deploy script, here one that records hashes of what it was given.
    record = join(out, 'example-deploy.json');
    writeFileSync(join(docs.dir, 'deploy.sh'), `#!/usr/bin/env node\n${DEPLOY.replace('e.OUT', JSON.stringify(record))}\n`, { mode: 0o755 });
  }, E2E_TIMEOUT_MS);
  afterAll(() => docs?.stop());

  it('the deploy step gets the FTP user and the database connection; the next plan changes nothing; state and plan hold no secret', async () => {
    await docs.run(['apply', '-auto-approve']);
    const ftp = await docs.api.ftp.credentials('example-app.com');
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({
      ftpUser: ftp.username, ftpPassword: sha256(ftp.password), dbHost: 'mysql-01.emulator.internal', dbName: 'app', dbUser: 'app', dbPassword: sha256(DB_PASSWORD),
    });
    expect(docs.emu.account().packages[0].mysqlDatabases[0].passwordSha256).toBe(sha256(DB_PASSWORD));
    const plan = await savedPlan(docs.tf, docs.dir, docs.env);
    expect(plan.changes).toEqual({});
    const state = readFileSync(join(docs.dir, 'terraform.tfstate'), 'utf8');
    for (const text of [state, plan.jsonText, readFileSync(join(docs.dir, 'p')).toString('latin1')]) {
      expect([text.includes(ftp.password), text.includes(DB_PASSWORD)]).toEqual([false, false]);
    }
  }, E2E_TIMEOUT_MS);
});
