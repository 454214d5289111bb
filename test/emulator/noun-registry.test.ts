import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../src/emulator';
import type { Package } from '../../src/emulator/backend/model';
import { freshState } from '../../src/emulator/fixtures';
import { addPackageMembers, apiNouns, registerApiNoun, stateVersion } from '../../src/emulator/nouns';
import { notes } from './notes-noun';
import { Api, startHarness } from './helpers';

/**
 * The registry of API nouns (src/emulator/nouns): a noun written outside src/emulator
 * and registered with one line takes part in everything a built-in noun does, through
 * the registry alone. The noun is test-only (./notes-noun.ts); registering it here
 * affects this file's emulators only (each test file loads its own modules).
 */

registerApiNoun(notes);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-noun-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function packageWithNote(api: Api): Promise<number> {
  const pkg = await api.addWeb('notes.example', { extra_domain_names: ['notes.example.org'] });
  const res = await api.post(`/package/${pkg}/notes`, { new: { domain: 'notes.example', text: 'renew <soon>', pinned: true } });
  expect(res).toMatchObject({ status: 200, body: { result: { id: 'n1' } } });
  return pkg;
}

it('is registered after the built-in nouns and raises the state version (its since)', () => {
  expect(apiNouns().map((n) => n.name)).toEqual(['packages', 'mail', 'dns', 'cloud', 'users', 'web', 'domains', 'notes']);
  expect(stateVersion()).toBe(4);
});

it('answers on the API like a built-in noun: key, routes, validation, a failed write undone', async () => {
  const { emu, api } = await startHarness();
  const pkg = await packageWithNote(api);
  expect((await api.get(`/package/${pkg}/notes`)).body).toEqual([{ id: 'n1', domain: 'notes.example', text: 'renew <soon>', pinned: true }]);
  expect((await api.get(`/package/${pkg}/notes`, { key: null })).status).toBe(401);
  expect((await api.get('/package/424242/notes')).status).toBe(404);
  expect((await api.as('other-key').get(`/package/${pkg}/notes`)).status).toBe(401);
  // The delete happens, then the add fails: the whole request is undone.
  const failed = await api.post(`/package/${pkg}/notes`, { delete: ['n1'], new: { domain: 'notes.example', text: '' } });
  expect(failed.status).toBe(400);
  expect(failed.body.error.message).toBe('new.text must not be empty');
  expect((await api.get(`/package/${pkg}/notes`)).body).toHaveLength(1);
  await emu.stop();
});

it("the documented profile leaves out the noun's assumed member", async () => {
  const { emu, api } = await startHarness({ profile: 'documented' });
  const pkg = await packageWithNote(api);
  expect((await api.get(`/package/${pkg}/notes`)).body).toEqual([{ id: 'n1', domain: 'notes.example', text: 'renew <soon>' }]);
  await emu.stop();
});

it('is in the state dump, on the page (escaped) and in the account list', async () => {
  const { emu, api } = await startHarness();
  await packageWithNote(api);
  expect(emu.snapshot().accounts[0].packages[0].notes).toEqual([{ id: 'n1', domain: 'notes.example', text: 'renew <soon>', pinned: true }]);
  const page = await (await fetch(`${emu.url}/accounts/989900`)).text();
  expect(page).toContain('<div><dt>Notes</dt><dd>1</dd></div>');
  expect(page).toContain('<h2 id="notes-heading">Notes</h2>');
  expect(page).toContain('<td>renew &lt;soon&gt;</td>');
  expect(page.indexOf('id="users-heading"')).toBeLessThan(page.indexOf('id="notes-heading"')); // registration order
  await api.control('POST', 'accounts', { id: 555000, apiKey: 'second-key' });
  const list = await (await fetch(`${emu.url}/`)).text();
  expect(list).toContain('<th scope="col">Cloud servers</th><th scope="col">Notes</th><th scope="col">Brand</th>');
  await emu.stop();
});

