/**
 * Secrets: a complete REAL terraform lifecycle (init, apply, plan of a password
 * rotation to a plan file, show, apply of that plan, destroy) of the project's example
 * stack (examples/stack.ts: mailbox passwords from a sensitive TerraformVariable, the
 * documented way), against an emulator opened by a distinctive API key, with
 * distinctive passwords. Then every artifact is searched: the synthesized
 * directory, terraform.tfstate (+ backup), the plan file (unzipped), the plan as text
 * and as `terraform show -json`, all terraform output, everything each handler process
 * wrote (captured by a Node preload, because Terraform hides provisioner output when
 * the configuration holds a sensitive value), the emulator's request log, state dump,
 * data file and log lines, and the handler journal directory. Neither the API key
 * (raw, base64, base64 of key + newline, base64url, hex) nor any password (raw,
 * base64, hex) may appear anywhere.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { collectArtifacts, leaks, secretForms, uncovered } from './artifacts';
import { join } from 'node:path';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { EXAMPLE_STACK_NAME } from '../../examples/stack';
import { synthExample } from '../helpers/synth';
import { nodePreload, readText, requireTerraformAndBuild, tempDir, terraform, TfRun } from './support';

const API_KEY = 'rk-S3CRET-apikey-7f3c9a1e5b2d4c6f';
const PASSWORD_A = 'Pw-A-9c2e7b41-Zebra-Mailbox';
const PASSWORD_B = 'Pw-B-3f8d6a20-Quokka-Mailbox';

const SECRETS: Array<[string, string]> = [
  ...secretForms('API key', API_KEY, [Buffer.from(`${API_KEY}\n`).toString('base64')]),
  ...secretForms('password A', PASSWORD_A),
  ...secretForms('password B', PASSWORD_B),
];

let emu: RunningEmulator;
const emulatorLog: string[] = [];

afterAll(() => emu?.stop());

test('no API key and no password in any artifact of apply, plan, show and destroy', async () => {
  const tf = requireTerraformAndBuild();
  const work = tempDir('secrets');
  const dataFile = join(work, 'emulator.json');
  emu = await startEmulator({ port: 0, apiKey: API_KEY, dataFile, provisionDelayMs: 0, quiet: false, log: (l) => emulatorLog.push(l) });
  const outdir = join(work, 'synth');
  const journal = join(work, 'journal');
  const handlerOutput = join(work, 'handler-output.log');
  const env = {
    RESELLER_API_URL: emu.url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: journal,
    RESELLER_POLL_INTERVAL: '100ms',
    TF_VAR_mailbox_password: PASSWORD_A,
    NODE_OPTIONS: `--require ${nodePreload(work, handlerOutput)}`,
  };
  const runs: TfRun[] = [];
  const run = async (dir: string, args: string[]) => {
    const r = await terraform(tf, dir, args, env);
    runs.push(r);
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  const stackDir = join(outdir, 'stacks', EXAMPLE_STACK_NAME);
  synthExample({}, outdir);
  await run(stackDir, ['init', '-input=false', '-no-color']);
  await run(stackDir, ['apply', '-auto-approve', '-input=false', '-no-color']);
  const hashOf = (s: string) => createHash('sha256').update(s).digest('hex');
  const boxes = () => emu.snapshot().accounts[0].packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes));
  // Positive control: the passwords did reach the API.
  expect(boxes().map((m) => [m.local, m.passwordSha256]).sort()).toEqual([['editor', hashOf(PASSWORD_A)], ['info', hashOf(PASSWORD_A)], ['orders', hashOf(PASSWORD_A)]]);

  // Rotate info's password (version 2, new value): plan to a file, show it, apply it.
  synthExample({ infoPasswordVersion: 2 }, outdir);
  const rotatedEnv = { ...env, TF_VAR_mailbox_password: PASSWORD_B };
  const planned = await terraform(tf, stackDir, ['plan', '-out=rotation.tfplan', '-input=false', '-no-color'], rotatedEnv);
  runs.push(planned);
  expect(planned.code).toBe(0);
  expect(planned.stdout).toMatch(/terraform_data\.shop_info_settings must be replaced/);
  const showJson = await run(stackDir, ['show', '-json', '-no-color', 'rotation.tfplan']);
  await run(stackDir, ['show', '-no-color', 'rotation.tfplan']);
  expect(JSON.parse(showJson.stdout).resource_changes.length).toBeGreaterThan(0);
  const applied = await terraform(tf, stackDir, ['apply', '-input=false', '-no-color', 'rotation.tfplan'], rotatedEnv);
  runs.push(applied);
  expect(applied.code).toBe(0);
  expect(boxes().find((m) => m.local === 'info')!.passwordSha256).toBe(hashOf(PASSWORD_B));
  await run(stackDir, ['show', '-json', '-no-color']);
  const dataFileWithMailboxes = readText(dataFile);
  await run(stackDir, ['destroy', '-auto-approve', '-input=false', '-no-color']);
  expect(emu.snapshot().accounts[0].packages).toEqual([]); // (the cloud server is retained by design)

  // Everything the emulator can tell.
  const requests = await (await fetch(`${emu.url}/__emulator/requests`)).text();
  const stateDump = await (await fetch(`${emu.url}/__emulator/state`)).text();
  expect(JSON.parse(requests).length).toBeGreaterThan(10);

  // ---- the search ----
  const artifacts = collectArtifacts([outdir, journal], runs, [
    ['handler output (all processes)', readText(handlerOutput)],
    ['emulator request log', requests],
    ['emulator state dump', stateDump],
    ['emulator data file (with the mailboxes)', dataFileWithMailboxes],
    ['emulator data file (after destroy)', readText(dataFile)],
    ['emulator log lines', emulatorLog.join('\n')],
  ]);
  writeFileSync(join(work, 'artifact-index.txt'), artifacts.map(([name, text]) => `${name}: ${text.length} chars`).join('\n'));

  // The search is not vacuous: the files it must cover are there and non-trivial.
  expect(uncovered(artifacts, [/cdk\.tf\.json$/, /terraform\.tfstate$/, /terraform\.tfstate\.backup$/, /rotation\.tfplan!/, /journal/])).toEqual([]);
  const handlerText = readText(handlerOutput);
  expect(handlerText).toMatch(/handler ensure stdout\] created mailbox info@example-shop\.com/);
  expect(handlerText).toMatch(/handler ensure stdout\] mailbox info@example-shop\.com: set its password \(version 2\)/);
  expect(handlerText).toMatch(/handler delete stdout\] deleted mailbox orders@example-shop\.com/);
  expect(dataFileWithMailboxes).toContain(hashOf(PASSWORD_B)); // the hash, by design; never the password

  expect(leaks(artifacts, SECRETS)).toEqual([]);
}, 150_000);
