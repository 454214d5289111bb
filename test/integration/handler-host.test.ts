import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';
import { HOST_IDLE_MS } from '../../src/handler/host';

/**
 * The warm handler host (src/handler/host.ts, bin/reseller-hosting.js): provisioners of
 * one Terraform run after the first are served by one long-lived process. Here the
 * "Terraform run" is this test process (the handlers' parent), or a short-lived parent
 * made for the purpose. RESELLER_HANDLER_DEBUG makes each handler say who ran it.
 */
jest.setTimeout(60_000);

let emu: TestEmulator;
beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 0 });
});
afterAll(() => emu?.stop());

const privateDir = () => mkdtempSync(join(tmpdir(), 'reseller-host-')); // mode 0700
const pkg = (domainName: string, extra: object = {}) => ({
  kind: 'package', path: `host/${domainName}`, domainName, extraDomainNames: [], packageType: 'Linux Unlimited',
  label: 'Host test', documentRoots: {}, enabled: true, ...extra,
});
const sockets = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sock'));
const packagesOf = (accountId: number) => emu.emulator.snapshot().accounts.find((a) => a.id === accountId)!.packages.map((p) => p.name).sort();

/** Pids of the handler hosts whose socket is in `dir`. */
function hostPids(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('handler-host') && cmd.some((a) => a.startsWith(`${dir}/`))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function waitFor(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts this test process's host in `dir` with a first handler run, and waits for it. */
async function startHost(dir: string, env: NodeJS.ProcessEnv, domain: string) {
  const first = await runHandler('ensure', pkg(domain), env);
  expect(first.stderr).toMatch(/running in this process \(no handler host yet\)/);
  await waitFor('the host socket', () => sockets(dir).length === 1 && hostPids(dir).length === 1);
  return first;
}

test('the first handler of a run starts the host; the next ones are served by it, output, errors and exit codes included', async () => {
  const dir = privateDir();
  const env = handlerEnv(emu.url, dir, { RESELLER_HANDLER_DEBUG: '1' });
  const first = await startHost(dir, env, 'host-a.example');
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^created package host-a\.example \(id \d+\)\n$/);

  const second = await runHandler('ensure', pkg('host-b.example'), env);
  expect(second.code).toBe(0);
  expect(second.stdout).toMatch(/^created package host-b\.example \(id \d+\)\n$/);
  expect(second.stderr).toMatch(/served by the handler host/);

  const failed = await runHandler('ensure', pkg('host-c.example', { packageType: 'No Such Type' }), env);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(/served by the handler host/);
  expect(failed.stderr).toMatch(/^error: .*No Such Type/m);
  expect(failed.stdout).toBe('');

  const retire = await runHandler('retire-settings', JSON.stringify({ object: 'host-object-1', passwordVersion: '1' }), env);
  expect(retire).toMatchObject({ code: 0, stdout: '' });
  expect(packagesOf(989900)).toEqual(expect.arrayContaining(['host-a.example', 'host-b.example']));
  expect(packagesOf(989900)).not.toContain('host-c.example');
  expect(hostPids(dir)).toHaveLength(1); // one host served them all
});

test('requests with different API keys through one host each reach their own account', async () => {
  await emu.control('POST', 'accounts', { id: 989911, apiKey: 'host-test-key-b' });
  const dir = privateDir();
  const envA = handlerEnv(emu.url, dir, { RESELLER_HANDLER_DEBUG: '1' });
  const envB = { ...envA, RESELLER_API_KEY: 'host-test-key-b' };
  await startHost(dir, envA, 'keys-a0.example');
  const runs = await Promise.all([
    runHandler('ensure', pkg('keys-a1.example'), envA),
    runHandler('ensure', pkg('keys-b1.example'), envB),
    runHandler('ensure', pkg('keys-a2.example'), envA),
    runHandler('ensure', pkg('keys-b2.example'), envB),
  ]);
  for (const r of runs) expect({ code: r.code, served: /served by the handler host/.test(r.stderr) }).toEqual({ code: 0, served: true });
  expect(packagesOf(989911)).toEqual(['keys-b1.example', 'keys-b2.example']);
  expect(packagesOf(989900)).toEqual(expect.arrayContaining(['keys-a0.example', 'keys-a1.example', 'keys-a2.example']));
  expect(packagesOf(989900).filter((n) => n.startsWith('keys-b'))).toEqual([]);
});

test('a host that died is replaced: the next handler runs here, and starts a new host', async () => {
  const dir = privateDir();
  const env = handlerEnv(emu.url, dir, { RESELLER_HANDLER_DEBUG: '1' });
  await startHost(dir, env, 'dead-a.example');
  const [old] = hostPids(dir);
  process.kill(old, 'SIGKILL');
  await waitFor('the host to die', () => !hostPids(dir).includes(old));
  expect(sockets(dir)).toHaveLength(1); // left behind

  const next = await runHandler('ensure', pkg('dead-b.example'), env);
  expect(next.code).toBe(0);
  expect(next.stderr).toMatch(/running in this process \(handler host: ECONNREFUSED\)/);
  await waitFor('a new host', () => hostPids(dir).length === 1 && sockets(dir).length === 1);
  expect(hostPids(dir)).not.toContain(old);
  const served = await runHandler('ensure', pkg('dead-c.example'), env);
  expect(served.code).toBe(0);
  expect(served.stderr).toMatch(/served by the handler host/);
  expect(packagesOf(989900)).toEqual(expect.arrayContaining(['dead-a.example', 'dead-b.example', 'dead-c.example']));
});

test('no host when the state directory is not private, a proxy is set, or RESELLER_HANDLER_HOST=off', async () => {
  const shared = privateDir();
  chmodSync(shared, 0o755);
  const open = await runHandler('ensure', pkg('open-dir.example'), handlerEnv(emu.url, shared, { RESELLER_HANDLER_DEBUG: '1' }));
  expect(open.code).toBe(0);
  expect(open.stderr).toMatch(/running in this process \(state directory .* is not private to this user\)/);

  const dir = privateDir();
  const proxied = await runHandler('ensure', pkg('proxied.example'), handlerEnv(emu.url, dir, {
    RESELLER_HANDLER_DEBUG: '1', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1',
  }));
  expect(proxied.code).toBe(0);
  expect(proxied.stderr).toMatch(/running in this process \(a proxy is set\)/);
  const off = await runHandler('ensure', pkg('off.example'), handlerEnv(emu.url, dir, { RESELLER_HANDLER_DEBUG: '1', RESELLER_HANDLER_HOST: 'off' }));
  expect(off.code).toBe(0);
  expect(off.stderr).toMatch(/running in this process \(RESELLER_HANDLER_HOST=off\)/);

  await new Promise((r) => setTimeout(r, 500));
  expect([...sockets(shared), ...sockets(dir)]).toEqual([]);
  expect([...hostPids(shared), ...hostPids(dir)]).toEqual([]);
});

test('the host leaves when its Terraform process is gone, and when it has been idle for 5 s', async () => {
  // A short-lived parent standing in for `terraform apply`: it runs one handler, then exits.
  const dir = privateDir();
  const env = handlerEnv(emu.url, dir);
  const bin = join(REPO_ROOT, 'bin', 'reseller-hosting.js');
  const script = `const r = require('child_process').spawnSync(process.execPath, [${JSON.stringify(bin)}, 'handler', 'ensure'], { stdio: 'inherit' }); process.exit(r.status);`;
  await new Promise<void>((resolve, reject) => {
    const parent = spawn(process.execPath, ['-e', script], { env: { ...env, RESELLER_SPEC: JSON.stringify(pkg('parent-gone.example')) }, stdio: 'ignore' });
    parent.on('error', reject);
    parent.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`parent exited ${code}`))));
  });
  // The host may still be starting when its parent is already gone: it must not stay.
  await waitFor('the host of a finished run to leave', () => hostPids(dir).length === 0 && sockets(dir).length === 0, 20_000);

  const idleDir = privateDir();
  const idleEnv = handlerEnv(emu.url, idleDir, { RESELLER_HANDLER_DEBUG: '1' });
  // Timed from before the run that starts the host, so the bound holds however slow the
  // machine is: the host cannot leave before it has been idle for HOST_IDLE_MS.
  const started = Date.now();
  await startHost(idleDir, idleEnv, 'idle.example');
  await waitFor('the idle host to leave', () => hostPids(idleDir).length === 0 && sockets(idleDir).length === 0, 30_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(HOST_IDLE_MS - 10);
});
