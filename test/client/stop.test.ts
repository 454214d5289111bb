import { NetworkError, ResellerClient } from '../../src/client';
import { json, ScriptedServer, startScriptedServer } from './scripted-server';

/**
 * The client's `stop` signal (the provider aborts it on Terraform's StopProvider): a read
 * in flight ends at once instead of at its deadline; a write in flight is left to finish,
 * so that its outcome is known.
 */
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Resolves once the server has received `n` requests. */
async function received(n: number): Promise<void> {
  while ((server?.requests.length ?? 0) < n) await new Promise((r) => setImmediate(r));
}

test('a read in flight ends when stop is aborted (the server never answers; the deadline is an hour)', async () => {
  server = await startScriptedServer(() => 'hang');
  const stop = new AbortController();
  const client = new ResellerClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 3_600_000, maxRetries: 0, stop: stop.signal });
  const reading = client.packages.list();
  await received(1);
  stop.abort();
  const err = await reading.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(NetworkError);
  expect((err as NetworkError).code).toBe('ABORT_ERR');
  client.close();
});

test('a write in flight is not cut off: it finishes, and its answer is read', async () => {
  let answer: (() => void) | undefined;
  server = await startScriptedServer((req, res) => {
    if (req.method !== 'POST') return json(res, 200, []);
    return new Promise<void>((resolve) => {
      answer = () => {
        json(res, 200, { result: 1000001 });
        resolve();
      };
    });
  });
  const stop = new AbortController();
  const client = new ResellerClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 3_600_000, maxRetries: 0, stop: stop.signal });
  const creating = client.packages.create({ type: 811, domainName: 'stop-test.example.com', extraDomainNames: [] });
  await received(1);
  stop.abort();
  answer!();
  await expect(creating).resolves.toBe(1000001);
  client.close();
});

test('a read started after the stop does not go out', async () => {
  server = await startScriptedServer((_req, res) => json(res, 200, []));
  const stop = new AbortController();
  stop.abort();
  const client = new ResellerClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0, stop: stop.signal });
  await expect(client.packages.list()).rejects.toBeInstanceOf(NetworkError);
  expect(server.requests).toHaveLength(0);
  client.close();
});
