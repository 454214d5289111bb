import { createHash } from 'node:crypto';
import { Api, Harness, startHarness } from './helpers';

let h: Harness;
let api: Api;
let pkg: number;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  h = await startHarness();
  api = h.api;
});
afterAll(() => h.emu.stop());
beforeEach(async () => {
  await api.control('POST', 'reset');
  pkg = await api.addWeb('mail.example', { extra_domain_names: ['alias.example'] });
});

const mailbox = (over: Record<string, unknown> = {}) => ({
  new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'correct horse', ...over } },
});
const mailPath = (domain = 'mail.example') => `/package/${pkg}/email/${domain}`;

describe('mailboxes', () => {
  it('creates a mailbox (spec 4.4 envelope) and lists it', async () => {
    const res = await api.post(mailPath(), mailbox({ local: 'Info', send: 'false' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { result: [{ type: 'mailbox', id: 'info', generatedId: null, password: 'correct horse' }], name: 'mail.example' },
    });
    const list = await api.get(mailPath());
    expect(list.body).toEqual({
      name: 'mail.example',
      domain: 'mail.example',
      mailbox: [{ id: expect.stringMatching(/^m\d+$/), local: 'info', send: false, receive: true, enabled: true, quotaMB: 1024, usageMB: 0 }],
      forward: [],
      responder: [],
    });
    // Only a hash of the password is kept.
    const dump = h.emu.snapshot().accounts[0].packages[0].mail[0];
    expect(dump.mailboxes[0].passwordSha256).toBe(sha('correct horse'));
    expect(JSON.stringify(h.emu.snapshot())).not.toContain('correct horse');
  });

  it('works on any name of the package, and by domain in place of the id', async () => {
    expect((await api.post('/package/alias.example/email/alias.example', mailbox())).status).toBe(200);
    expect((await api.get(`/package/${pkg}/email/alias.example`)).body.mailbox).toHaveLength(1);
    expect((await api.get(mailPath())).body.mailbox).toHaveLength(0);
  });

  it.each([
    ['send as a number', { send: 1 }, /new\.mailbox\.send must be "true" or "false"/],
    ['receive "yes"', { receive: 'yes' }, /new\.mailbox\.receive must be "true" or "false"/],
    ['a bad local part', { local: 'a b' }, /new\.mailbox\.local/],
    ['a short password', { password: 'short' }, /new\.mailbox\.password/],
    ['a numeric password', { password: 12345678 }, /new\.mailbox\.password must be a string/],
    ['no password', { password: undefined }, /new\.mailbox\.password/],
  ])('400 for %s', async (_name, over, message) => {
    const res = await api.post(mailPath(), mailbox(over));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('400 for a body without new/update/delete, or a new with two kinds', async () => {
    expect((await api.post(mailPath(), {})).status).toBe(400);
    const both = await api.post(mailPath(), { new: { mailbox: mailbox().new.mailbox, forward: { local: 'a', remote: 'b@example.org' } } });
    expect(both.status).toBe(400);
  });

  it('409 for a duplicate mailbox; 404 for a domain not on the package or an unknown package', async () => {
    await api.post(mailPath(), mailbox());
    const dup = await api.post(mailPath(), mailbox({ local: 'INFO' }));
    expect(dup.status).toBe(409);
    expect((await api.post(mailPath('other.example'), mailbox())).status).toBe(404);
    expect((await api.get(mailPath('other.example'))).status).toBe(404);
    expect((await api.get('/package/1000999/email/mail.example')).status).toBe(404);
  });

  it('updates send/receive/password keyed by id ({"update": {"m123": {...}}}) and the hash changes', async () => {
    await api.post(mailPath(), mailbox());
    const id = (await api.get(mailPath())).body.mailbox[0].id;
    await api.control('DELETE', 'requests');
    const res = await api.post(mailPath(), { update: { [id]: { send: 'false', password: 'new password 2' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { result: [{ type: 'mailbox', id: 'info', generatedId: null, password: 'new password 2' }], name: 'mail.example' },
    });
    expect((await api.get(mailPath())).body.mailbox[0]).toMatchObject({ send: false, receive: true });
    expect(h.emu.snapshot().accounts[0].packages[0].mail[0].mailboxes[0].passwordSha256).toBe(sha('new password 2'));
    expect((await api.post(mailPath(), { update: { m99999: { send: 'true' } } })).status).toBe(404);
    expect((await api.post(mailPath(), { update: { [id]: { send: 'yes' } } })).status).toBe(400);
    expect((await api.post(mailPath(), { update: { x1: { send: 'true' } } })).status).toBe(400);
    // The keyed form relies on no tolerance.
    expect((await api.control('GET', 'requests')).body.filter((e: { tolerated?: string[] }) => e.tolerated)).toEqual([]);
  });

  it('tolerates the list-shaped update ({"update": {"mailbox": [{"id"}]}}) in the default profile, and the request log marks it', async () => {
    await api.post(mailPath(), mailbox());
    const id = (await api.get(mailPath())).body.mailbox[0].id;
    const res = await api.post(mailPath(), { update: { mailbox: [{ id, send: 'false', password: 'new password 2' }] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { result: [{ type: 'mailbox', id: 'info', generatedId: null, password: 'new password 2' }], name: 'mail.example' },
    });
    expect((await api.get(mailPath())).body.mailbox[0]).toMatchObject({ send: false, receive: true });
    expect(h.emu.snapshot().accounts[0].packages[0].mail[0].mailboxes[0].passwordSha256).toBe(sha('new password 2'));
    expect((await api.post(mailPath(), { update: { mailbox: [{ id: 'm99999', send: 'true' }] } })).status).toBe(404);
    expect((await api.post(mailPath(), { update: { mailbox: [{ id, send: 'yes' }] } })).status).toBe(400);
    const log = (await api.control('GET', 'requests')).body as Array<{ method: string; status: number; tolerated?: string[] }>;
    expect(log.filter((e) => e.method === 'POST' && e.status === 200).at(-1)!.tolerated).toEqual([expect.stringContaining('"update": {"mailbox"')]);
  });
});

describe('forwarders', () => {
  it('creates forwarders; the same local may forward to another remote, the same pair is 409', async () => {
    const res = await api.post(mailPath(), { new: { forward: { local: 'sales', remote: 'team@Example.ORG' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { result: [{ type: 'forward', id: 'sales', generatedId: null }], name: 'mail.example' } });
    expect((await api.post(mailPath(), { new: { forward: { local: 'sales', remote: 'other@example.org' } } })).status).toBe(200);
    expect((await api.post(mailPath(), { new: { forward: { local: 'sales', remote: 'team@example.org' } } })).status).toBe(409);
    const list = await api.get(mailPath());
    expect(list.body.forward).toEqual([
      { id: expect.stringMatching(/^f\d+$/), local: 'sales', remote: 'team@example.org' },
      { id: expect.stringMatching(/^f\d+$/), local: 'sales', remote: 'other@example.org' },
    ]);
  });

  it('400 for an invalid remote', async () => {
    const res = await api.post(mailPath(), { new: { forward: { local: 'sales', remote: 'nobody' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/new\.forward\.remote/);
  });
});

describe('delete', () => {
  it('deletes a flat array of type-prefixed ids and ignores unknown ids', async () => {
    await api.post(mailPath(), mailbox());
    await api.post(mailPath(), { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
    const { mailbox: [m], forward: [f] } = (await api.get(mailPath())).body;
    const res = await api.post(mailPath(), { delete: [m.id, f.id, 'm424242', 'x'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { result: [], name: 'mail.example' } });
    expect((await api.get(mailPath())).body).toEqual({ name: 'mail.example', domain: 'mail.example', mailbox: [], forward: [], responder: [] });
  });

  it('accepts a nested delete shape with 200 and deletes nothing (live behaviour)', async () => {
    await api.post(mailPath(), mailbox());
    const { mailbox: [m] } = (await api.get(mailPath())).body;
    const res = await api.post(mailPath(), { delete: { mailbox: [m.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { result: [], name: 'mail.example' } });
    expect((await api.get(mailPath())).body.mailbox).toHaveLength(1);
  });

  it('only deletes objects of the addressed domain', async () => {
    await api.post(mailPath('alias.example'), mailbox());
    const { mailbox: [m] } = (await api.get(mailPath('alias.example'))).body;
    await api.post(mailPath(), { delete: [m.id] });
    expect((await api.get(mailPath('alias.example'))).body.mailbox).toHaveLength(1);
  });

  it('removing a name from the package removes its mail (assumed)', async () => {
    await api.post(mailPath('alias.example'), mailbox());
    await api.post(`/package/${pkg}/names`, { rem: ['alias.example'] });
    await api.post(`/package/${pkg}/names`, { add: ['alias.example'] });
    expect((await api.get(mailPath('alias.example'))).body.mailbox).toEqual([]);
  });
});
