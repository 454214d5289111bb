import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack, TerraformVariable } from 'cdktf';
import { HostingPackage, Mailbox, ResellerHosting } from '../../src';
import type { CarrierResourceType } from '../../src/constructs/reseller-hosting';
import { API_KEY, handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform, ProvisionerFailed, summary } from '../helpers/mini-terraform';
import { customerSetsPassword, mailbox, passwordHash, sha256, tempDir } from './support';

/**
 * A mailbox with a declared password through its life, applied by the stand-in for
 * Terraform: what a replaced settings resource (retire-settings, then ensure) does to
 * the password the customer may have changed, in both carrier resource types.
 *
 * The stack names the API only through ResellerHosting's apiUrl (the apply environment
 * has no RESELLER_API_URL); with terraform_data it is declared after the constructs.
 */
const DOMAIN = 'customer-site.com';

interface MailStackOptions {
  readonly send?: boolean;
  readonly passwordVersion?: number;
}

function mailStack(outdir: string, url: string, resourceType: CarrierResourceType, options: MailStackOptions = {}) {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'mail');
  // A carrier must be chosen before the constructs (the default engine is the provider).
  new ResellerHosting(stack, 'reseller', { apiUrl: url, engine: resourceType });
  const pw = new TerraformVariable(stack, 'pw', { type: 'string', sensitive: true });
  const site = new HostingPackage(stack, 'site', { domainName: DOMAIN, packageType: 'Linux Unlimited', label: 'Customer' });
  new Mailbox(stack, 'info', { package: site, localPart: 'info', password: pw.value, passwordVersion: options.passwordVersion ?? 1, send: options.send ?? true });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', 'mail', 'cdk.tf.json'), 'utf8'));
}

