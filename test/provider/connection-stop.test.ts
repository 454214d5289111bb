import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * StopProvider ends every wait of the provider process at once, however many are in
 * flight: a large apply has tens of reads and read-back polls listening to the one stop
 * signal, and Node must not take that for a leak (a warning on the provider's stderr,
 * which Terraform logs). Run in a process of its own, as the provider runs: the
 * warning goes to the real stderr.
 */
test('forty waits on the stop signal all end on stop, and the process writes no warning', () => {
  const dist = join(REPO_ROOT, 'dist', 'src');
  if (!existsSync(join(dist, 'provider', 'connection.js'))) throw new Error("the build is missing: run 'npm run build' first (npm test does)");
  const script = `
    const { Connection } = require(${JSON.stringify(join(dist, 'provider', 'connection.js'))});
    const { sleep, StoppedError } = require(${JSON.stringify(join(dist, 'reconcile'))});
    const conn = new Connection();
    conn.configure({ apiUrl: 'http://127.0.0.1:1', apiKey: 'k' }, {});
    const waits = Array.from({ length: 40 }, () => sleep(3600000, conn.ctx.stop).then(() => 'slept', (e) => e instanceof StoppedError ? 'stopped' : String(e)));
    conn.stop();
    Promise.all(waits).then((ended) => console.log(ended.filter((e) => e === 'stopped').length));
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).toBe('');
  expect(run.stdout.trim()).toBe('40');
  expect(run.status).toBe(0);
});
