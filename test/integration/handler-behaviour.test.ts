import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudProvider } from '../../src/protocol';
import { API_KEY, handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';
import { customerSetsPassword, passwordHash, sha256 } from './support';

let emu: TestEmulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 100 });
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  env = handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'journal-')));
});
afterAll(() => emu?.stop());

const pkg = (over: Record<string, unknown> = {}) => ({
  kind: 'package', path: 'Stack/site', domainName: 'example.com', extraDomainNames: [], packageType: 'Linux Unlimited',
  label: 'Site', documentRoots: {}, enabled: true, ...over,
});
const mailbox = (over: Record<string, unknown> = {}) => ({
  kind: 'mailbox', path: 'Stack/info', packageDomain: 'example.com', domain: 'example.com', localPart: 'info', send: true, receive: true, passwordVersion: 1, ...over,
});
const forwarder = (over: Record<string, unknown> = {}) => ({
  kind: 'forwarder', path: 'Stack/sales', packageDomain: 'example.com', domain: 'example.com', localPart: 'sales', remote: 'team@example.org', ...over,
});
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${Buffer.from(API_KEY).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const requests = async () => (await emu.control('GET', 'requests')) as Array<{ method: string; path: string; status: number }>;

test('ensure adopts a package that already exists instead of creating a second one, and applies the declared settings', async () => {
  const created = await api('POST', '/reseller/*/addWeb', { type: '812', domain_name: 'example.com', extra_domain_names: [], label: 'Old' });
  const run = await runHandler('ensure', pkg({ extraDomainNames: ['example.net'] }), env);
  expect(run).toMatchObject({ code: 0 });
  expect(run.stdout).toMatch(new RegExp(`adopted package example.com \\(id ${created.body.result}\\); updated .*packageType 812 -> 811.*label "Old" -> "Site"`));
  const packages = emu.account().packages;
  expect(packages).toHaveLength(1);
  expect(packages[0]).toMatchObject({ id: created.body.result, label: 'Site', typeRef: 811, names: expect.arrayContaining(['example.net']) });
});

test('a create whose response is lost is looked up, not repeated: one package, one POST', async () => {
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: 'addWeb', dropAfterCommit: true, times: 1 }] });
  const run = await runHandler('ensure', pkg(), env);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/outcome unknown, reading back/);
  expect(emu.account().packages.map((p) => p.name)).toEqual(['example.com']);
  expect((await requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/addWeb'))).toHaveLength(1);
});

test('a mailbox create whose response is lost is adopted, not duplicated', async () => {
  await runHandler('ensure', pkg(), env);
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: '/email/', dropAfterCommit: true, times: 1 }] });
  const run = await runHandler('ensure', mailbox(), { ...env, RESELLER_MAILBOX_PASSWORD: 'Secret-Pass-1' });
  expect(run.code).toBe(0);
  expect(mailOf(emu.account(), 'example.com').mailboxes.map((m) => m.local)).toEqual(['info']);
});

test('apply-time errors name the object and the rule, exit 1, and create nothing', async () => {
  const badType = await runHandler('ensure', pkg({ packageType: 'Gold Plus' }), env);
  expect(badType.code).toBe(1);
  expect(badType.stderr).toMatch(/Stack\/site: packageType "Gold Plus" is not a package type of this account; available: Linux Unlimited \(811\)/);
  const badUser = await runHandler('ensure', pkg({ stackUser: { email: 'nobody@example.com' } }), env);
  expect(badUser.code).toBe(1);
  expect(badUser.stderr).toMatch(/Stack\/site: stackUser \{ email: "nobody@example.com" \} matches no control-panel user/);
  const badDomain = await runHandler('ensure', pkg({ domainName: 'not a domain' }), env);
  expect(badDomain.code).toBe(1);
  expect(badDomain.stderr).toMatch(/Stack\/site: domainName .*not a valid domain name/);
  expect(emu.account().packages).toEqual([]);
});

test('a missing mailbox with no password is a clear error; an existing one is adopted with its password untouched', async () => {
  await runHandler('ensure', pkg(), env);
  const noPassword = await runHandler('ensure', mailbox(), env);
  expect(noPassword.code).toBe(1);
  expect(noPassword.stderr).toMatch(/Stack\/info: mailbox info@example.com does not exist and no password was given/);

  await api('POST', '/package/example.com/email/example.com', { new: { mailbox: { local: 'info', send: 'false', receive: 'true', password: 'Customer-Choice-9' } } });
  const hash = mailOf(emu.account(), 'example.com').mailboxes[0].passwordSha256;
  const adopt = await runHandler('ensure', mailbox(), env);
  expect(adopt.code).toBe(0);
  expect(adopt.stdout).toMatch(/adopted mailbox info@example.com; updated send false -> true/);
  expect(mailOf(emu.account(), 'example.com').mailboxes[0]).toMatchObject({ send: true, passwordSha256: hash });
});

