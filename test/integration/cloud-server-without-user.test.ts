/**
 * A managed cloud server needs no control-panel user (issue 13; the service's cloud
 * guide makes `forUser` optional): the construct synthesizes without one, and the
 * handler orders the server without naming a user, against the emulator over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudProvider, ManagedCloudServer } from '../../src';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';
import { resources, specOf, synth } from '../constructs/util';

let emu: TestEmulator;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 0 });
});
afterAll(() => emu?.stop());

test('ManagedCloudServer without forUser synthesizes a spec with no user (carriers)', () => {
  const { json } = synth((stack) => {
    new ManagedCloudServer(stack, 'web1', { hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'small', zone: 'dc_location-uk' });
  });
  const spec = specOf(resources(json).web1_settings) as Record<string, unknown>;
  expect(spec).toMatchObject({ kind: 'cloud-server', hostName: 'web1.example.com', spec: 'small' });
  expect(spec).not.toHaveProperty('forUser');
});

test('handler ensure orders a cloud server without a user, and it is listed', async () => {
  const env = handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'journal-')));
  const server = {
    kind: 'cloud-server', path: 'Stack/web1', hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'small',
    zone: 'dc_location-uk', periodMonths: 1, branded: false, timeoutMinutes: 1,
  };
  const run = await runHandler('ensure', server, env);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(/ordered cloud server web1.example.com \(id \d+\)/);
  expect(emu.account().cloudServers.map((s) => s.name)).toEqual(['web1.example.com']);
  const orders = ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string; status: number }>)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/addCloudServer'));
  expect(orders.map((r) => r.status)).toEqual([200]);
});
