import { startHarness, Harness, cloudOrder } from './helpers';

/**
 * `profile: 'documented'` leaves out every response field and behaviour that no public
 * source shows (api-notes `assumed`), and keeps everything a source shows.
 */
let h: Harness;
beforeEach(async () => {
  h = await startHarness({ profile: 'documented', provisionDelayMs: 0 });
});
afterEach(() => h.emu.stop());

describe("profile 'documented'", () => {
  it('GET /package/{id}: status, name, names, stackUsers, typeRef, web, limits; no enabled/label/created/packageTypeName', async () => {
    const id = await h.api.addWeb('doc.example', { label: 'Doc', stackUser: 'stack-user:989901' });
    const res = await h.api.get(`/package/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'limits', 'name', 'names', 'stackUsers', 'status', 'typeRef', 'web']);
    expect(res.body).toMatchObject({ id, status: true, typeRef: 811, web: { name: 'doc.example', platform: 'linux', typeRef: 811 } });
    await h.api.post(`/package/${id}/userStatus`, { subservices: { default: false } });
    expect((await h.api.get(`/package/${id}`)).body.status).toBe(false);
  });

  it('GET /package: packageLabels stays empty (its content for a label is assumed); enabled is shown (spec 2.4)', async () => {
    await h.api.addWeb('doc.example', { label: 'Doc' });
    const [entry] = (await h.api.get('/package')).body;
    expect(entry).toMatchObject({ name: 'doc.example', enabled: true, packageLabels: [] });
    // The label is still kept: it is only not shown.
    expect(h.emu.snapshot().accounts[0].packages[0].label).toBe('Doc');
  });

  it('mail read: no forward member while there are none; forwarder and update responses list no items', async () => {
    const id = await h.api.addWeb('doc.example');
    const path = `/package/${id}/email/doc.example`;
    expect((await h.api.get(path)).body).toEqual({ name: 'doc.example', domain: 'doc.example', mailbox: [], responder: [] });
    const fwd = await h.api.post(path, { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
    expect(fwd.body).toEqual({ result: { result: [], name: 'doc.example' } });
    expect((await h.api.get(path)).body.forward).toEqual([{ id: expect.stringMatching(/^f\d+$/), local: 'sales', remote: 'team@example.org' }]);
    await h.api.post(path, { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'correct horse' } } });
    const mid = (await h.api.get(path)).body.mailbox[0].id;
    const upd = await h.api.post(path, { update: { [mid]: { send: 'false' } } });
    expect(upd.body).toEqual({ result: { result: [], name: 'doc.example' } });
    expect((await h.api.get(path)).body.mailbox[0].send).toBe(false);
    // The list-shaped update is a tolerance of the default profile only: no public source shows it.
    const listed = await h.api.post(path, { update: { mailbox: [{ id: mid, send: 'true' }] } });
    expect(listed.status).toBe(400);
    expect(listed.body.error.message).toMatch(/keyed by type-prefixed id/);
    expect((await h.api.get(path)).body.mailbox[0].send).toBe(false);
  });

  it('GET /cloud_server/{id}: no brand headers', async () => {
    await h.api.control('POST', 'brand', { name: 'Acme', logoUrl: 'https://acme.example/logo.png' });
    const order = await h.api.post('/reseller/*/addCloudServer', cloudOrder({}, { resellerCloudBranded: true }));
    const res = await h.api.get(`/cloud_server/${order.body.result}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-brand-name')).toBeNull();
    expect(res.headers.get('x-brand-logo')).toBeNull();
  });
});

describe("profile 'default' keeps the assumed fields", () => {
  it('shows them', async () => {
    const d = await startHarness({ provisionDelayMs: 0 });
    try {
      const id = await d.api.addWeb('def.example', { label: 'Def' });
      expect((await d.api.get(`/package/${id}`)).body).toMatchObject({ status: true, enabled: true, label: 'Def', packageTypeName: 'Linux Unlimited' });
      expect((await d.api.get('/package')).body[0].packageLabels).toEqual(['Def']);
      expect((await d.api.get(`/package/${id}/email/def.example`)).body.forward).toEqual([]);
    } finally {
      await d.emu.stop();
    }
  });

  it('refuses an unknown profile', async () => {
    await expect(startHarness({ profile: 'strict' as never })).rejects.toThrow(/profile must be one of default, documented/);
  });
});