test('a forwarder target change creates the new target, confirms it, then deletes the old one', async () => {
  await runHandler('ensure', pkg(), env);
  await runHandler('ensure', forwarder(), env);
  await emu.control('DELETE', 'requests');
  const run = await runHandler('update', forwarder({ remote: 'desk@example.org' }), env);
  expect(run.code).toBe(0);
  const writes = (await requests()).filter((r) => r.method === 'POST');
  expect(writes).toHaveLength(2); // the new forwarder, then the delete of the old one
  expect(mailOf(emu.account(), 'example.com').forwarders.map((f) => f.remote)).toEqual(['desk@example.org']);
  expect(run.stdout).toMatch(/removed old target team@example.org of forwarder sales@example.com/);
});

test('update writes only the fields that differ', async () => {
  await runHandler('ensure', pkg(), env);
  await emu.control('DELETE', 'requests');
  const same = await runHandler('update', pkg(), env);
  expect(same.stdout).toMatch(/package example.com is up to date/);
  expect((await requests()).filter((r) => r.method === 'POST')).toEqual([]);
  const label = await runHandler('update', pkg({ label: 'Renamed' }), env);
  expect(label.stdout).toMatch(/updated package example.com: label "Site" -> "Renamed"/);
  expect((await requests()).filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/reseller/*/updatePackage']);
});

test('delete is idempotent and never deletes a package it does not own by primary domain', async () => {
  await runHandler('ensure', pkg({ extraDomainNames: ['example.net'] }), env);
  const notOwned = await runHandler('delete', { kind: 'package', key: 'example.net', placement: '', parent: '' }, env);
  expect(notOwned.code).toBe(0);
  expect(notOwned.stderr).toMatch(/not deleted: it is now an extra domain of package example.com/);
  expect(emu.account().packages).toHaveLength(1);
  const first = await runHandler('delete', { kind: 'package', key: 'example.com', placement: '', parent: '' }, env);
  expect(first.stdout).toMatch(/deleted package example.com/);
  const second = await runHandler('delete', { kind: 'package', key: 'example.com', placement: '', parent: '' }, env);
  expect(second).toMatchObject({ code: 0, stdout: expect.stringMatching(/already absent/) });
});

test('a cloud server order waits until listed, printing progress, and is never placed twice', async () => {
  // Provisioning lasts until both processes have been seen polling for the server for over
  // a second (ten progress intervals), however slowly a busy machine runs them: then it is
  // cut short (the emulator's delay applies to servers already ordered too).
  await emu.control('DELETE', 'requests');
  await emu.control('POST', 'settings', { provisionDelayMs: 600_000 });
  const server = {
    kind: 'cloud-server', path: 'Stack/web1', hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'small',
    zone: 'dc_location-usa', periodMonths: 1, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 10,
  };
  const progressEnv = { ...env, RESELLER_PROGRESS_INTERVAL_MS: '100' };
  const running = Promise.all([runHandler('ensure', server, progressEnv), new Promise((r) => setTimeout(r, 300)).then(() => runHandler('ensure', server, progressEnv))]);
  await waitForPolling(1000);
  await emu.control('POST', 'settings', { provisionDelayMs: 0 });
  const runs = await running;
  expect(runs.map((r) => r.code)).toEqual([0, 0]);
  // Which of the two orders depends on which process the machine starts first: exactly one
  // does, and the other waits for that order.
  const ordered = /ordered cloud server web1.example.com \(id \d+\): native small in dc_location-usa/;
  const orderer = runs.filter((r) => ordered.test(r.stdout));
  expect(orderer).toHaveLength(1);
  expect(orderer[0].stdout).toMatch(/waiting for cloud server web1.example.com: ordered \(id \d+\), provisioning, not yet listed, 0m\d+s elapsed/);
  expect(runs.find((r) => r !== orderer[0])!.stdout).toMatch(/already ordered/);
  expect(emu.account().cloudServers).toHaveLength(1);
});

/**
 * Waits until the request log shows the server list read more than `ms` after the order,
 * by at least two requests (both processes, or one twice): the handlers are in their
 * wait, past several progress intervals of their own clock.
 */
async function waitForPolling(ms: number): Promise<void> {
  for (;;) {
    const log = (await emu.control('GET', 'requests')) as Array<{ time: string; method: string; path: string }>;
    const order = log.find((r) => r.method === 'POST' && r.path.endsWith('/addCloudServer'));
    const late = order ? log.filter((r) => r.method === 'GET' && r.path === '/cloud_server' && Date.parse(r.time) - Date.parse(order.time) > ms) : [];
    if (late.length >= 2) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a low balance stops a cloud server order with a clear message and orders nothing', async () => {
  const server = {
    kind: 'cloud-server', path: 'Stack/big', hostName: 'big.example.com', provider: CloudProvider.NATIVE, spec: '32x-large',
    zone: 'dc_location-uk', periodMonths: 36, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 1,
  };
  const run = await runHandler('ensure', server, env);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/Stack\/big: cloud server big.example.com was not ordered: the account balance is too low/);
  expect(emu.account().cloudServers).toEqual([]);
});

test('update (stacks synthesized by 0.1) reconciles for real every time, also right after ensure with the same object id', async () => {
  const withId = { ...env, RESELLER_OBJECT_ID: 'obj-update-test' };
  expect((await runHandler('ensure', pkg(), withId)).code).toBe(0);
  await emu.control('DELETE', 'requests');
  const first = await runHandler('update', pkg(), withId);
  expect(first).toMatchObject({ code: 0, stdout: 'package example.com is up to date\n' });
  const reads = await requests();
  expect(reads.length).toBeGreaterThan(0); // it looked
  expect(reads.filter((r) => r.method === 'POST')).toEqual([]); // and wrote nothing

  // Someone renames the package in the control panel; update (same object id) puts it back.
  const id = emu.account().packages[0].id;
  await api('POST', '/reseller/*/updatePackage', { id: [String(id)], labels: { [id]: 'Changed by hand' } });
  const again = await runHandler('update', pkg(), withId);
  expect(again.stdout).toMatch(/updated package example.com: label "Changed by hand" -> "Site"/);
  expect(emu.account().packages[0].label).toBe('Site');

  // On a package that is gone, update says so and exits 1 (it never creates).
  await runHandler('delete', { kind: 'package', key: 'example.com', placement: '', parent: '' }, env);
  const gone = await runHandler('update', pkg(), withId);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toMatch(/Stack\/site: .*example\.com/);
  expect(emu.account().packages).toEqual([]);
});

test('set-password (stacks synthesized by 0.1) writes the declared password every time it runs', async () => {
  const withId = { ...env, RESELLER_OBJECT_ID: 'obj-set-password-test', RESELLER_MAILBOX_PASSWORD: 'Declared-Pass-1' };
  await runHandler('ensure', pkg(), env);
  expect((await runHandler('ensure', mailbox(), withId)).code).toBe(0);
  expect(passwordHash(emu, 'example.com', 'info')).toBe(sha256('Declared-Pass-1'));

  await customerSetsPassword(emu, 'example.com', 'info', 'Customer-Choice-9');
  const run = await runHandler('set-password', mailbox({ passwordVersion: 2 }), { ...withId, RESELLER_MAILBOX_PASSWORD: 'Declared-Pass-2' });
  expect(run).toMatchObject({ code: 0, stdout: 'set password of mailbox info@example.com (version 2)\n' });
  expect(passwordHash(emu, 'example.com', 'info')).toBe(sha256('Declared-Pass-2'));
  expect(run.stdout + run.stderr).not.toContain('Declared-Pass-2');

  // Right after ensure set it, with the same object id: still written (no "already applied" skip).
  await customerSetsPassword(emu, 'example.com', 'info', 'Customer-Choice-10');
  expect((await runHandler('set-password', mailbox(), withId)).code).toBe(0);
  expect(passwordHash(emu, 'example.com', 'info')).toBe(sha256('Declared-Pass-1'));

  const empty = await runHandler('set-password', mailbox(), { ...withId, RESELLER_MAILBOX_PASSWORD: '' });
  expect(empty.code).toBe(1);
  expect(empty.stderr).toMatch(/Stack\/info: no password to set for mailbox info@example.com/);
  const notMailbox = await runHandler('set-password', pkg(), withId);
  expect(notMailbox.code).toBe(1);
  expect(notMailbox.stderr).toMatch(/set-password applies to mailboxes only, not to package/);
});

describe('ensure after retire-settings (a replaced settings resource)', () => {
  const OBJECT = 'obj-retire-test';
  const withId = (password: string, objectId = OBJECT) => ({ ...env, RESELLER_OBJECT_ID: objectId, RESELLER_MAILBOX_PASSWORD: password });
  const retire = (triggers: Record<string, string>) => runHandler('retire-settings', JSON.stringify(triggers), { ...env, RESELLER_API_KEY: '' });
  const hash = () => passwordHash(emu, 'example.com', 'info');

  beforeEach(async () => {
    await runHandler('ensure', pkg(), env);
    await api('POST', '/package/example.com/email/example.com', { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'Customer-Choice-9' } } });
  });

  test('no note: the first ensure of the object adopts the mailbox and sets the declared password', async () => {
    const run = await runHandler('ensure', mailbox(), withId('Declared-Pass-1'));
    expect(run).toMatchObject({ code: 0, stdout: 'adopted mailbox info@example.com; set its password (version 1)\n' });
    expect(hash()).toBe(sha256('Declared-Pass-1'));
  });

  test('same password version: a settings change keeps the password; the note is used up by a successful ensure', async () => {
    // retire-settings takes no connection: it only writes a note (no API key needed)
    const noted = await retire({ object: OBJECT, send: 'true', receive: 'true', passwordVersion: '1' });
    expect(noted).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const run = await runHandler('ensure', mailbox({ send: false }), withId('Declared-Pass-1'));
    expect(run).toMatchObject({ code: 0, stdout: 'mailbox info@example.com: updated send true -> false\n' });
    expect(hash()).toBe(sha256('Customer-Choice-9'));
    // Another ensure of the same object without a new note is a first ensure again.
    const rerun = await runHandler('ensure', mailbox({ send: false }), withId('Declared-Pass-1'));
    expect(rerun.stdout).toMatch(/set its password \(version 1\)/);
    expect(hash()).toBe(sha256('Declared-Pass-1'));
  });

  test('another password version: the new password is set', async () => {
    await retire({ object: OBJECT, send: 'true', receive: 'true', passwordVersion: '1' });
    const run = await runHandler('ensure', mailbox({ passwordVersion: 2 }), withId('Declared-Pass-2'));
    expect(run).toMatchObject({ code: 0, stdout: 'mailbox info@example.com: set its password (version 2)\n' });
    expect(hash()).toBe(sha256('Declared-Pass-2'));
  });

  test('a note is kept per object id: it does not change what ensure of another object does', async () => {
    await retire({ object: 'some-other-object', send: 'true', receive: 'true', passwordVersion: '1' });
    const run = await runHandler('ensure', mailbox(), withId('Declared-Pass-1'));
    expect(run.stdout).toMatch(/^adopted mailbox info@example.com; set its password/);
    expect(hash()).toBe(sha256('Declared-Pass-1'));
  });

  test('without RESELLER_OBJECT_ID (a manual run, drift --fix) ensure never sets the password of an existing mailbox', async () => {
    const run = await runHandler('ensure', mailbox({ passwordVersion: 7 }), { ...env, RESELLER_MAILBOX_PASSWORD: 'Declared-Pass-7' });
    expect(run).toMatchObject({ code: 0, stdout: 'adopted mailbox info@example.com\n' });
    expect(hash()).toBe(sha256('Customer-Choice-9'));
  });

  test('retire-settings refuses input that is not settings triggers, with a clear message', async () => {
    const notJson = await runHandler('retire-settings', 'nope', env);
    expect(notJson).toMatchObject({ code: 1, stderr: 'error: retire-settings: RESELLER_SPEC is not the JSON of the settings triggers\n' });
    const noObject = await retire({ object: '', send: 'true' });
    expect(noObject).toMatchObject({ code: 1, stderr: 'error: retire-settings: the settings triggers name no object id\n' });
  });
});

test('an order note older than the wait timeout does not block a new order (e.g. after an emulator reset)', async () => {
  const server = {
    kind: 'cloud-server', path: 'Stack/web2', hostName: 'web2.example.com', provider: CloudProvider.NATIVE, spec: 'micro',
    zone: 'dc_location-uk', periodMonths: 1, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 0.02, // 1.2 s
  };
  // An order that is never listed within the wait: the run fails and its order note stays.
  await emu.control('POST', 'settings', { provisionDelayMs: 3_600_000 });
  const first = await runHandler('ensure', server, env);
  expect(first.code).not.toBe(0);
  expect(first.stderr + first.stdout).toMatch(/web2\.example\.com is still not listed after .*order id \d+ stands/);
  await emu.control('POST', 'reset'); // the order is gone; the journal still has its note
  // Listed as soon as ordered, so that the new order's wait cannot time out on a slow machine.
  await emu.control('POST', 'settings', { provisionDelayMs: 0 });
  await new Promise((r) => setTimeout(r, 1500)); // the note is now older than the 1.2 s wait
  const again = await runHandler('ensure', server, env);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/ordered cloud server web2.example.com/);
  expect(emu.account().cloudServers.map((s) => s.name)).toEqual(['web2.example.com']);
});
