import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmulatorCommandIo, runEmulatorCli } from '../../src/commands/emulator';
import { DataFile } from '../../src/emulator/persistence';
import { token } from './helpers';

function capture() {
  let text = '';
  const waiters: Array<() => void> = [];
  return {
    write(chunk: string) {
      text += chunk;
      waiters.splice(0).forEach((w) => w());
      return true;
    },
    get text() {
      return text;
    },
    /** Resolves once the text matches. */
    async waitFor(re: RegExp): Promise<RegExpMatchArray> {
      for (;;) {
        const m = re.exec(text);
        if (m) return m;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

type Capture = ReturnType<typeof capture>;

/** The command's io over two captures. */
function io(o: { stdout: Capture; stderr: Capture; env: NodeJS.ProcessEnv; signal?: AbortSignal }): EmulatorCommandIo {
  return { stdout: (text) => o.stdout.write(text), stderr: (text) => o.stderr.write(text), env: o.env, cwd: process.cwd(), signal: o.signal };
}

describe('runEmulatorCli (in process)', () => {
  it('prints exactly one "listening on" line, serves, and stops cleanly with 0', async () => {
    const stdout = capture();
    const stderr = capture();
    const stop = new AbortController();
    const done = runEmulatorCli(['--port', '0', '--provision-delay=5'], io({ stdout, stderr, env: {}, signal: stop.signal }));
    const [, url] = await stdout.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+)\n$/);
    const res = await fetch(`${url}/reseller/*/packageTypes`, { headers: { Authorization: `Bearer ${token('emulator-key')}` } });
    expect(res.status).toBe(200);
    await stderr.waitFor(/GET \/reseller\/\*\/packageTypes 200/); // request lines go to stderr
    stop.abort();
    expect(await done).toBe(0);
    expect(stdout.text.split('\n')).toEqual([expect.stringMatching(/^listening on /), '']);
    await expect(fetch(`${url}/package`)).rejects.toThrow();
  });

  it('takes the key from --api-key, else RESELLER_API_KEY', async () => {
    for (const [argv, env, key] of [
      [['--api-key', 'flag-key'], { RESELLER_API_KEY: 'env-key' }, 'flag-key'],
      [[], { RESELLER_API_KEY: 'env-key' }, 'env-key'],
    ] as const) {
      const stdout = capture();
      const stop = new AbortController();
      const done = runEmulatorCli(['--port', '0', '--quiet', ...argv], io({ stdout, stderr: capture(), env, signal: stop.signal }));
      const [, url] = await stdout.waitFor(/listening on (\S+)\n/);
      const res = await fetch(`${url}/package`, { headers: { Authorization: `Bearer ${token(key)}` } });
      expect(res.status).toBe(200);
      stop.abort();
      expect(await done).toBe(0);
    }
  });

  it('--profile documented leaves out the assumed fields; --profile default keeps them', async () => {
    for (const [profile, hasLabel] of [['documented', false], ['default', true]] as const) {
      const stdout = capture();
      const stop = new AbortController();
      const done = runEmulatorCli(['--port', '0', '--quiet', '--profile', profile], io({ stdout, stderr: capture(), env: {}, signal: stop.signal }));
      const [, url] = await stdout.waitFor(/listening on (\S+)\n/);
      const headers = { Authorization: `Bearer ${token('emulator-key')}`, 'Content-Type': 'application/json' };
      const created = await fetch(`${url}/reseller/*/addWeb`, { method: 'POST', headers, body: JSON.stringify({ type: '811', domain_name: 'p.example', label: 'P' }) });
      const { result: id } = (await created.json()) as { result: number };
      const detail = (await (await fetch(`${url}/package/${id}`, { headers })).json()) as Record<string, unknown>;
      expect(detail.status).toBe(true);
      expect('label' in detail).toBe(hasLabel);
      expect('enabled' in detail).toBe(hasLabel);
      stop.abort();
      expect(await done).toBe(0);
    }
  });

  it.each([
    [['--profile', 'strict']],
    [['--profile']],
    [['--port', 'eighty']],
    [['--port', '70000']],
    [['--port']],
    [['--provision-delay', '-5']],
    [['--frobnicate']],
    [['--api-key', '']],
    [['--data', '--port', '0']],
  ])('64 with a message on stderr for %j', async (argv) => {
    const stdout = capture();
    const stderr = capture();
    expect(await runEmulatorCli(argv, io({ stdout, stderr, env: {} }))).toBe(64);
    expect(stderr.text).toMatch(/^reseller-hosting emulator: .+\n/);
    expect(stdout.text).toBe('');
  });

  it('--help prints the usage on stdout and returns 0', async () => {
    const stdout = capture();
    expect(await runEmulatorCli(['--help'], io({ stdout, stderr: capture(), env: {} }))).toBe(0);
    expect(stdout.text).toMatch(/--provision-delay MS/);
  });

  it('returns 1 with a clear message when the data file is corrupt', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-cli-'));
    try {
      const file = path.join(dir, 'bad.json');
      fs.writeFileSync(file, 'not json');
      const stderr = capture();
      expect(await runEmulatorCli(['--port', '0', '--data', file], io({ stdout: capture(), stderr, env: {} }))).toBe(1);
      expect(stderr.text).toMatch(/corrupt/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The compiled CLI as a real process (needs `npm run build`; `npm test` builds first).
const ROOT = path.resolve(__dirname, '../..');
const COMPILED = path.join(ROOT, 'dist/src/commands/emulator/index.js');
/** The command as users run it: the package's bin, `emulator`. */
const BIN = path.join(ROOT, 'bin/reseller-hosting.js');
const EMULATOR = [BIN, 'emulator'];
// The compiled CLI is what users run; `npm test` builds it first. Missing = a loud failure.
if (!fs.existsSync(COMPILED)) throw new Error(`${COMPILED} is missing: run 'npm run build' first (npm test does)`);

function spawnCli(args: string[]): { child: ChildProcessWithoutNullStreams; url: Promise<string>; out: () => string } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, RESELLER_API_KEY: '' } });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${err}`)));
  });
  return { child, url, out: () => out };
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

describe('compiled CLI process', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-proc-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops cleanly on SIGTERM (exit 0, state saved, lock released)', async () => {
    const file = path.join(dir, 'state.json');
    const { child, url, out } = spawnCli([...EMULATOR, '--port', '0', '--quiet', '--data', file]);
    const base = await url;
    const res = await fetch(`${base}/reseller/*/addWeb`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token('emulator-key')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: '811', domain_name: 'proc.example' }),
    });
    expect(res.status).toBe(200);
    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(out().trim().split('\n')).toHaveLength(1);
    expect(new DataFile(file).load()?.accounts[0].packages[0].names).toEqual(['proc.example']);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('leaves a valid data file when killed with SIGKILL in the middle of writes', async () => {
    const file = path.join(dir, 'state.json');
    const { child, url } = spawnCli([...EMULATOR, '--port', '0', '--quiet', '--data', file]);
    const base = await url;
    const headers = { Authorization: `Bearer ${token('emulator-key')}`, 'Content-Type': 'application/json' };
    let acknowledged = 0;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; ; i++) {
        try {
          const r = await fetch(`${base}/reseller/*/addWeb`, { method: 'POST', headers, body: JSON.stringify({ type: '811', domain_name: `w${w}-${i}.example` }) });
          if (r.status === 200) acknowledged++;
        } catch {
          return;
        }
      }
    });
    // Killed once writes are under way (counted, not timed: a busy machine is slower to start them).
    for (const until = Date.now() + 20_000; acknowledged < 20; await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() > until) throw new Error(`only ${acknowledged} writes acknowledged after 20 s`);
    }
    const exit = exited(child);
    child.kill('SIGKILL');
    await exit;
    await Promise.all(writers);
    const state = new DataFile(file).load();
    // Every acknowledged write is on disk (at most the in-flight ones beyond).
    expect(state?.accounts[0].packages.length).toBeGreaterThanOrEqual(acknowledged);
    expect(acknowledged).toBeGreaterThan(0);
    // A new emulator starts on it, taking over the dead process's lock.
    const again = spawnCli([...EMULATOR, '--port', '0', '--quiet', '--data', file]);
    await again.url;
    const stopped = exited(again.child);
    again.child.kill('SIGINT');
    expect((await stopped).code).toBe(0);
  });

  it('runs as `reseller-hosting emulator`', async () => {
    const { child, url } = spawnCli([BIN, 'emulator', '--port', '0', '--quiet']);
    expect(await url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
  });
});