it('follows the events of another noun: a removed name takes its notes, a deleted package all of them', async () => {
  const { emu, api } = await startHarness();
  const pkg = await packageWithNote(api);
  await api.post(`/package/${pkg}/notes`, { new: { domain: 'notes.example.org', text: 'org' } });
  await api.post(`/package/${pkg}/names`, { rem: ['notes.example.org'] });
  expect((await api.get(`/package/${pkg}/notes`)).body.map((n: { text: string }) => n.text)).toEqual(['renew <soon>']);
  await api.post('/reseller/*/deleteWeb', { 'delete-id': [pkg] });
  expect(emu.snapshot().accounts[0].packages).toEqual([]);
  await emu.stop();
});

it('has its control-API extra', async () => {
  const { emu, api } = await startHarness();
  const pkg = await api.addWeb('ctl.example');
  expect((await api.control('POST', 'notes', { package: 'ctl.example', domain: 'ctl.example', text: 'from the panel' })).body).toEqual({ ok: true, id: 'n1' });
  expect((await api.control('POST', 'notes', { package: 'ctl.example', domain: 'other.example', text: 'x' })).status).toBe(404);
  expect((await api.get(`/package/${pkg}/notes`)).body).toEqual([{ id: 'n1', domain: 'ctl.example', text: 'from the panel', pinned: true }]);
  await emu.stop();
});

describe('the data file', () => {
  it('keeps the noun across a restart, its counter too', async () => {
    const file = path.join(dir, 'state.json');
    const first = await startHarness({ dataFile: file });
    const pkg = await packageWithNote(first.api);
    const before = first.emu.snapshot();
    await first.emu.stop();
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')).state;
    expect(saved.version).toBe(4);
    expect(saved.counters.noteId).toBe(2);
    const second = await startHarness({ dataFile: file });
    expect({ ...second.emu.snapshot(), now: '' }).toEqual({ ...before, now: '' });
    expect((await second.api.post(`/package/${pkg}/notes`, { new: { domain: 'notes.example', text: 'next' } })).body.result).toEqual({ id: 'n2' });
    await second.emu.stop();
  });

  it('upgrades a file written before the noun existed (version 3): every package gets fresh members', async () => {
    const file = path.join(dir, 'state.json');
    const first = await startHarness({ dataFile: file });
    await first.api.addWeb('old.example');
    await first.emu.stop();
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.state.version = 3;
    delete doc.state.counters.noteId;
    for (const p of doc.state.accounts[0].packages) delete p.notes;
    fs.writeFileSync(file, JSON.stringify(doc));

    const second = await startHarness({ dataFile: file });
    expect(second.emu.snapshot().accounts[0].packages[0]).toMatchObject({ name: 'old.example', notes: [], dns: [{ apex: 'old.example' }] });
    expect((await second.api.post('/package/old.example/notes', { new: { domain: 'old.example', text: 'first' } })).body.result).toEqual({ id: 'n1' });
    await second.emu.stop();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).state.version).toBe(4);
  });

  it('refuses a file of the current version whose noun members are missing or malformed, naming the member', async () => {
    const file = path.join(dir, 'state.json');
    const first = await startHarness({ dataFile: file });
    await first.api.addWeb('bad.example');
    await first.emu.stop();
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.state.accounts[0].packages[0].notes = [{ id: 'n1' }];
    fs.writeFileSync(file, JSON.stringify(doc));
    await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/corrupt: account #0 package #0 has a missing or malformed "notes"/);
    delete doc.state.accounts[0].packages[0].notes;
    fs.writeFileSync(file, JSON.stringify(doc));
    await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/malformed "notes"/);
    delete doc.state.counters.noteId;
    fs.writeFileSync(file, JSON.stringify(doc));
    await expect(startEmulator({ dataFile: file, quiet: true })).rejects.toThrow(/bad "counters"/);
  });
});

describe('registering', () => {
  it('refuses a second noun of the same name, or one that claims a member or counter another noun owns', () => {
    expect(() => registerApiNoun(notes)).toThrow('API noun "notes" is registered already');
    expect(() => registerApiNoun({ name: 'mail2', package: { check: { mailboxes: () => true } } })).toThrow('package member "mailboxes" belongs to mail');
    expect(() => registerApiNoun({ name: 'ids', counters: { dnsRef: 1 } })).toThrow('counter "dnsRef" belongs to dns');
    expect(() => registerApiNoun({ name: 'core', account: { check: { balanceCents: () => true } } })).toThrow('account member "balanceCents" belongs to the core');
    expect(() => registerApiNoun({ name: 'late', since: 9, account: { check: { late: () => true } } })).toThrow(/need fresh\(\)/);
    expect(apiNouns().map((n) => n.name)).toEqual(['packages', 'mail', 'dns', 'cloud', 'users', 'web', 'domains', 'notes']);
  });
});

