import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../src/emulator';
import { DataFile, checkState } from '../../src/emulator/persistence';
import { freshState } from '../../src/emulator/fixtures';
import { stateVersion } from '../../src/emulator/nouns';
import { Api, cloudOrder, KEY, startHarness } from './helpers';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-data-'));
  file = path.join(dir, 'state.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Fills an emulator with one object of every kind, across two accounts. */
async function populate(api: Api): Promise<void> {
  const pkg = await api.addWeb('persist.example', { extra_domain_names: ['www.persist.example'], label: 'P', stackUser: 'stack-user:989901', documentRoots: { 'www.persist.example': 'www' } });
  await api.post(`/package/${pkg}/email/persist.example`, { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'mailbox-secret-1' } } });
  await api.post(`/package/${pkg}/email/persist.example`, { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
  await api.post(`/package/${pkg}/userStatus`, { subservices: { default: false } });
  const dns = { conflictPolicy: 'reject', insertPolicy: 'append', new: { A: [], AAAA: [], CNAME: [], MX: [], TXT: [{ host: '@', txt: 'kept' }], SRV: [] }, delete: [] };
  await api.post(`/package/${pkg}/dns/persist.example`, dns);
  await api.post('/reseller/*/susers', { newUser: { email: 'extra@example.net', person_name: 'Ex Tra' } });
  await api.post('/reseller/*/addCloudServer', cloudOrder({}, { resellerCloudBranded: true }));
  await api.control('POST', 'brand', { name: 'Brand', logoUrl: 'https://brand.example/l.png' });
  await api.control('POST', 'accounts', { id: 777000, apiKey: 'other-account-key', balance: 12.5 });
  await api.as('other-account-key').addWeb('other.example');
}

it('keeps the whole state across a restart, and no key or password is in the file', async () => {
  const first = await startHarness({ dataFile: file, provisionDelayMs: 0 });
  await populate(first.api);
  const before = first.emu.snapshot();
  await first.emu.stop();

  const text = fs.readFileSync(file, 'utf8');
  for (const secret of [KEY, 'other-account-key', 'mailbox-secret-1', Buffer.from(KEY).toString('base64')]) {
    expect(text).not.toContain(secret);
  }
  expect(fs.readdirSync(dir)).toEqual(['state.json']); // no temp or lock file left behind

  const second = await startHarness({ dataFile: file, provisionDelayMs: 0 });
  const after = second.emu.snapshot();
  expect({ ...after, now: '' }).toEqual({ ...before, now: '' });
  // Both keys still work, and ids continue from where they were.
  expect((await second.api.get('/package')).body).toHaveLength(1);
  expect((await second.api.as('other-account-key').get('/package')).body[0].name).toBe('other.example');
  expect(await second.api.addWeb('next.example')).toBe(1000003);
  await second.emu.stop();
});

it('upgrades a data file of version 1 (before DNS): every package gets its zones, refs from a fresh counter', async () => {
  const first = await startHarness({ dataFile: file });
  await first.api.addWeb('old.example', { extra_domain_names: ['old.example.org'] });
  await first.emu.stop();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  doc.state.version = 1;
  delete doc.state.counters.dnsRef;
  for (const p of doc.state.accounts[0].packages) delete p.zones;
  // Nor the registered domains that came later (their zones draw refs from the same counter).
  delete doc.state.counters.domainId;
  for (const a of doc.state.accounts) delete a.domains;
  fs.writeFileSync(file, JSON.stringify(doc));

  const second = await startHarness({ dataFile: file });
  const zones = second.emu.snapshot().accounts[0].packages[0].dns;
  expect(zones.map((z) => z.apex)).toEqual(['old.example', 'old.example.org']);
  expect(zones[0].records.map((r) => r.type)).toEqual(['SOA', 'NS', 'NS', 'NS', 'NS', 'A', 'A', 'MX']);
  await second.api.addWeb('new.example');
  const account = second.emu.snapshot().accounts[0];
  const refs = [...account.packages.flatMap((p) => p.dns), ...account.domains.map((d) => d.dnsZone)].flatMap((z) => z.records.map((r) => r.ref)).filter((r) => r !== null);
  expect(new Set(refs).size).toBe(refs.length);
  await second.emu.stop();
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).state.version).toBe(stateVersion());
});

