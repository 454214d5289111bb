import type { EmulatorProfile } from '../../src/emulator';
import { Api, Harness, startHarness } from './helpers';

/**
 * Autoresponders on the mail endpoint (api-notes "Autoresponders"), in both profiles:
 * the `responder` list of the mail read and its own route, create (`new.responder`),
 * the update keyed by `r…` id, delete by id, validation, the package type's limit, and
 * what the state dump and a name's removal do with them.
 */

const responder = (over: Record<string, unknown> = {}) => ({
  new: {
    responder: {
      local: 'Away', subject: 'Out of office', content: '<p>Back soon</p>', forwardTo: null, enabled: true, startTime: null, endTime: null, type: 'text/html', ...over,
    },
  },
});

describe.each<EmulatorProfile>(['default', 'documented'])('autoresponders (profile %s)', (profile) => {
  let h: Harness;
  let api: Api;
  let path: string;

  beforeAll(async () => {
    h = await startHarness({ profile, provisionDelayMs: 0 });
    api = h.api;
  });
  afterAll(() => h.emu.stop());
  beforeEach(async () => {
    await api.control('POST', 'reset');
    const pkg = await api.addWeb('reply.example', { extra_domain_names: ['alias.example'] });
    path = `/package/${pkg}/email/reply.example`;
  });

  it('creates one as the production plugin sends it, on an address with no mailbox; the read lists it (also on its own route)', async () => {
    const res = await api.post(path, responder());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { result: profile === 'default' ? [{ type: 'responder', id: 'away', generatedId: null }] : [], name: 'reply.example' },
    });
    const entry = {
      id: expect.stringMatching(/^r[0-9]+$/), local: 'away', subject: 'Out of office', content: '<p>Back soon</p>', forwardTo: null, enabled: true,
      startTime: null, endTime: null, type: 'text/html',
    };
    const read = (await api.get(path)).body;
    expect(read.responder).toEqual([entry]);
    expect(read.mailbox).toEqual([]);
    expect((await api.get(`${path}/responder`)).body).toEqual([entry]);
    expect((await api.get(`${path.replace('reply.example', 'alias.example')}/responder`)).body).toEqual([]);
    expect(h.emu.snapshot().accounts[0].packages[0].mail[0].responders).toEqual([
      { ...entry, id: read.responder[0].id, address: 'away@reply.example' },
    ]);
  });

  it('reads times back as ISO 8601 UTC with milliseconds, whatever form was sent', async () => {
    await api.post(path, responder({ startTime: '2026-12-24T10:00:00+01:00', endTime: '2027-01-02 08:00:00' }));
    const [entry] = (await api.get(path)).body.responder;
    expect([entry.startTime, entry.endTime]).toEqual(['2026-12-24T09:00:00.000Z', '2027-01-02T08:00:00.000Z']);
  });

  it('updates keyed by r… id: the fields given change, the others stay; an unknown id is 404', async () => {
    await api.post(path, responder());
    const id = (await api.get(path)).body.responder[0].id;
    const res = await api.post(path, { update: { [id]: { subject: 'Closed', enabled: false, forwardTo: 'Desk@Example.ORG', endTime: '2027-01-02T08:00:00Z' } } });
    expect(res.status).toBe(200);
    expect((await api.get(path)).body.responder[0]).toMatchObject({
      id, subject: 'Closed', content: '<p>Back soon</p>', enabled: false, forwardTo: 'Desk@example.org', startTime: null, endTime: '2027-01-02T08:00:00.000Z', type: 'text/html',
    });
    expect((await api.post(path, { update: { r999999: { subject: 'x' } } })).status).toBe(404);
  });

  it('deletes by r… id in the flat delete array', async () => {
    await api.post(path, responder());
    const id = (await api.get(path)).body.responder[0].id;
    expect((await api.post(path, { delete: [id] })).status).toBe(200);
    expect((await api.get(path)).body.responder).toEqual([]);
  });

  it('refuses a duplicate address (409), a bad type, time, flag or address (400), and an end not after its start (400)', async () => {
    await api.post(path, responder());
    expect((await api.post(path, responder({ local: 'away' }))).status).toBe(409);
    for (const bad of [{ type: 'text/markdown' }, { startTime: 'tomorrow' }, { enabled: 'maybe' }, { forwardTo: 'not an address' }, { subject: 5 },
      { startTime: '2027-01-02T08:00:00Z', endTime: '2027-01-02T08:00:00Z' }]) {
      const res = await api.post(path, responder({ local: 'other', ...bad }));
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    expect((await api.get(path)).body.responder).toHaveLength(1);
  });

  it('the package type\'s mailAutoresponders limit: Linux Starter holds two, a third is refused (400)', async () => {
    const starter = await api.post('/reseller/*/addWeb', { type: '812', domain_name: 'starter.example' });
    const starterPath = `/package/${starter.body.result}/email/starter.example`;
    expect((await api.post(starterPath, responder({ local: 'one' }))).status).toBe(200);
    expect((await api.post(starterPath, responder({ local: 'two' }))).status).toBe(200);
    const third = await api.post(starterPath, responder({ local: 'three' }));
    expect(third.status).toBe(400);
    expect(third.body.error.message).toMatch(/mailAutoresponders: 2/);
    const types = (await api.get('/reseller/*/packageTypes')).body as Array<{ id: number; limits: Record<string, unknown> }>;
    expect(types.find((t) => t.id === 812)!.limits.mailAutoresponders).toBe(2);
  });

  it('a name leaving its package takes its autoresponders along', async () => {
    const alias = path.replace('reply.example', 'alias.example');
    await api.post(alias, responder());
    const pkg = path.split('/')[2];
    expect((await api.post(`/package/${pkg}/names`, { rem: ['alias.example'] })).status).toBe(200);
    expect(h.emu.snapshot().accounts[0].packages[0].mail).toEqual([]);
  });
});
