import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { LivePrerequisiteError, liveSettings } from './settings';
import { applyWithinBudget, cleanUpRun, startRun, stepsOf, writeConfig } from './tier';

/**
 * The live tier's gate and its cleanup: skipped unless RESELLER_LIVE=1; with
 * RESELLER_LIVE=1 a missing prerequisite fails the run loudly (through the real
 * `jest -c jest.live.config.js` that `npm run test:live` runs); and the cleanup removes
 * what a failed case left outside Terraform's state.
 */
jest.setTimeout(120_000);

const BASE = { RESELLER_LIVE: '1', RESELLER_API_URL: 'http://127.0.0.1:1', RESELLER_API_KEY: 'k', RESELLER_LIVE_DOMAIN: 'example.com' };

/** `jest -c jest.live.config.js` as `npm run test:live` runs it (without the build, which npm test has done). */
function liveJest(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(clean)) if (/^RESELLER_/.test(name)) delete clean[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '-c', 'jest.live.config.js', '--runInBand', '--ci'],
      { cwd: REPO_ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('settings', () => {
  it('are off without RESELLER_LIVE=1', () => {
    expect(liveSettings({})).toBeUndefined();
    expect(liveSettings({ ...BASE, RESELLER_LIVE: 'true' })).toBeUndefined();
  });

  it('name every missing prerequisite when RESELLER_LIVE=1', () => {
    expect(() => liveSettings({ RESELLER_LIVE: '1' })).toThrow(LivePrerequisiteError);
    const message = (() => {
      try {
        liveSettings({ RESELLER_LIVE: '1', RESELLER_API_KEY: 'k' });
        return 'no error';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toMatch(/RESELLER_API_URL is not set/);
    expect(message).toMatch(/RESELLER_LIVE_DOMAIN is not set/);
    expect(message).not.toMatch(/RESELLER_API_KEY is not set/);
    expect(() => liveSettings({ ...BASE, RESELLER_LIVE_DOMAIN: 'not a domain' })).toThrow(/RESELLER_LIVE_DOMAIN/);
    expect(() => liveSettings({ ...BASE, RESELLER_LIVE_MAX_CREATES: '0' })).toThrow(/RESELLER_LIVE_MAX_CREATES/);
  });

  it('give every run its own prefix tfacc-<run id>-, and order no cloud server unless RESELLER_LIVE_CLOUD=1', () => {
    const a = liveSettings(BASE)!;
    const b = liveSettings(BASE)!;
    expect(a.prefix).toMatch(/^tfacc-[0-9a-f]{6}-$/);
    expect(a.prefix).not.toBe(b.prefix);
    expect(liveSettings({ ...BASE, RESELLER_LIVE_RUN_ID: 'Nightly42' })!.prefix).toBe('tfacc-nightly42-');
    expect(a.cloud).toBe(false);
    expect(liveSettings({ ...BASE, RESELLER_LIVE_CLOUD: '1' })!.cloud).toBe(true);
  });
});

describe('npm run test:live', () => {
  it('is skipped without RESELLER_LIVE=1', async () => {
    const run = await liveJest({});
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/Tests:\s+1 skipped, 1 total/);
  });

  it('fails loudly when RESELLER_LIVE=1 and a prerequisite is missing, before anything runs', async () => {
    const run = await liveJest({ RESELLER_LIVE: '1', RESELLER_API_URL: 'http://127.0.0.1:1', RESELLER_API_KEY: 'k' });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/Test suite failed to run/);
    expect(run.output).toMatch(/RESELLER_LIVE_DOMAIN is not set/);
  });
});

describe('cleanup after a failed case', () => {
  let emulator: RunningEmulator;
  let client: ResellerClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey: 'k', quiet: true });
    client = new ResellerClient({ baseUrl: emulator.url, apiKey: 'k', retryBaseDelayMs: 10 });
  });
  afterAll(async () => {
    client?.close();
    await emulator?.stop();
  });

  it('sweeps what the run left outside Terraform (no state at all here), and nothing of another run', async () => {
    const s = liveSettings({ ...BASE, RESELLER_API_URL: emulator.url, RESELLER_LIVE_RUN_ID: 'fail1', RESELLER_POLL_INTERVAL: '20ms' })!;
    const id = await client.packages.create({ type: 811, domainName: `${s.prefix}site.example.com`, extraDomainNames: [] });
    await client.mail.createMailbox(id, `${s.prefix}site.example.com`, { local: 'info', send: true, receive: true, password: 'Cleanup-Passw0rd!' });
    await client.users.create({ email: `${s.prefix}owner@example.com` });
    await client.packages.create({ type: 811, domainName: 'tfacc-other-site.example.com', extraDomainNames: [] });
    const result = await cleanUpRun({ s, client });
    expect(result.swept.sort()).toEqual([
      // The records at the apex of the package's zone (the service's default A and MX) carry the prefix too; they went with the package.
      expect.stringMatching(/^dns-record tfacc-fail1-site\.example\.com A /), 'dns-record tfacc-fail1-site.example.com MX 10 mx.stackmail.com',
      'mailbox info@tfacc-fail1-site.example.com', 'package tfacc-fail1-site.example.com', 'stack-user tfacc-fail1-owner@example.com',
      // The package's web settings went with it too.
      'web-settings tfacc-fail1-site.example.com',
    ]);
    expect((await client.packages.list()).map((p) => p.name)).toEqual(['tfacc-other-site.example.com']);
  });
});

describe('the budget guard', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey: 'k', quiet: true });
  });
  afterAll(() => emulator?.stop());

  it('stops an apply that would create more objects than RESELLER_LIVE_MAX_CREATES, before anything is created', async () => {
    const run = await startRun(liveSettings({ ...BASE, RESELLER_API_URL: emulator.url, RESELLER_LIVE_MAX_CREATES: '4', RESELLER_POLL_INTERVAL: '20ms' })!);
    try {
      writeConfig(run, stepsOf(run)[0]);
      await expect(applyWithinBudget(run)).rejects.toThrow(/^budget guard: this apply would create 12 object\(s\) after 0, over RESELLER_LIVE_MAX_CREATES=4; nothing was applied$/);
      expect(emulator.snapshot().accounts.find((a) => a.isDefault)!.packages).toEqual([]);
    } finally {
      await cleanUpRun(run);
      run.client.close();
      rmSync(run.dir, { recursive: true, force: true });
    }
  });
});
