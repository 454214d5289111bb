import { ResellerClient } from '../../src/client';
import { CloudProvider, definitionOf, identityOf, ObjectSpec, PackageSpec } from '../../src/protocol';
import { createContext, diff, ensure, observe, remove, ReconcileContext } from '../../src/reconcile';
import { API_KEY, mailOf, startTestEmulator, TestEmulator } from '../helpers/emulator';

/**
 * The core's entry as an adapter (the provider) uses it, over real HTTP against the
 * emulator: observe reads back by natural key with one list request per kind, diff
 * compares semantically, ensure creates/adopts and returns the confirmed object,
 * remove is idempotent.
 */
let emu: TestEmulator;
let client: ResellerClient;
let lines: string[];
let ctx: ReconcileContext;

beforeAll(async () => {
  emu = await startTestEmulator({ provisionDelayMs: 50 });
});
beforeEach(async () => {
  await emu.control('POST', 'reset');
  client = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY });
  lines = [];
  ctx = createContext({
    client, info: (l) => lines.push(l), warn: (l) => lines.push(l), secret: 'Entry-Passw0rd!',
    timing: { pollIntervalMs: 50 }, history: {},
  });
});
afterEach(() => client.close());
afterAll(() => emu?.stop());

const site: PackageSpec = {
  kind: 'package', path: 'Stack/site', domainName: 'entry.example.com', extraDomainNames: ['entry.example.net'],
  packageType: 'linux unlimited', label: 'Entry', documentRoots: {}, enabled: true, stackUser: { email: 'OWNER@example.com' },
};
const info: ObjectSpec = {
  kind: 'mailbox', path: 'Stack/info', packageDomain: 'entry.example.com', domain: 'entry.example.com', localPart: 'info', send: true, receive: false,
};
const user: ObjectSpec = { kind: 'stack-user', path: 'Stack/owner2', email: 'Second.Owner@Example.com', personName: 'Second Owner' };

async function requests(): Promise<Array<{ method: string; path: string }>> {
  return (await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>;
}

test('ensure creates, returns the confirmed object, and diff of the declared form is empty', async () => {
  const owner = Object.entries(emu.account().users).length;
  expect(owner).toBeGreaterThan(0);
  const pkg = await ensure(ctx, site);
  expect(pkg.fields).toMatchObject({ domainName: 'entry.example.com', extraDomainNames: ['entry.example.net'], label: 'Entry', enabled: true });
  expect(pkg.computed.packageId).toEqual(expect.any(Number));
  expect(pkg.unverifiable).toContain('documentRoots');
  // Type by name (any case) vs id, owner by e-mail vs ref: equal, so no diff.
  expect(await diff(ctx, site, pkg)).toEqual([]);
  const box = await ensure(ctx, info);
  expect(box.fields).toMatchObject({ localPart: 'info', send: true, receive: false });
  expect(box.unverifiable).toEqual(expect.arrayContaining(['password', 'passwordVersion']));
  expect(mailOf(emu.account(), 'entry.example.com').mailboxes.map((m) => m.local)).toEqual(['info']);
});

test('observe reads N objects with one list request per kind, and is undefined for a missing object', async () => {
  await ensure(ctx, site);
  await ensure(ctx, info);
  await emu.control('DELETE', 'requests');
  const reader = createContext({ client });
  const ids = [identityOf(site), identityOf(info), { kind: 'package' as const, key: 'nothing.example.com', placement: '', parent: '' },
    { kind: 'mailbox' as const, key: 'sales@entry.example.com', placement: 'entry.example.com', parent: '' }];
  const seen = await Promise.all(ids.map((id) => observe(reader, id)));
  expect(seen.map((o) => o !== undefined)).toEqual([true, true, false, false]);
  await observe(reader, identityOf(site));
  const paths = (await requests()).map((r) => `${r.method} ${r.path.split('?')[0]}`);
  expect(paths.filter((p) => p.endsWith('/package'))).toHaveLength(1);
  expect(paths.filter((p) => p.includes('/email/'))).toHaveLength(1);
});

test('diff shows a change made in the control panel; ensure writes it back', async () => {
  const created = await ensure(ctx, site);
  await client.packages.setLabel(Number(created.computed.packageId), 'Changed in the panel');
  const reader = createContext({ client });
  const live = await observe(reader, identityOf(site));
  expect(await diff(reader, site, live!)).toEqual([{ field: 'label', declared: 'Entry', live: 'Changed in the panel' }]);
  const fixed = await ensure(ctx, site);
  expect(fixed.fields.label).toBe('Entry');
});

test('stack user: created, adopted by e-mail in any case, observed, removed idempotently; import ids parse', async () => {
  const created = await ensure(ctx, user);
  expect(created.computed.userRef).toMatch(/^stack-user:[0-9]+$/);
  expect(created.fields).toMatchObject({ email: 'Second.Owner@example.com', personName: 'Second Owner' });
  const again = await ensure(ctx, { ...user, email: 'second.owner@EXAMPLE.com' });
  expect(again.computed.userRef).toBe(created.computed.userRef);
  expect(lines.some((l) => l.startsWith('adopted stack user'))).toBe(true);
  const byRef = definitionOf('stack-user').parseImportId(String(created.computed.userRef));
  expect(typeof byRef).toBe('object');
  expect((await observe(ctx, byRef as never))?.fields.email).toBe('Second.Owner@example.com');
  await remove(ctx, identityOf(user));
  expect(await observe(createContext({ client }), identityOf(user))).toBeUndefined();
  await remove(ctx, identityOf(user));
  expect(lines[lines.length - 1]).toMatch(/already absent/);
});

test('checks name the path, the field and the rule, for token values resolved at apply time too', () => {
  const { problems } = definitionOf('package').check({ ...site, label: 'x'.repeat(300) }, 'reseller_package.site');
  expect(problems.map((p) => p.message)).toEqual(['reseller_package.site: label is 300 characters long; at most 255 are allowed']);
  const onServer = definitionOf('package').check({ ...site, packageType: undefined, cloudServer: 'web1.example.com' });
  expect(onServer.problems).toEqual([]);
  const onAccount = definitionOf('package').check({ ...site, packageType: undefined });
  expect(onAccount.problems.map((p) => p.field)).toEqual(['packageType']);
  const server = definitionOf('cloud-server');
  expect(server.fields.find((f) => f.name === 'hostName')).toMatchObject({ attribute: 'host_name', role: 'identity' });
  expect(definitionOf('mailbox').fields.find((f) => f.role === 'write-only')?.attribute).toBe('password_wo');
  expect(server.check({ kind: 'cloud-server', path: 'p', hostName: 'Web1.Example.com', provider: CloudProvider.NATIVE, spec: 'medium',
    zone: 'dc_location-uk', periodMonths: 1, forUser: 'stack-user:989901', branded: false, timeoutMinutes: 30 }).spec.hostName).toBe('web1.example.com');
});