it('upgrades a data file of version 2 (before the web settings): every account and package gets the defaults', async () => {
  const first = await startHarness({ dataFile: file });
  await first.api.addWeb('old.example');
  await first.emu.stop();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  doc.state.version = 2;
  delete doc.state.counters.certificateId;
  delete doc.state.accounts[0].certificateDelayMs;
  for (const p of doc.state.accounts[0].packages) delete p.web;
  fs.writeFileSync(file, JSON.stringify(doc));

  const second = await startHarness({ dataFile: file });
  expect(second.emu.snapshot().accounts[0]).toMatchObject({ certificateDelayMs: 0, packages: [{ web: { forceHttps: false, phpVersion: 'php81', certificates: [], waitingForDns: [] } }] });
  expect((await second.api.post('/package/old.example/web/freeSSL', { name: 'old.example' })).status).toBe(200);
  expect((await second.api.post('/package/old.example/web/forceSSL', { value: true })).status).toBe(200);
  await second.emu.stop();
  const third = await startHarness({ dataFile: file });
  expect(third.emu.snapshot().accounts[0].packages[0].web).toMatchObject({ forceHttps: true, certificates: [{ commonName: 'old.example', state: 'issued' }] });
  await third.emu.stop();
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).state.version).toBe(stateVersion());
});

it('upgrades a data file of version 2 (before autoresponders): every package gets an empty responder list, its mail kept', async () => {
  const first = await startHarness({ dataFile: file });
  const pkg = await first.api.addWeb('v2.example');
  await first.api.post(`/package/${pkg}/email/v2.example`, { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
  await first.emu.stop();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  doc.state.version = 2;
  for (const p of doc.state.accounts[0].packages) delete p.responders;
  fs.writeFileSync(file, JSON.stringify(doc));

  const second = await startHarness({ dataFile: file });
  expect(second.emu.snapshot().accounts[0].packages[0].mail).toEqual([
    { domain: 'v2.example', mailboxes: [], forwarders: [expect.objectContaining({ local: 'sales' })], responders: [] },
  ]);
  expect((await second.api.get(`/package/${pkg}/email/v2.example`)).body.responder).toEqual([]);
  await second.emu.stop();
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).state.version).toBe(stateVersion());
});

it('saves every write before answering it', async () => {
  const { emu, api } = await startHarness({ dataFile: file });
  await api.addWeb('now.example');
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(saved.state.accounts[0].packages[0].names).toEqual(['now.example']);
  await api.control('POST', 'reset');
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).state.accounts[0].packages).toEqual([]);
  await emu.stop();
});

it('does not save a failed write, and the file stays valid', async () => {
  const { emu, api } = await startHarness({ dataFile: file });
  await api.addWeb('one.example');
  const before = fs.readFileSync(file, 'utf8');
  expect((await api.post('/reseller/*/addWeb', { type: '811', domain_name: 'one.example' })).status).toBe(409);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).state).toEqual(JSON.parse(before).state);
  await emu.stop();
});

it('a restart with another configured key moves the default account to it', async () => {
  const first = await startHarness({ dataFile: file });
  await first.api.addWeb('k.example');
  await first.emu.stop();
  const second = await startHarness({ dataFile: file, apiKey: 'rotated-key' });
  expect((await second.api.get('/package')).body).toHaveLength(1);
  expect((await second.api.as(KEY).get('/package')).status).toBe(401);
  await second.emu.stop();
});

it('refuses to start on a corrupt or foreign data file (no silent reset)', async () => {
  fs.writeFileSync(file, '{"format": "cdktf-reseller-hosting/emulator-state", "state": {');
  await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/corrupt/);
  fs.writeFileSync(file, JSON.stringify({ hello: 'world' }));
  await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/not an emulator data file/);
  fs.writeFileSync(file, JSON.stringify({ format: 'cdktf-reseller-hosting/emulator-state', state: { version: 1, accounts: 'x' } }));
  await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/corrupt/);
  expect(fs.readFileSync(file, 'utf8')).toContain('"accounts":"x"'); // untouched
  expect(fs.existsSync(`${file}.lock`)).toBe(false);
});

it('refuses a data file in use by a running emulator, and takes over a stale lock', async () => {
  const first = await startHarness({ dataFile: file });
  await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/in use by process/);
  await first.emu.stop();
  fs.writeFileSync(`${file}.lock`, '999999999\n'); // a dead process
  const second = await startHarness({ dataFile: file });
  await second.emu.stop();
});

it('writes atomically: the saved file is always complete JSON', () => {
  const df = new DataFile(file);
  const state = freshState('0'.repeat(64));
  for (let i = 0; i < 20; i++) {
    state.counters.packageId = i;
    df.save(state);
    const loaded = df.load();
    expect(loaded?.counters.packageId).toBe(i);
    expect(checkState(loaded)).toBeUndefined();
  }
  expect(fs.readdirSync(dir)).toEqual(['state.json']);
});
