/**
 * Concurrency: handler processes (one per object, as Terraform runs them with
 * -parallelism) writing to the same package at the same moment. The emulator
 * serialises its writes, so none is lost, and the handler's read-back makes racing
 * creates of one object converge on a single object.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handlerEnv, mailOf, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';

const PASSWORD = 'Concurrent-Passw0rd';
let emu: TestEmulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator();
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  env = handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'reliability-concurrency-')), { RESELLER_MAILBOX_PASSWORD: PASSWORD });
  const created = await runHandler('ensure', pkg('busy.example'), env);
  expect(created).toMatchObject({ code: 0 });
  // Every request waits 150 ms in the emulator, so the handlers' requests are in flight together.
  await emu.control('POST', 'faults', { rules: [{ path: '.', latencyMs: 150 }] });
  await emu.control('DELETE', 'requests');
});
afterAll(() => emu?.stop());

const pkg = (domainName: string) => ({
  kind: 'package', path: `Stack/${domainName}`, domainName, extraDomainNames: [], packageType: 'Linux Unlimited', documentRoots: {}, enabled: true,
});
const mailbox = (localPart: string) => ({
  kind: 'mailbox', path: `Stack/${localPart}`, packageDomain: 'busy.example', domain: 'busy.example', localPart, send: true, receive: true, passwordVersion: 1,
});

type LogEntry = { time: string; method: string; path: string; status: number; durationMs: number };
const writes = async () => ((await emu.control('GET', 'requests')) as LogEntry[]).filter((r) => r.method === 'POST');

/** Whether at least two of the requests were being handled by the emulator at the same time. */
function overlapped(entries: LogEntry[]): boolean {
  const spans = entries.map((e) => [Date.parse(e.time), Date.parse(e.time) + e.durationMs]).sort((a, b) => a[0] - b[0]);
  return spans.some((s, i) => i > 0 && s[0] < spans[i - 1][1]);
}

test('10 handlers creating 10 mailboxes on one domain at once all succeed, and all 10 exist', async () => {
  const locals = Array.from({ length: 10 }, (_, i) => `box${i}`);
  const runs = await Promise.all(locals.map((l) => runHandler('ensure', mailbox(l), env)));
  expect(runs.map((r) => `${r.code} ${r.stderr.trim()}`)).toEqual(locals.map(() => '0 '));
  const posts = await writes();
  expect(posts.filter((r) => r.path === '/package/busy.example/email/busy.example').map((r) => r.status)).toEqual(locals.map(() => 200));
  expect(overlapped(posts)).toBe(true); // the writes really were concurrent
  const boxes = mailOf(emu.account(), 'busy.example').mailboxes;
  expect(boxes.map((m) => m.local).sort()).toEqual(locals);
  expect(new Set(boxes.map((m) => m.id)).size).toBe(10);
}, 60_000);

test('10 handlers creating the SAME mailbox at once all succeed, and it exists once', async () => {
  const runs = await Promise.all(Array.from({ length: 10 }, () => runHandler('ensure', mailbox('shared'), env)));
  expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
  expect(mailOf(emu.account(), 'busy.example').mailboxes.map((m) => m.local)).toEqual(['shared']);
  // One create was accepted; every other one was refused as a duplicate, none performed twice.
  const creates = (await writes()).filter((r) => r.path.endsWith('/email/busy.example'));
  expect(creates.filter((r) => r.status === 200)).toHaveLength(1);
  expect(creates.every((r) => r.status === 200 || r.status === 409)).toBe(true);
}, 60_000);

test('10 handlers creating 10 packages at once all succeed, each exactly once', async () => {
  const domains = Array.from({ length: 10 }, (_, i) => `parallel-${i}.example`);
  const runs = await Promise.all(domains.map((d) => runHandler('ensure', pkg(d), env)));
  expect(runs.map((r) => `${r.code} ${r.stderr.trim()}`)).toEqual(domains.map(() => '0 '));
  const names = emu.account().packages.map((p) => p.name);
  expect(names.filter((n) => n !== 'busy.example').sort()).toEqual(domains);
  expect(new Set(emu.account().packages.map((p) => p.id)).size).toBe(names.length);
  expect(overlapped(await writes())).toBe(true);
}, 60_000);
