import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDriftCli } from '../../src/commands/drift';
import type { DriftDocument } from '../../src/commands/drift/report';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { apiEnv, capture, LoggedRequest, tempDir } from './helpers';

/**
 * `drift --fix` orders nothing that costs money unless asked: a declared cloud server
 * that is missing (its kind's `lifecycle.orderCharges`) is skipped with a message that
 * says why, and `--detailed-exitcode` exits 2 (drift left in place). With
 * `--allow-charges` it is ordered. Unattended (a scheduled job, the deploy recipe), the
 * reseller's account is never charged behind their back.
 */
let emu: TestEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ provisionDelayMs: 50 });
  dir = tempDir('reseller-fix-charges-');
  const stackDir = join(dir, 'cdktf.out', 'stacks', 'servers');
  mkdirSync(stackDir, { recursive: true });
  // A provider-engine stack, as synth writes it, declaring one server the account lacks.
  writeFileSync(join(stackDir, 'cdk.tf.json'), JSON.stringify({
    resource: { reseller_cloud_server: { web9: { host_name: 'web9.charges.example', cloud_provider: 'native', spec: 'micro', zone: 'dc_location-uk' } } },
  }));
});
afterAll(() => emu?.stop());

const requests = async () => (await emu.control('GET', 'requests')) as LoggedRequest[];
const env = () => apiEnv(emu.url, join(dir, 'journal'), { RESELLER_POLL_INTERVAL: '50ms' });

test('a missing cloud server is skipped without --allow-charges: nothing is ordered, and the run says why', async () => {
  await emu.control('DELETE', 'requests');
  const run = await capture(runDriftCli, ['--json', '--fix', '--detailed-exitcode'], env(), dir);
  expect(run.code).toBe(2);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(doc.fix!.actions).toEqual([expect.objectContaining({
    address: 'reseller_cloud_server.web9', status: 'missing', action: 'none', outcome: 'skipped',
    message: 'ordering a cloud server charges the account at once, so drift --fix orders one only with --allow-charges (or let terraform apply / cdktf deploy order it as planned)',
  })]);
  expect(run.stderr).toMatch(/skipped cloud server web9\.charges\.example \(reseller_cloud_server\.web9\): ordering a cloud server charges the account/);
  expect((await requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  expect(emu.account().cloudServers).toEqual([]);
});

test('--allow-charges orders it, and the report after the fix is clean', async () => {
  const run = await capture(runDriftCli, ['--json', '--fix', '--allow-charges', '--detailed-exitcode'], env(), dir);
  const doc = JSON.parse(run.stdout) as DriftDocument;
  expect(doc.fix!.actions).toEqual([expect.objectContaining({ address: 'reseller_cloud_server.web9', action: 'ensure', outcome: 'fixed' })]);
  expect(emu.account().cloudServers.map((s) => s.name)).toEqual(['web9.charges.example']);
  expect(doc.summary).toMatchObject({ inSync: 1, drift: false });
  expect(run.code).toBe(0);
});

test('--allow-charges only goes with --fix', async () => {
  const run = await capture(runDriftCli, ['--allow-charges'], env(), dir);
  expect(run.code).toBe(64);
  expect(run.stderr).toMatch(/^reseller-hosting drift: --allow-charges goes with --fix/);
});