it('an upgrade adds only the members a parent lacks: a noun that grows a member keeps the others', () => {
  // As when mail gains autoresponders: a file of the version before has mailboxes but no new member.
  const state = freshState('0'.repeat(64));
  const account = state.accounts[0];
  const pkg = { id: 1, names: ['grow.example'], mailboxes: [{ id: 7 }], zones: [{ apex: 'grow.example', records: [] }] } as unknown as Package;
  const refs = state.counters.dnsRef;
  addPackageMembers({ state, account, pkg }, apiNouns().filter((n) => n.name === 'mail' || n.name === 'dns'));
  expect(pkg.mailboxes).toEqual([{ id: 7 }]);
  expect(pkg.forwarders).toEqual([]);
  expect(pkg.zones).toEqual([{ apex: 'grow.example', records: [] }]);
  expect(state.counters.dnsRef).toBe(refs); // DNS had all its members: not asked, no ref drawn
});

describe('the core names no noun', () => {
  const EMULATOR = path.join(__dirname, '../../src/emulator');
  const coreFiles = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'nouns' && dir === EMULATOR ? [] : coreFiles(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
  const code = (file: string) => fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

  it('imports from the nouns only the registry (and, in index.ts, the public dump types)', () => {
    const crossings = coreFiles(EMULATOR).flatMap((file) => [...code(file).matchAll(/^(import|export)\b([^;]*?)from '([^']+)'/gm)]
      .filter((m) => path.resolve(path.dirname(file), m[3]).startsWith(path.join(EMULATOR, 'nouns', '')))
      .filter((m) => !/^(\.\.?\/)+nouns(\/registry)?$/.test(m[3]))
      .filter((m) => !(path.basename(file) === 'index.ts' && path.dirname(file) === EMULATOR && m[1] === 'export' && /^ type /.test(m[2])))
      .map((m) => `${path.relative(EMULATOR, file)}: ${m[0]}`));
    expect(crossings).toEqual([]);
    expect(coreFiles(EMULATOR).map((f) => path.relative(EMULATOR, f))).toContain('snapshot.ts'); // the walk sees the core
  });

  it("the public index loads every noun's declarations, so library users see its members of the dump types", () => {
    const index = fs.readFileSync(path.join(EMULATOR, 'index.ts'), 'utf8');
    const folders = fs.readdirSync(path.join(EMULATOR, 'nouns'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.sort()).toEqual(apiNouns().filter((n) => n !== notes).map((n) => n.name).sort());
    expect(folders.filter((folder) => !new RegExp(`^export type .* from './nouns/${folder}/`, 'm').test(index))).toEqual([]);
  });

  it("reads no member or counter a noun owns (they are the nouns' own business)", () => {
    const owned = apiNouns().filter((n) => n !== notes).flatMap((n) => [
      ...Object.keys(n.counters ?? {}), ...Object.keys(n.account?.check ?? {}), ...Object.keys(n.package?.check ?? {}),
    ]);
    expect(owned).toEqual(expect.arrayContaining(['users', 'packageTypes', 'cloudServers', 'mailboxes', 'zones', 'dnsRef', 'typeId']));
    // Reads through the names the core gives accounts, packages and counters.
    const member = new RegExp(`\\b(account|a|pkg|p|counters)\\??\\.(${owned.join('|')})\\b`);
    const reads = coreFiles(EMULATOR).flatMap((file) => code(file).split('\n')
      .filter((line) => member.test(line))
      .map((line) => `${path.relative(EMULATOR, file)}: ${line.trim()}`));
    expect(reads).toEqual([]);
    expect(member.test('const n = account.cloudServers.length;')).toBe(true); // the check would see one
  });
});
