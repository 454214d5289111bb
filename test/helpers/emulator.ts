import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator';
import type { AccountDump, EmulatorStateDump, RunningEmulator } from '../../src/emulator';
import { REPO_ROOT } from '../../scripts/lib/terraform';

export const API_KEY = 'emulator-key';

/** An emulator on a free port with its own data file, and helpers to look at it. */
export async function startTestEmulator(options: { provisionDelayMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'reseller-test-'));
  const emulator: RunningEmulator = await startEmulator({
    port: 0, apiKey: API_KEY, dataFile: join(dir, 'emulator.json'), provisionDelayMs: options.provisionDelayMs ?? 200, quiet: true,
  });
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.url}/__emulator/${path}`, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const account = (): AccountDump => {
    const dump: EmulatorStateDump = emulator.snapshot();
    return dump.accounts.find((a) => a.isDefault)!;
  };
  return { emulator, dir, url: emulator.url, control, account, stop: () => emulator.stop() };
}

export type TestEmulator = Awaited<ReturnType<typeof startTestEmulator>>;

/** Environment for handler processes: connection, an isolated journal, quick polling. */
export function handlerEnv(url: string, journalDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    RESELLER_API_URL: url,
    RESELLER_API_KEY: API_KEY,
    RESELLER_HANDLER_STATE_DIR: journalDir,
    RESELLER_POLL_INTERVAL: '100ms',
    ...extra,
  };
}

/** Tests that run the handler as Terraform does need the compiled package (`npm test` builds it). */
export function requireBuiltHandler(): void {
  const main = join(REPO_ROOT, 'dist', 'src', 'handler', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run 'npm run build' first (npm test does)`);
}

/** Mail objects of a package domain, as the emulator holds them. */
export function mailOf(account: AccountDump, domain: string) {
  for (const p of account.packages) {
    const m = p.mail.find((d) => d.domain === domain);
    if (m) return m;
  }
  return { domain, mailboxes: [], forwarders: [] };
}
