/**
 * Bad names never reach another object: a "domain name" that is really a URL fragment
 * ("customer.example/old-shop", "customer.example?x", "customer.example#x",
 * "customer.example\x") is refused at synth and by the handler. It must never be
 * cut down to "customer.example" and then adopt, change or DELETE that package,
 * which may be a different customer's live site.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { HostingPackage } from '../../src';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';

/** What a URL host parser cuts off at ("/", "?", "#", "\\"). */
const URLISH = ['victim.example/old-shop', 'victim.example?x=1', 'victim.example#x', 'victim.example\\x'];
const TWO = URLISH.slice(0, 2); // the handler runs are slower: two suffice, the cause is one

let emu: TestEmulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator();
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  env = handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'reliability-names-')), { RESELLER_MAILBOX_PASSWORD: 'Victim-Passw0rd' });
  const pkg = { kind: 'package', path: 'Stack/victim', domainName: 'victim.example', extraDomainNames: [], packageType: 'Linux Unlimited', label: 'Victim', documentRoots: {}, enabled: true };
  expect((await runHandler('ensure', pkg, env)).code).toBe(0);
  const box = { kind: 'mailbox', path: 'Stack/info', packageDomain: 'victim.example', domain: 'victim.example', localPart: 'info', send: true, receive: true, passwordVersion: 1 };
  expect((await runHandler('ensure', box, env)).code).toBe(0);
});
afterAll(() => emu?.stop());

const victim = () => emu.account().packages.find((p) => p.name === 'victim.example');

test.each(TWO)('handler delete of package %j is refused and deletes nothing', async (key) => {
  const run = await runHandler('delete', { kind: 'package', key, placement: '', parent: '' }, env);
  expect(victim()).toBeDefined();
  expect(mailOf(emu.account(), 'victim.example').mailboxes.map((m) => m.local)).toEqual(['info']);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/not a valid domain name/);
});

test.each(TWO)('handler delete of mailbox info@%s is refused and deletes nothing', async (domain) => {
  const run = await runHandler('delete', { kind: 'mailbox', key: `info@${domain}`, placement: domain, parent: '' }, env);
  expect(mailOf(emu.account(), 'victim.example').mailboxes.map((m) => m.local)).toEqual(['info']);
  expect(run.code).toBe(1);
});

test.each(TWO)('handler ensure of package %j is refused and changes nothing', async (domainName) => {
  const summary = () => emu.account().packages.map((p) => ({ name: p.name, type: p.packageTypeName, label: p.label, enabled: p.enabled }));
  const before = summary();
  const run = await runHandler('ensure', {
    kind: 'package', path: 'Stack/typo', domainName, extraDomainNames: [], packageType: 'Linux Starter', label: 'Typo', documentRoots: {}, enabled: false,
  }, env);
  expect(summary()).toEqual(before);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/Stack\/typo: domainName .*not a valid domain name/);
});

test.each(URLISH)('a HostingPackage with domainName %j fails at synth', (domainName) => {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'reliability-names-synth-')) });
  const stack = new TerraformStack(app, 'names');
  new HostingPackage(stack, 'typo', { domainName, packageType: 'Linux Unlimited' });
  expect(() => app.synth()).toThrow(/names\/typo: domainName/);
});
