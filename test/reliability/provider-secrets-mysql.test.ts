/**
 * Secrets of MySQL databases and FTP credentials, native provider: a complete REAL
 * terraform lifecycle (init, apply, a database password rotation planned to a plan file,
 * show and show -json of it, apply of that plan, show -json of the state, destroy), every
 * command at TF_LOG=trace with TF_LOG_PATH. The databases take their password from a
 * sensitive, ephemeral variable (`password_wo`); a deploy step takes the package's FTP
 * credentials (`ephemeral "reseller_ftp_credentials"`) and a database's connection
 * (`ephemeral "reseller_mysql_connection"`) in its provisioner environment. Then every
 * artifact is searched, as provider-secrets.test.ts does for mailboxes: the stack
 * directory's files (the plan file unzipped), all terraform output, the trace log, and the
 * emulator's request log, state dump, data file and log lines. Neither database password,
 * nor the FTP password, nor the API key may appear anywhere, in any form.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { installProvider, PROVIDER_SOURCE } from '../../src/provider/install';
import { builtProvider } from '../../bench/lib/provider-config';
import { collectArtifacts, leaks, secretForms, uncovered } from './artifacts';
import { readText, requireTerraformAndBuild, tempDir, terraform, TfRun } from './support';

const API_KEY = 'rk-S3CRET-mysql-key-7c1e5a90d2b4';
const PASSWORD_A = 'Db-A-2c7f91e4-Pangolin-Mysql';
const PASSWORD_B = 'Db-B-9e03b5d7-Axolotl-Mysql';
const SITE = 'secret-db.example';

let emu: RunningEmulator;
let api: ResellerClient;
const emulatorLog: string[] = [];
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A deploy step that records only hashes of what it was given (a real one would upload the site and write its config). */
const DEPLOY = [
  "const h = (s) => require('crypto').createHash('sha256').update(s || '').digest('hex');",
  "require('fs').writeFileSync(process.env.OUT, JSON.stringify({ ftp: h(process.env.FTP_PASSWORD), db: h(process.env.DB_PASSWORD) }));",
].join(' ');

function config(apiUrl: string, deployed: string, shopVersion: number): unknown {
  const db = (name: string, version: number) => ({ package: '${reseller_package.site.domain_name}', name, password_wo: '${var.db_password}', password_wo_version: version });
  return {
    terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } },
    variable: { db_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: { api_url: apiUrl } },
    resource: {
      reseller_package: { site: { domain_name: SITE, package_type: 'Linux Unlimited' } },
      reseller_mysql_database: { shop: db('shop', shopVersion), blog: db('blog', 1) },
      terraform_data: {
        deploy: {
          triggers_replace: ['${reseller_mysql_database.shop.database_id}', String(shopVersion)],
          provisioner: [{
            'local-exec': {
              interpreter: ['node', '-e'],
              command: DEPLOY,
              environment: {
                OUT: deployed,
                FTP_USER: '${ephemeral.reseller_ftp_credentials.site.username}',
                FTP_PASSWORD: '${ephemeral.reseller_ftp_credentials.site.password}',
                DB_PASSWORD: '${ephemeral.reseller_mysql_connection.shop.password}',
                DB_URL: '${ephemeral.reseller_mysql_connection.shop.url}',
              },
            },
          }],
        },
      },
    },
    ephemeral: {
      reseller_ftp_credentials: { site: { package: '${reseller_package.site.package_id}' } },
      reseller_mysql_connection: { shop: { package: SITE, name: '${reseller_mysql_database.shop.stored_name}', password: '${var.db_password}' } },
    },
  };
}

