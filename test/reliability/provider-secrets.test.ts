/**
 * Secrets, native provider: a complete REAL terraform lifecycle (init, apply, a password
 * rotation planned to a plan file, show and show -json of it, apply of that plan, show
 * -json of the state, destroy), every command at TF_LOG=trace with TF_LOG_PATH, against
 * an emulator opened by a distinctive API key, with distinctive passwords (write-only
 * `password_wo` from a sensitive, ephemeral variable). Then every artifact is searched:
 * every file of the stack directory (configuration, terraform.tfstate + backup, the plan
 * file unzipped, the lock file, .terraform), all terraform output, the trace log file,
 * the emulator's request log, state dump, data file and log lines. Neither the API key
 * (raw, base64, base64 of key + newline, base64url, hex) nor any password (raw, base64,
 * base64url, hex) may appear anywhere.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { providerConfig, writeProviderStack } from '../../bench/lib/provider-config';
import { collectArtifacts, leaks, secretForms, uncovered } from './artifacts';
import { readText, requireTerraformAndBuild, tempDir, terraform, TfRun } from './support';
import { PASSWORD_VARIABLE, ProviderSite } from './provider-support';

const API_KEY = 'rk-S3CRET-provider-key-2b7e9d14c3a5';
const PASSWORD_A = 'Pw-A-51d0c8e3-Walrus-Provider';
const PASSWORD_B = 'Pw-B-7a26f9b1-Ocelot-Provider';
const SECRETS: Array<[string, string]> = [
  ...secretForms('API key', API_KEY, [Buffer.from(`${API_KEY}\n`).toString('base64')]),
  ...secretForms('password A', PASSWORD_A),
  ...secretForms('password B', PASSWORD_B),
];
const SITES: ProviderSite[] = [
  { name: 'shop', domain: 'secret-shop.example', mailboxes: [{ name: 'shop_info', local: 'info' }, { name: 'shop_orders', local: 'orders' }], forwarders: [{ name: 'shop_sales', local: 'sales', remote: 'team@example.org' }] },
  { name: 'blog', domain: 'secret-blog.example', mailboxes: [{ name: 'blog_editor', local: 'editor' }], forwarders: [] },
];

let emu: RunningEmulator;
const emulatorLog: string[] = [];
afterAll(() => emu?.stop());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

test('no API key and no password in any artifact of apply, plan, show and destroy at TF_LOG=trace', async () => {
  const tf = requireTerraformAndBuild();
  const work = tempDir('provider-secrets');
  const dataFile = join(work, 'emulator.json');
  emu = await startEmulator({ port: 0, apiKey: API_KEY, dataFile, provisionDelayMs: 0, quiet: false, log: (l) => emulatorLog.push(l) });
  const dir = writeProviderStack(join(work, 'stack'), SITES, { apiUrl: emu.url });
  const traceFile = join(work, 'terraform-trace.log');
  const env = (password: string) => ({
    RESELLER_API_KEY: API_KEY, [`TF_VAR_${PASSWORD_VARIABLE}`]: password, RESELLER_POLL_INTERVAL: '100ms', TF_LOG: 'trace', TF_LOG_PATH: traceFile,
  });
  const runs: TfRun[] = [];
  const run = async (args: string[], password = PASSWORD_A) => {
    const r = await terraform(tf, dir, args, env(password));
    runs.push(r);
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} failed:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    return r;
  };

  await run(['init', '-input=false', '-no-color']);
  await run(['apply', '-auto-approve', '-input=false', '-no-color']);
  const boxes = () => emu.snapshot().accounts[0].packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes));
  // Positive control: the password did reach the API.
  expect(boxes().map((m) => [m.local, m.passwordSha256]).sort()).toEqual([['editor', sha256(PASSWORD_A)], ['info', sha256(PASSWORD_A)], ['orders', sha256(PASSWORD_A)]]);

  // Rotate info's password (version 2, another value): plan to a file, show it, apply it.
  const doc = providerConfig(SITES, { apiUrl: emu.url }) as { resource: Record<string, Record<string, Record<string, unknown>>> };
  doc.resource.reseller_mailbox.shop_info.password_wo_version = 2;
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(doc, null, 1));
  const planned = await run(['plan', '-out=rotation.tfplan', '-input=false', '-no-color'], PASSWORD_B);
  expect(planned.stdout).toMatch(/reseller_mailbox\.shop_info will be updated in-place/);
  const showPlan = await run(['show', '-json', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  await run(['show', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  expect(JSON.parse(showPlan.stdout).resource_changes.length).toBeGreaterThan(0);
  await run(['apply', '-input=false', '-no-color', 'rotation.tfplan'], PASSWORD_B);
  expect(boxes().find((m) => m.local === 'info')!.passwordSha256).toBe(sha256(PASSWORD_B));
  await run(['show', '-json', '-no-color'], PASSWORD_B);
  const dataFileWithMailboxes = readText(dataFile);
  await run(['destroy', '-auto-approve', '-input=false', '-no-color'], PASSWORD_B);
  expect(emu.snapshot().accounts[0].packages).toEqual([]);

  const requests = await (await fetch(`${emu.url}/__emulator/requests`)).text();
  const stateDump = await (await fetch(`${emu.url}/__emulator/state`)).text();
  expect(JSON.parse(requests).length).toBeGreaterThan(10);

  // ---- the search ----
  const artifacts = collectArtifacts([dir], runs, [
    ['terraform trace log (TF_LOG_PATH)', readText(traceFile)],
    ['emulator request log', requests],
    ['emulator state dump', stateDump],
    ['emulator data file (with the mailboxes)', dataFileWithMailboxes],
    ['emulator data file (after destroy)', readText(dataFile)],
    ['emulator log lines', emulatorLog.join('\n')],
  ]);
  writeFileSync(join(work, 'artifact-index.txt'), artifacts.map(([name, text]) => `${name}: ${text.length} chars`).join('\n'));

  // The search is not vacuous: the files it must cover are there, and the trace captured the provider's calls.
  expect(uncovered(artifacts, [/main\.tf\.json$/, /terraform\.tfstate$/, /terraform\.tfstate\.backup$/, /rotation\.tfplan!/])).toEqual([]);
  const trace = readText(traceFile);
  expect(trace).toMatch(/provider\.terraform-provider-reseller/);
  expect(trace).toMatch(/ApplyResourceChange/);
  expect(dataFileWithMailboxes).toContain(sha256(PASSWORD_B)); // the hash, by design; never the password

  expect(leaks(artifacts, SECRETS)).toEqual([]);
}, 150_000);
