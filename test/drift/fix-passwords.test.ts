import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack, TerraformVariable } from 'cdktf';
import { runDriftCli } from '../../src/commands/drift';
import type { DriftDocument } from '../../src/commands/drift/report';
import { HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform } from '../helpers/mini-terraform';
import { sha256 } from '../integration/support';
import { apiEnv, capture, outOfBand, tempDir } from './helpers';

/**
 * `drift --fix` finds a missing mailbox's password the way `terraform apply` finds it
 * for the stack: per mailbox, from `TF_VAR_<name>` of the variable its provisioner
 * reads (or its `passwordEnv`), not one value for every mailbox.
 */
let emu: TestEmulator;
let outdir: string;
let journal: string;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 50 });
  outdir = tempDir('reseller-fix-pw-');
  journal = tempDir('journal-');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'pw');
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const a = new TerraformVariable(stack, 'pw_a', { type: 'string', sensitive: true });
  const b = new TerraformVariable(stack, 'pw_b', { type: 'string', sensitive: true });
  const site = new HostingPackage(stack, 'site', { domainName: 'fix-pw.example.com', packageType: 'Linux Starter' });
  new Mailbox(stack, 'alice', { package: site, localPart: 'alice', password: a.stringValue });
  new Mailbox(stack, 'bob', { package: site, localPart: 'bob', password: b.stringValue });
  new Mailbox(stack, 'carol', { package: site, localPart: 'carol', passwordEnv: 'CAROL_PASSWORD' });
  app.synth();
  const stackDir = join(outdir, 'stacks', 'pw');
  const json = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'));
  await new MiniTerraform(stackDir, handlerEnv(emu.url, journal, { CAROL_PASSWORD: 'Carol-Passw0rd!' }), { pw_a: 'Alice-Passw0rd!', pw_b: 'Bob-Passw0rd!' }).apply(json);
}, 90_000);
afterAll(() => emu?.stop());

const hashOf = (local: string) => mailOf(emu.account(), 'fix-pw.example.com').mailboxes.find((m) => m.local === local)?.passwordSha256;

async function deleteAll(): Promise<void> {
  const api = outOfBand(emu.url);
  const mail = await api.mail.get('fix-pw.example.com', 'fix-pw.example.com');
  await api.mail.delete('fix-pw.example.com', 'fix-pw.example.com', mail.mailboxes.map((m) => m.id));
  api.close();
}

test('each missing mailbox gets its own variable\'s password; one without a source is skipped, and --detailed-exitcode says 2', async () => {
  await deleteAll();
  const env = apiEnv(emu.url, journal, { TF_VAR_pw_a: 'Alice-Passw0rd!', CAROL_PASSWORD: 'Carol-Passw0rd!' });
  const run = await capture(runDriftCli, ['--stacks', outdir, '--json', '--fix', '--detailed-exitcode'], env);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  const outcome = (address: string) => doc.fix!.actions.find((a) => a.address === address);
  expect(outcome('terraform_data.alice')).toMatchObject({ outcome: 'fixed' });
  expect(outcome('terraform_data.carol')).toMatchObject({ outcome: 'fixed' });
  expect(outcome('terraform_data.bob')).toMatchObject({
    outcome: 'skipped',
    message: 'a missing mailbox cannot be created without its password: set RESELLER_MAILBOX_PASSWORD or TF_VAR_pw_b and run drift --fix again',
  });
  expect(hashOf('alice')).toBe(sha256('Alice-Passw0rd!'));
  expect(hashOf('carol')).toBe(sha256('Carol-Passw0rd!'));
  expect(hashOf('bob')).toBeUndefined();
  expect(run.stderr).not.toMatch(/Passw0rd/);
  expect(run.code).toBe(2);

  const second = await capture(runDriftCli, ['--stacks', outdir, '--json', '--fix', '--detailed-exitcode'],
    apiEnv(emu.url, journal, { TF_VAR_pw_b: 'Bob-Passw0rd!', RESELLER_MAILBOX_PASSWORD: 'Shared-Passw0rd!' }));
  expect(second.code).toBe(0);
  expect(hashOf('bob')).toBe(sha256('Bob-Passw0rd!')); // its own variable wins over the one for every mailbox
});
