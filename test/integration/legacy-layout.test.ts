import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack, TerraformVariable } from 'cdktf';
import { Forwarder, HostingPackage, Mailbox, ResellerHosting } from '../../src';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { LEGACY_STACK, legacyStack } from './legacy-stack';
import { MiniTerraform, summary } from '../helpers/mini-terraform';
import { customerSetsPassword, mailbox, passwordAmong, passwordHash, sha256, tempDir } from './support';

/**
 * A stack synthesized by 0.1 (ensure on the object resource, `update` on the settings
 * resource, `set-password` on a password resource) applied with this version's
 * handler: every command still works and reconciles for real. Then the user upgrades
 * and synthesizes again: the new layout takes over the same Terraform state.
 */
const DOMAIN = 'legacy-shop.com';

let emu: TestEmulator;
let outdir: string;
let tf: MiniTerraform;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 100 });
  outdir = tempDir('reseller-legacy-');
  tf = new MiniTerraform(join(outdir, 'stacks', LEGACY_STACK), handlerEnv(emu.url, tempDir('journal-')), { mailbox_password: 'Legacy-Pass-1' });
});
afterAll(() => emu?.stop());

const hash = () => passwordHash(emu, DOMAIN, 'info');

/** The same stack, synthesized by this version (same construct ids and variable). */
function upgradedStack(options: { send: boolean; passwordVersion: number }) {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, LEGACY_STACK);
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' }); // the carriers' layout, as the legacy stack had
  const pw = new TerraformVariable(stack, 'mailbox_password', { type: 'string', sensitive: true });
  const site = new HostingPackage(stack, 'site', { domainName: DOMAIN, packageType: 'Linux Unlimited', label: 'Legacy Shop' });
  new Mailbox(stack, 'info', { package: site, localPart: 'info', password: pw.value, ...options });
  new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', LEGACY_STACK, 'cdk.tf.json'), 'utf8'));
}

test('create: ensure (object), update (settings) and set-password (password resource) all run and succeed', async () => {
  const runs = await tf.apply(legacyStack(outdir).json);
  expect(summary(runs).sort()).toEqual([
    'terraform_data.info ensure',
    'terraform_data.info_password set-password',
    'terraform_data.info_settings update',
    'terraform_data.sales ensure',
    'terraform_data.sales_settings update',
    'terraform_data.site ensure',
    'terraform_data.site_settings update',
  ]);
  expect(runs.every((r) => r.code === 0)).toBe(true);
  expect(runs.find((r) => r.address === 'terraform_data.site_settings')!.stdout).toBe(`package ${DOMAIN} is up to date\n`);
  expect(runs.find((r) => r.address === 'terraform_data.info_password')!.stdout).toBe(`set password of mailbox info@${DOMAIN} (version 1)\n`);
  expect(emu.account().packages.map((p) => p.name)).toEqual([DOMAIN]);
  expect(hash()).toBe(sha256('Legacy-Pass-1'));
  expect(mailOf(emu.account(), DOMAIN).forwarders.map((f) => `${f.local} ${f.remote}`)).toEqual(['sales team@example.org']);
});

test('a settings change runs update, which writes the change and leaves the password alone', async () => {
  await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Legacy-1');
  const runs = await tf.apply(legacyStack(outdir, { send: false }).json);
  expect(summary(runs)).toEqual(['terraform_data.info_settings update']);
  expect(runs[0].stdout).toBe(`updated mailbox info@${DOMAIN}: send true -> false\n`);
  expect(mailbox(emu, DOMAIN, 'info')!.send).toBe(false);
  expect(hash()).toBe(sha256('Customer-Legacy-1'));
});

test('a passwordVersion bump runs set-password, which sets the new password', async () => {
  tf.vars = { mailbox_password: 'Legacy-Pass-2' };
  const runs = await tf.apply(legacyStack(outdir, { send: false, passwordVersion: 2 }).json);
  expect(summary(runs)).toEqual(['terraform_data.info_password set-password']);
  expect(hash()).toBe(sha256('Legacy-Pass-2'));
});

test('upgrading (synthesizing the same stack with this version) deletes nothing and keeps the customer\'s password', async () => {
  await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Legacy-2');
  const ids = ['site', 'info', 'sales'].map((o) => tf.idOf(`terraform_data.${o}`));
  const packageId = emu.account().packages[0].id;
  const runs = await tf.apply(upgradedStack({ send: false, passwordVersion: 2 }));
  // The object resources keep their ids (identity triggers unchanged): nothing is deleted.
  expect(['site', 'info', 'sales'].map((o) => tf.idOf(`terraform_data.${o}`))).toEqual(ids);
  expect(runs.filter((r) => r.command === 'delete')).toEqual([]);
  expect(tf.state.has('terraform_data.info_password')).toBe(false);
  // Only the mailbox's settings resource is replaced (its triggers gained passwordVersion);
  // Terraform runs the destroy-time provisioner of the new configuration block on the old
  // object, so retire-settings sees the 0.1 triggers, which hold no passwordVersion.
  expect(summary(runs)).toEqual(['terraform_data.info_settings retire-settings', 'terraform_data.info_settings ensure']);
  expect(emu.account().packages[0].id).toBe(packageId);
  // The password version did not change (2 before and after): the password the customer set stays.
  expect(passwordAmong(emu, DOMAIN, 'info', ['Customer-Legacy-2', 'Legacy-Pass-2'])).toBe('Customer-Legacy-2');
  expect(runs[1].stdout).not.toMatch(/set its password/);
});

test('after the upgrade, settings changes and rotations work the new way', async () => {
  await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Legacy-3');
  const change = await tf.apply(upgradedStack({ send: true, passwordVersion: 2 }));
  expect(summary(change)).toEqual(['terraform_data.info_settings retire-settings', 'terraform_data.info_settings ensure']);
  expect(hash()).toBe(sha256('Customer-Legacy-3'));
  tf.vars = { mailbox_password: 'Legacy-Pass-3' };
  const rotate = await tf.apply(upgradedStack({ send: true, passwordVersion: 3 }));
  expect(summary(rotate)).toEqual(['terraform_data.info_settings retire-settings', 'terraform_data.info_settings ensure']);
  expect(hash()).toBe(sha256('Legacy-Pass-3'));
});
