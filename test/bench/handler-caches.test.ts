import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountScope } from '../../src/reconcile';
import { Journal } from '../../src/handler/journal';
import { API_KEY, handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';

/**
 * The caches and short cuts that keep the API traffic per object flat (see
 * BENCHMARKS.md): the per-apply list caches are verified (a stale entry costs a request,
 * never a wrong or a skipped write), a list is read once even by parallel handlers, and
 * the look-up skipped for mail on a package this apply created is made as soon as the
 * API refuses the create.
 */
let emu: TestEmulator;
let journalDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 50 });
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  journalDir = mkdtempSync(join(tmpdir(), 'journal-caches-'));
  env = handlerEnv(emu.url, journalDir, { RESELLER_MAILBOX_PASSWORD: 'Cache-Passw0rd!' });
  await emu.control('DELETE', 'requests');
});
afterAll(() => emu?.stop());

const pkg = (domainName: string, over: Record<string, unknown> = {}) => ({
  kind: 'package', path: `Stack/${domainName}`, domainName, extraDomainNames: [], packageType: 'Linux Unlimited',
  label: 'Site', documentRoots: {}, enabled: true, stackUser: { email: 'owner@example.com' }, ...over,
});
const mailbox = (domain: string, localPart = 'info', over: Record<string, unknown> = {}) => ({
  kind: 'mailbox', path: `Stack/${localPart}`, packageDomain: domain, domain, localPart, send: true, receive: true, passwordVersion: 1, ...over,
});
type Entry = { method: string; path: string; status: number };
const requests = async () => (await emu.control('GET', 'requests')) as Entry[];
const api = (method: string, path: string, body?: unknown) =>
  fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${Buffer.from(API_KEY).toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** What a handler started by this process (its parent) writes into the journal as a list cache. */
function poisonCache(list: 'package-types' | 'user-directory', value: unknown): void {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  const scope = `${process.pid}@${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  new Journal(journalDir).write(`${list}:${accountScope(emu.url, '*', API_KEY)}:${scope}`, value);
}

const linux = process.platform === 'linux' ? test : test.skip;

test('parallel handlers read each list once per apply', async () => {
  const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => runHandler('ensure', pkg(`par-${i}.example`), env)));
  expect(runs.map((r) => `${r.code}${r.stderr}`)).toEqual(Array(6).fill('0'));
  const log = await requests();
  expect(log.filter((r) => r.path.endsWith('/packageTypes'))).toHaveLength(1);
  expect(log.filter((r) => r.path.endsWith('/susers'))).toHaveLength(1);
  expect(emu.account().packages.every((p) => p.typeRef === 811 && p.stackUsers.includes('stack-user:989901'))).toBe(true);
}, 60_000);

linux('a stale package type id in the cache is refused by the API, resolved afresh, and the create made again', async () => {
  poisonCache('package-types', [{ id: 899, label: 'Linux Unlimited', platform: 'linux' }]);
  const run = await runHandler('ensure', pkg('stale-type.example'), env);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/resolved it afresh, writing again/);
  expect(emu.account().packages.find((p) => p.name === 'stale-type.example')).toMatchObject({ typeRef: 811 });
  const creates = (await requests()).filter((r) => r.path.endsWith('/addWeb'));
  expect(creates.map((r) => r.status)).toEqual([400, 200]);
});

linux('a stale owner in the cache is refused by the API, resolved afresh, and the create made again', async () => {
  poisonCache('user-directory', { 'stack-user:424242': 'owner@example.com' });
  const run = await runHandler('ensure', pkg('stale-user.example'), env);
  expect(run.code).toBe(0);
  expect(emu.account().packages.find((p) => p.name === 'stale-user.example')!.stackUsers).toEqual(['stack-user:989901']);
});

linux('a stale owner in the cache cannot cause a write: owners are resolved afresh before one', async () => {
  expect((await runHandler('ensure', pkg('owned.example'), env)).code).toBe(0);
  // The cache now (wrongly) says the e-mail belongs to another existing user.
  poisonCache('user-directory', { 'stack-user:989902': 'owner@example.com', 'stack-user:989901': 'someone@example.com' });
  await emu.control('DELETE', 'requests');
  const run = await runHandler('ensure', pkg('owned.example'), env);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(/adopted package owned.example \(id \d+\)\n$/); // nothing updated
  expect((await requests()).filter((r) => r.method === 'POST')).toEqual([]);
  expect(emu.account().packages.find((p) => p.name === 'owned.example')!.stackUsers).toEqual(['stack-user:989901']);
});

linux('a name missing from the cached lists is looked up again before it is reported unknown', async () => {
  poisonCache('package-types', [{ id: 812, label: 'Linux Starter', platform: 'linux' }]);
  poisonCache('user-directory', {});
  const run = await runHandler('ensure', pkg('refresh.example'), env);
  expect(run.code).toBe(0);
  expect(emu.account().packages.find((p) => p.name === 'refresh.example')).toMatchObject({ typeRef: 811, stackUsers: ['stack-user:989901'] });
});

test('a mailbox on a package created by this apply is created without a look-up: one POST and one read', async () => {
  expect((await runHandler('ensure', pkg('fresh.example'), env)).code).toBe(0);
  await emu.control('DELETE', 'requests');
  const run = await runHandler('ensure', mailbox('fresh.example'), env);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(/created mailbox info@fresh.example/);
  expect((await requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'GET 200']);
});

test('...and if it exists after all, the refused duplicate is looked up and adopted, then given the declared password', async () => {
  expect((await runHandler('ensure', pkg('raced.example'), env)).code).toBe(0);
  const made = await api('POST', '/package/raced.example/email/raced.example', {
    new: { mailbox: { local: 'info', send: 'false', receive: 'true', password: 'Someone-Elses-1' } },
  });
  expect(made.status).toBe(200);
  const before = mailOf(emu.account(), 'raced.example').mailboxes[0];
  const run = await runHandler('ensure', mailbox('raced.example'), { ...env, RESELLER_OBJECT_ID: 'object-raced' });
  expect(run.code).toBe(0);
  // The first ensure of this object adopts it: settings updated, the declared password set.
  expect(run.stdout).toMatch(/adopted mailbox info@raced.example; updated send false -> true; set its password \(version 1\)/);
  const boxes = mailOf(emu.account(), 'raced.example').mailboxes;
  expect(boxes.map((b) => b.id)).toEqual([before.id]);
  expect(boxes[0].passwordSha256).not.toBe(before.passwordSha256);
});

test('...and a mail domain that is not on the package is reported as before', async () => {
  expect((await runHandler('ensure', pkg('nodomain.example'), env)).code).toBe(0);
  const run = await runHandler('ensure', { ...mailbox('nodomain.example'), domain: 'other.example' }, env);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/package nodomain.example or its domain other.example does not exist in the account/);
});