const api = async (emu: TestEmulator, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${Buffer.from(API_KEY).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

beforeAll(() => requireBuiltHandler());

describe.each<CarrierResourceType>(['terraform_data', 'null_resource'])('a mailbox with a declared password (%s)', (type) => {
  let emu: TestEmulator;
  let outdir: string;
  let tf: MiniTerraform;
  const settings = `${type}.info_settings`;
  const config = (options: MailStackOptions = {}) => mailStack(outdir, emu.url, type, options);
  const hash = () => passwordHash(emu, DOMAIN, 'info');

  beforeAll(async () => {
    emu = await startTestEmulator({ provisionDelayMs: 100 });
    outdir = tempDir('reseller-mail-');
    const { RESELLER_API_URL: _fromTheStack, ...env } = handlerEnv(emu.url, tempDir('journal-'));
    tf = new MiniTerraform(join(outdir, 'stacks', 'mail'), env, { pw: 'Declared-Pass-1' });
  });
  afterAll(() => emu?.stop());

  test('the first apply adopts a mailbox that exists already and sets the declared password: one ensure per object', async () => {
    await api(emu, 'POST', '/reseller/*/addWeb', { type: '811', domain_name: DOMAIN, extra_domain_names: [], label: 'Customer' });
    await api(emu, 'POST', `/package/${DOMAIN}/email/${DOMAIN}`, { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'Customer-Choice-1' } } });
    const runs = await tf.apply(config());
    expect(summary(runs)).toEqual([`${type}.site_settings ensure`, `${settings} ensure`]);
    expect(runs[1].objectId).toBe(tf.idOf(`${type}.info`));
    expect(runs[0].stdout).toMatch(/^adopted package customer-site\.com/);
    expect(runs[1].stdout).toBe(`adopted mailbox info@${DOMAIN}; set its password (version 1)\n`);
    expect(hash()).toBe(sha256('Declared-Pass-1'));
    expect(emu.account().packages).toHaveLength(1);
  });

  test("a settings-only change keeps the password the customer changed", async () => {
    await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Choice-2');
    const objectId = tf.idOf(`${type}.info`);
    const runs = await tf.apply(config({ send: false }));
    expect(runs.map((r) => `${r.when} ${r.address} ${r.command}`)).toEqual([`destroy ${settings} retire-settings`, `create ${settings} ensure`]);
    expect(runs[1].objectId).toBe(objectId);
    expect(runs[1].stdout).toBe(`mailbox info@${DOMAIN}: updated send true -> false\n`);
    expect(mailbox(emu, DOMAIN, 'info')!.send).toBe(false);
    expect(hash()).toBe(sha256('Customer-Choice-2'));
    expect(tf.idOf(`${type}.info`)).toBe(objectId);
  });

  test('a passwordVersion bump sets the new password (and keeps the settings)', async () => {
    tf.vars = { pw: 'Declared-Pass-2' };
    const runs = await tf.apply(config({ send: false, passwordVersion: 2 }));
    expect(summary(runs)).toEqual([`${settings} retire-settings`, `${settings} ensure`]);
    expect(runs[1].stdout).toBe(`mailbox info@${DOMAIN}: set its password (version 2)\n`);
    expect(hash()).toBe(sha256('Declared-Pass-2'));
    expect(mailbox(emu, DOMAIN, 'info')!.send).toBe(false);
  });

  test('a rotation whose ensure fails after retire-settings still rotates when the apply is run again', async () => {
    await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Choice-3');
    tf.vars = { pw: 'Declared-Pass-3' };
    await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: `/email/${DOMAIN.replace('.', '\\.')}$`, status: 400, times: 1 }] });
    const failed = tf.apply(config({ send: false, passwordVersion: 3 }));
    await expect(failed).rejects.toThrow(ProvisionerFailed);
    const [retired, ensure] = tf.runs.slice(-2);
    expect(`${retired.address} ${retired.command} ${retired.code}`).toBe(`${settings} retire-settings 0`);
    expect(`${ensure.address} ${ensure.command} ${ensure.code}`).toBe(`${settings} ensure 1`);
    expect(ensure.stderr).toMatch(/^error: ensure mail\/info \(mailbox\): updateMailbox .* 400 /);
    expect(ensure.stderr).not.toContain('Declared-Pass-3');
    expect(hash()).toBe(sha256('Customer-Choice-3')); // nothing was written
    expect(tf.state.get(settings)!.tainted).toBe(true);

    // The next apply replaces the tainted settings resource WITHOUT its destroy-time
    // provisioner: ensure still knows (from the first retire-settings) that the version changed.
    const retry = await tf.apply(config({ send: false, passwordVersion: 3 }));
    expect(summary(retry)).toEqual([`${settings} ensure`]);
    expect(retry[0].stdout).toBe(`mailbox info@${DOMAIN}: set its password (version 3)\n`);
    expect(hash()).toBe(sha256('Declared-Pass-3'));
    expect(await tf.apply(config({ send: false, passwordVersion: 3 }))).toEqual([]);
  });

  test('a settings change after a successful rotation keeps the password again', async () => {
    await customerSetsPassword(emu, DOMAIN, 'info', 'Customer-Choice-4');
    const runs = await tf.apply(config({ send: true, passwordVersion: 3 }));
    expect(summary(runs)).toEqual([`${settings} retire-settings`, `${settings} ensure`]);
    expect(hash()).toBe(sha256('Customer-Choice-4'));
    expect(mailbox(emu, DOMAIN, 'info')!.send).toBe(true);
  });

  test('destroy: retire-settings, then the mailbox and the package are deleted, children first', async () => {
    const runs = await tf.destroy(config({ send: true, passwordVersion: 3 }));
    expect(summary(runs)).toEqual([`${settings} retire-settings`, `${type}.info delete`, `${type}.site delete`]);
    expect(runs[1].stdout).toBe(`deleted mailbox info@${DOMAIN}\n`);
    expect(emu.account().packages).toEqual([]);
    expect(tf.state.size).toBe(0);
  });
});