test('no database password, FTP password or API key in any artifact of apply, rotation, show and destroy at TF_LOG=trace', async () => {
  const tf = requireTerraformAndBuild();
  const work = tempDir('provider-secrets-mysql');
  const dataFile = join(work, 'emulator.json');
  emu = await startEmulator({ port: 0, apiKey: API_KEY, dataFile, provisionDelayMs: 0, quiet: false, log: (l) => emulatorLog.push(l) });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY });
  const dir = join(work, 'stack');
  mkdirSync(dir, { recursive: true });
  installProvider(join(dir, 'terraform.d', 'plugins'), undefined, builtProvider());
  const deployed = join(work, 'deployed.json');
  const write = (shopVersion: number) => writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(config(emu.url, deployed, shopVersion), null, 1));
  const traceFile = join(work, 'terraform-trace.log');
  const env = (password: string) => ({
    RESELLER_API_KEY: API_KEY, TF_VAR_db_password: password, RESELLER_POLL_INTERVAL: '100ms', TF_LOG: 'trace', TF_LOG_PATH: traceFile,
  });
  const runs: TfRun[] = [];
  const run = async (args: string[], password = PASSWORD_A) => {
    const r = await terraform(tf, dir, args, env(password));
    runs.push(r);
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} failed:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    return r;
  };

  write(1);
  await run(['init', '-input=false', '-no-color']);
  await run(['apply', '-auto-approve', '-input=false', '-no-color']);
  const databases = () => emu.snapshot().accounts[0].packages.flatMap((p) => p.mysqlDatabases);
  const ftpPassword = (await api.ftp.credentials(SITE)).password;
  // Positive controls: the passwords did reach the API and the deploy step.
  expect(databases().map((d) => [d.name, d.passwordSha256]).sort()).toEqual([['blog', sha256(PASSWORD_A)], ['shop', sha256(PASSWORD_A)]]);
  expect(JSON.parse(readFileSync(deployed, 'utf8'))).toEqual({ ftp: sha256(ftpPassword), db: sha256(PASSWORD_A) });

  // Rotate shop's password (version 2, another value): plan to a file, show it, apply it.
  write(2);
  const planned = await run(['plan', '-out=rotation.tfplan', '-input=false', '-no-color'], PASSWORD_B);
  expect(planned.stdout).toMatch(/reseller_mysql_database\.shop will be updated in-place/);
  const showPlan = await run(['show', '-json', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  await run(['show', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  expect(JSON.parse(showPlan.stdout).resource_changes.length).toBeGreaterThan(0);
  await run(['apply', '-input=false', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  expect(databases().find((d) => d.name === 'shop')!.passwordSha256).toBe(sha256(PASSWORD_B));
  expect(JSON.parse(readFileSync(deployed, 'utf8'))).toEqual({ ftp: sha256(ftpPassword), db: sha256(PASSWORD_B) });
  await run(['show', '-json', '-no-color'], PASSWORD_B);
  const dataFileWithDatabases = readText(dataFile);
  await run(['destroy', '-auto-approve', '-input=false', '-no-color'], PASSWORD_B);
  expect(emu.snapshot().accounts[0].packages).toEqual([]);

  const requests = await (await fetch(`${emu.url}/__emulator/requests`)).text();
  const stateDump = await (await fetch(`${emu.url}/__emulator/state`)).text();
  expect(JSON.parse(requests).map((r: { path: string }) => r.path)).toEqual(expect.arrayContaining([`/package/${SITE}/web/ftpCredentials`, `/package/${SITE}/web/mysqlUserPassword`]));

  // ---- the search ----
  const artifacts = collectArtifacts([dir], runs, [
    ['terraform trace log (TF_LOG_PATH)', readText(traceFile)],
    ['emulator request log', requests],
    ['emulator state dump', stateDump],
    ['emulator data file (with the databases)', dataFileWithDatabases],
    ['emulator data file (after destroy)', readText(dataFile)],
    ['emulator log lines', emulatorLog.join('\n')],
    ['the deploy step\'s output', readText(deployed)],
  ]);

  // The search is not vacuous: the files it must cover are there, and the trace captured the provider's calls.
  expect(uncovered(artifacts, [/main\.tf\.json$/, /terraform\.tfstate$/, /terraform\.tfstate\.backup$/, /rotation\.tfplan!/])).toEqual([]);
  const trace = readText(traceFile);
  expect(trace).toMatch(/provider\.terraform-provider-reseller/);
  expect(trace).toMatch(/OpenEphemeralResource/);
  expect(trace).toMatch(/CloseEphemeralResource/);
  expect(dataFileWithDatabases).toContain(sha256(PASSWORD_B)); // the hash, by design; never the password

  const secrets: Array<[string, string]> = [
    ...secretForms('API key', API_KEY, [Buffer.from(`${API_KEY}\n`).toString('base64')]),
    ...secretForms('database password A', PASSWORD_A, [encodeURIComponent(PASSWORD_A)]),
    ...secretForms('database password B', PASSWORD_B, [encodeURIComponent(PASSWORD_B)]),
    ...secretForms('FTP password', ftpPassword),
  ];
  expect(leaks(artifacts, secrets)).toEqual([]);
}, 150_000);
