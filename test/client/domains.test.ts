import {
  BadRequestError, nameserverChangeBody, nameserversOfRead, registrationDateOfRead, renewalConstraintOfRead, ResellerClient,
} from '../../src/client';
import { RunningEmulator, startEmulator } from '../../src/emulator';

/**
 * The domains noun (api-notes "Domain names (registrations)"): against the emulator in
 * both profiles (the documented one answers the nameservers in `{"result": [...]}`, the
 * detail without the list's fields and dates without a time), and the tolerant readers
 * of what the notes leave open.
 */

const KEY = 'domains-client-key';

describe.each(['default', 'documented'] as const)('against the emulator (%s profile)', (profile) => {
  let emu: RunningEmulator;
  let client: ResellerClient;

  beforeAll(async () => {
    emu = await startEmulator({ quiet: true, apiKey: KEY, profile });
    client = new ResellerClient({ baseUrl: emu.url, apiKey: KEY });
  });
  afterAll(async () => {
    client.close();
    await emu.stop();
  });

  it('lists every registration, dates as RFC 3339 UTC whatever form the API sends', async () => {
    const list = await client.domains.list();
    expect(list.map((d) => d.name)).toEqual(['example-studio.com', 'example-blog.com', 'example-registered.net', 'example-moving.org']);
    for (const d of list) expect(d.expiryDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    const blog = list.find((d) => d.name === 'example-blog.com')!;
    expect(Date.parse(blog.expiryDate!) - Date.now()).toBeLessThan(30 * 86_400_000);
    expect(blog).toMatchObject({ id: 400002, hasPrivacy: false, pendingTransfer: false, closeToAnniversary: true, renewalConstraint: null, preferredRenewalMonths: 12 });
    expect(list.find((d) => d.name === 'example-moving.org')).toMatchObject({ pendingTransfer: true, renewalConstraint: expect.stringContaining('transfer') });
  });

  it('reads one registration and its nameservers (either shape), any case; a name the account does not hold is undefined', async () => {
    expect(await client.domains.get('Example-Registered.net')).toEqual({ name: 'example-registered.net', nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'] });
    expect(await client.domains.nameservers('example-registered.net')).toEqual(['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com']);
    expect(await client.domains.get('not-held.example')).toBeUndefined();
    expect(await client.domains.nameservers('not-held.example')).toBeUndefined();
    expect(await client.domains.transferAllowed('not-held.example')).toBeUndefined();
    expect(await client.domains.getZone('not-held.example')).toBeUndefined();
  });

  it('changes the nameservers by a difference, and the registry\'s rules come back as a validation error', async () => {
    await client.domains.changeNameservers('example-blog.com', { add: ['NS1.Example.net.'], remove: ['ns2.stackdns.com'] });
    expect(await client.domains.nameservers('example-blog.com')).toEqual(['ns1.stackdns.com', 'ns1.example.net']);
    await expect(client.domains.changeNameservers('example-blog.com', { add: [], remove: ['ns9.example.net'] })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.domains.changeNameservers('example-blog.com', { add: ['a.example.net'], remove: ['A.example.net'] }))
      .rejects.toThrow('changeDomainNameservers: a.example.net in both add and remove (send only the difference)');
    await client.domains.changeNameservers('example-blog.com', { add: ['ns2.stackdns.com'], remove: ['ns1.example.net'] });
  });

  it('reads and sets the transfer lock (allowed = unlocked)', async () => {
    expect(await client.domains.transferAllowed('example-blog.com')).toBe(true);
    await client.domains.setTransferAllowed('example-blog.com', false);
    expect(await client.domains.transferAllowed('example-blog.com')).toBe(false);
    await client.domains.setTransferAllowed('example-blog.com', true);
  });

  it('reads and writes the registration\'s DNS zone like a package zone (hosts fully qualified, refs)', async () => {
    await client.domains.changeZone('example-registered.net', { add: [{ type: 'TXT', host: '_acme-challenge', value: 'token-1' }] });
    const zone = await client.domains.getZone('example-registered.net');
    const added = zone!.records.find((r) => r.type === 'TXT');
    expect(added).toMatchObject({ host: '_acme-challenge.example-registered.net', value: 'token-1', ref: expect.any(Number) });
    await client.domains.changeZone('example-registered.net', { delete: [added!.ref!] });
    expect((await client.domains.getZone('example-registered.net'))!.records.some((r) => r.type === 'TXT')).toBe(false);
  });
});

describe('tolerant readers (assumptions.ts)', () => {
  it('nameserversOfRead: a bare list or {"result": [...]}, names lowercase without a trailing dot; anything else is a shape error', () => {
    expect(nameserversOfRead(['NS1.Example.com.', 'ns2.example.com'], '')).toEqual(['ns1.example.com', 'ns2.example.com']);
    expect(nameserversOfRead({ result: ['ns1.example.com'] }, '')).toEqual(['ns1.example.com']);
    expect(() => nameserversOfRead({ nameservers: [] }, '')).toThrow(/expected result to be an array, got nothing/);
    expect(() => nameserversOfRead([1], '')).toThrow(/expected \[0\] to be a string/);
  });

  it('registrationDateOfRead: dates with or without a time and offset become RFC 3339 UTC; anything else is null', () => {
    expect(registrationDateOfRead('2026-03-01')).toBe('2026-03-01T00:00:00Z');
    expect(registrationDateOfRead('2026-03-01T10:20:30+02:00')).toBe('2026-03-01T08:20:30Z');
    expect(registrationDateOfRead('2026-03-01 10:20:30')).toBe('2026-03-01T10:20:30Z');
    expect(registrationDateOfRead('2026-03-01T10:20+0100')).toBe('2026-03-01T09:20:00Z');
    expect(registrationDateOfRead('2026-03-01T10:20:30.123Z')).toBe('2026-03-01T10:20:30Z');
    for (const odd of ['01/03/2026', '', 'soon', 20260301, null, undefined, '2026-02-31x']) expect(registrationDateOfRead(odd)).toBeNull();
  });

  it('renewalConstraintOfRead: text as it is, null for none, other JSON as its text', () => {
    expect(renewalConstraintOfRead('min 2 years')).toBe('min 2 years');
    expect(renewalConstraintOfRead(null)).toBeNull();
    expect(renewalConstraintOfRead(undefined)).toBeNull();
    expect(renewalConstraintOfRead({ minYears: 2 })).toBe('{"minYears":2}');
  });

  it('nameserverChangeBody: both members always, the difference only', () => {
    expect(nameserverChangeBody(['ns1.new.example'], [])).toEqual({ ns: ['ns1.new.example'], 'old-ns': [] });
    expect(nameserverChangeBody([], ['ns1.old.example'])).toEqual({ ns: [], 'old-ns': ['ns1.old.example'] });
  });
});
