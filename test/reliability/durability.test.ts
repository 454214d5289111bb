/**
 * Durability: the compiled emulator CLI (`reseller-hosting emulator --data FILE`) is
 * killed with SIGKILL in the middle of a burst of concurrent writes, then started
 * again on the same file, three times over. Each time it loads (taking over the dead
 * process's lock), and every write that had been acknowledged (got its 200) before
 * the kill is present; nothing appears that no client asked for.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorStateDump } from '../../src/emulator';
import { bearer, requireBuild, spawnEmulator, tempDir } from './support';

const KEY = 'durability-key';
const headers = { authorization: bearer(KEY), 'content-type': 'application/json' };

interface Acked {
  packages: Set<string>;
  mailboxes: Set<string>;
  attempted: Set<string>;
}

/** Writers that create packages (and a mailbox on every second one) until the server dies. */
async function burst(url: string, cycle: number, acked: Acked): Promise<void> {
  const writer = async (w: number) => {
    for (let i = 0; ; i++) {
      const domain = `c${cycle}-w${w}-${i}.example`;
      try {
        acked.attempted.add(domain);
        const res = await fetch(`${url}/reseller/*/addWeb`, { method: 'POST', headers, body: JSON.stringify({ type: '811', domain_name: domain }) });
        if (res.status !== 200) throw new Error(`addWeb ${domain}: ${res.status} ${await res.text()}`);
        acked.packages.add(domain);
        if (i % 2 === 0) {
          const mail = await fetch(`${url}/package/${domain}/email/${domain}`, {
            method: 'POST', headers, body: JSON.stringify({ new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'Durable-Passw0rd' } } }),
          });
          if (mail.status !== 200) throw new Error(`mailbox on ${domain}: ${mail.status} ${await mail.text()}`);
          acked.mailboxes.add(`info@${domain}`);
        }
      } catch (err) {
        if ((err as Error).message === 'fetch failed') return; // no response: the server is gone
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
}

test('kill -9 during a burst of writes, restart on the same file: every acknowledged write is there', async () => {
  requireBuild(); // the compiled CLI must exist
  const file = join(tempDir('durability'), 'state.json');
  const acked: Acked = { packages: new Set(), mailboxes: new Set(), attempted: new Set() };
  for (let cycle = 0; cycle < 3; cycle++) {
    const emu = await spawnEmulator(['--quiet', '--data', file, '--api-key', KEY]);
    // Everything acknowledged in earlier cycles survived the kill.
    const before = (await (await fetch(`${emu.url}/__emulator/state`)).json()) as EmulatorStateDump;
    const packages = before.accounts[0].packages;
    const names = new Set(packages.map((p) => p.name));
    const boxes = new Set(packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes.map((m) => m.address))));
    expect([...acked.packages].filter((n) => !names.has(n))).toEqual([]);
    expect([...acked.mailboxes].filter((m) => !boxes.has(m))).toEqual([]);
    // Nothing no client asked for.
    expect([...names].filter((n) => !acked.attempted.has(n))).toEqual([]);

    const ackedBefore = acked.packages.size;
    const writing = burst(emu.url, cycle, acked);
    // Kill in the middle of the burst: once writes are being acknowledged, a little later.
    const until = Date.now() + 20_000;
    while (acked.packages.size < ackedBefore + 5 + cycle * 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 15 + cycle * 20));
    const ackedAtKill = acked.packages.size;
    emu.child.kill('SIGKILL');
    expect((await emu.exited).signal).toBe('SIGKILL');
    await writing;
    expect(ackedAtKill).toBeGreaterThan(ackedBefore); // the kill came in the middle of acknowledged writes (the writers never stop on their own)
    expect(existsSync(`${file}.lock`)).toBe(true); // left behind by the killed process
  }
  // The last kill's acknowledged writes too; then a clean stop.
  const last = await spawnEmulator(['--quiet', '--data', file, '--api-key', KEY]);
  const state = (await (await fetch(`${last.url}/__emulator/state`)).json()) as EmulatorStateDump;
  const names = new Set(state.accounts[0].packages.map((p) => p.name));
  expect([...acked.packages].filter((n) => !names.has(n))).toEqual([]);
  expect(acked.packages.size).toBeGreaterThan(20);
  last.child.kill('SIGTERM');
  expect((await last.exited).code).toBe(0);
}, 60_000);
