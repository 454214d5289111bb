import { createHash } from 'node:crypto';
import type { EmulatorProfile } from '../../src/emulator';
import { startHarness, Harness } from '../emulator/helpers';

/**
 * WEBMAIL: the one production client of this API that changes a mailbox password (a
 * webmail password driver for resellers of the service; api-notes "Mail", update
 * mailbox). Its request sequence, replayed against the emulator over HTTP in both
 * profiles: read the domain's mail with the package given by its domain name, find
 * the `m…` id by local part, post `{"update": {"m…": {"password": "…"}}}` to the same
 * path. The emulator keeps only a hash of a password, so the change is checked
 * through the hash in its state dump; the password itself appears in no answer, no
 * request log entry and no state dump.
 */

const DOMAIN = 'webmail-driver.example';
const OLD = 'Old-Passw0rd-driver';
const NEW = 'New-Passw0rd-driver';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each<EmulatorProfile>(['default', 'documented'])('the webmail password driver\'s sequence (profile %s)', (profile) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ profile, provisionDelayMs: 0 });
    await h.api.addWeb(DOMAIN);
    const created = await h.api.post(`/package/${DOMAIN}/email/${DOMAIN}`, { new: { mailbox: { local: 'alice', send: 'true', receive: 'true', password: OLD } } });
    expect(created.status).toBe(200);
    await h.api.post(`/package/${DOMAIN}/email/${DOMAIN}`, { new: { mailbox: { local: 'bob', send: 'true', receive: 'true', password: OLD } } });
    await h.api.control('DELETE', 'requests');
  });
  afterAll(() => h?.emu.stop());

  const hashOf = (local: string) => h.emu.snapshot().accounts[0].packages.find((p) => p.name === DOMAIN)!
    .mail.find((d) => d.domain === DOMAIN)!.mailboxes.find((m) => m.local === local)!.passwordSha256;

  it('reads the mail by domain name, finds the m… id by local part, posts the keyed update: the password changes, nothing else', async () => {
    expect(hashOf('alice')).toBe(sha(OLD));
    const path = `/package/${DOMAIN}/email/${DOMAIN}`;
    const read = await h.api.get(path);
    expect(read.status).toBe(200);
    const entry = (read.body.mailbox as Array<{ id: string; local: string }>).find((m) => m.local === 'alice');
    expect(entry?.id).toMatch(/^m[0-9]+$/);

    const update = await h.api.post(path, { update: { [entry!.id]: { password: NEW } } });
    expect(update.status).toBe(200);
    expect(update.body.result).toMatchObject({ name: DOMAIN, result: expect.any(Array) });

    expect(hashOf('alice')).toBe(sha(NEW));
    expect(hashOf('bob')).toBe(sha(OLD));
    const after = (await h.api.get(path)).body.mailbox.find((m: { local: string }) => m.local === 'alice');
    expect(after).toMatchObject({ id: entry!.id, send: true, receive: true });

    const log = (await h.api.control('GET', 'requests')).body as Array<{ method: string; path: string; status: number; tolerated?: string[] }>;
    expect(log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([`GET ${path} 200`, `POST ${path} 200`, `GET ${path} 200`]);
    expect(log.filter((e) => e.tolerated)).toEqual([]);
    expect(JSON.stringify(log)).not.toContain(NEW);
    expect(JSON.stringify(h.emu.snapshot())).not.toContain(NEW);
    expect(JSON.stringify(after)).not.toContain(NEW);
  });

  it('an id the domain does not have is 404 and changes nothing', async () => {
    const res = await h.api.post(`/package/${DOMAIN}/email/${DOMAIN}`, { update: { m999999: { password: 'Other-Passw0rd-1' } } });
    expect(res.status).toBe(404);
    expect(hashOf('alice')).toBe(sha(NEW));
  });
});
