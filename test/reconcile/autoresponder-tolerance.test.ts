import { ResellerClient } from '../../src/client';
import { checkAutoresponder } from '../../src/protocol';
import type { AutoresponderSpec } from '../../src/protocol';
import { createContext, diff, ensure, observe } from '../../src/reconcile';
import { json, ScriptedServer, startScriptedServer } from '../client/scripted-server';

/**
 * DESIGN §3, tolerant reader, for autoresponders: an account that reads a start time
 * back in a form the client cannot read as an instant (responderTimeOfRead keeps it as
 * read) neither fails nor loops: the time is not verifiable, so observe leaves it out,
 * diff does not compare it and ensure writes nothing for it; the other settings are
 * compared as usual.
 */
let server: ScriptedServer;
let client: ResellerClient;
let subject: string;

const entry = () => ({ id: 'r9', local: 'away', subject, content: 'Back soon', forwardTo: null, enabled: true, startTime: 'next Monday morning', endTime: null, type: 'text/plain' });

beforeAll(async () => {
  server = await startScriptedServer((req, res) => {
    if (req.method === 'GET' && req.url === '/package') {
      return json(res, 200, [{ id: 1, name: 'odd.example', names: ['odd.example'], enabled: true, typeRef: 811, packageTypeName: 'Linux Unlimited', stackUsers: [] }]);
    }
    if (req.method === 'GET' && req.url === '/package/odd.example/email/odd.example') {
      return json(res, 200, { name: 'odd.example', mailbox: [], forward: [], responder: [entry()] });
    }
    if (req.method === 'POST' && req.url === '/package/odd.example/email/odd.example') {
      const body = JSON.parse(req.body) as { update?: Record<string, { subject: string }> };
      if (body.update?.r9) subject = body.update.r9.subject;
      return json(res, 200, { result: { result: [], name: 'odd.example' } });
    }
    return json(res, 404, { error: { message: 'No route handler' } });
  });
  client = new ResellerClient({ baseUrl: server.url, apiKey: 'k', retryBaseDelayMs: 1 });
});
afterAll(async () => {
  client.close();
  await server.close();
});
beforeEach(() => {
  subject = 'Away';
  server.requests.length = 0;
});

const spec = (over: Partial<AutoresponderSpec> = {}) => checkAutoresponder({
  kind: 'autoresponder', path: 'odd/away', packageDomain: 'odd.example', domain: 'odd.example', localPart: 'away', subject: 'Away', content: 'Back soon',
  startTime: '2026-12-24T09:00:00Z', ...over,
} as AutoresponderSpec).spec;
const context = () => createContext({ client, timing: { pollIntervalMs: 5, confirmTimeoutMs: 2_000, progressIntervalMs: 60_000 } });
const posts = () => server.requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body));

test('observe leaves the unreadable time out; diff does not compare it; ensure writes nothing for it', async () => {
  const live = await observe(context(), { kind: 'autoresponder', key: 'away@odd.example', placement: 'odd.example', parent: '' });
  expect(live!.fields).not.toHaveProperty('startTime');
  expect(live!.fields).toMatchObject({ subject: 'Away', endTime: null });
  expect(await diff(context(), spec(), live!)).toEqual([]);
  await ensure(context(), spec());
  expect(posts()).toEqual([]);
});

test('another setting that differs is written and confirmed, with no loop over the time', async () => {
  await ensure(context(), spec({ subject: 'Closed' }));
  expect(posts()).toEqual([{ update: { r9: expect.objectContaining({ subject: 'Closed', startTime: '2026-12-24T09:00:00Z' }) } }]);
  expect(subject).toBe('Closed');
});
