import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * The benchmark tools that are not figures of `npm run bench` still run: each is a
 * compiled script a developer runs by hand (`npm test` builds them). Output shapes,
 * never times.
 */
const tool = (name: string) => {
  const file = join(REPO_ROOT, 'dist', 'bench', `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run 'npm run build' first (npm test does)`);
  return file;
};

test('emulator-writes: the emulator\'s time per write for each account size asked for', () => {
  const run = spawnSync(process.execPath, [tool('emulator-writes'), '3', '20'], { encoding: 'utf8', timeout: 120_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(2);
  // 200 package creates and 200 mailbox creates after filling the account.
  expect(lines[0]).toMatch(/^\s*3 packages: 400 writes, [0-9.]+ ms per write \(median; 90th percentile [0-9.]+ ms\)$/);
  expect(lines[1]).toMatch(/^\s*20 packages: 400 writes, /);
});

test('emulator-writes: a size that is not a whole number is refused', () => {
  const run = spawnSync(process.execPath, [tool('emulator-writes'), 'many'], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('emulator-writes: sizes are whole numbers of packages');
});

test('read-cpu: the CPU of a plan\'s mail reads, through our client and through node:http, above a bare start', () => {
  const run = spawnSync(process.execPath, [tool('read-cpu'), '--packages', '4', '--runs', '1'], { encoding: 'utf8', timeout: 120_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines[0]).toBe('4 mail reads (one per package), 10 in flight; process CPU, median of 1 runs:');
  expect(lines[1]).toMatch(/^ {2}bare \(start, client loaded, one list read\): [0-9.]+ s$/);
  expect(lines[2]).toMatch(/^ {2}client: [0-9.]+ s; the reads -?[0-9.]+ s, -?[0-9]+ us each$/);
  expect(lines[3]).toMatch(/^ {2}node-http: [0-9.]+ s; the reads -?[0-9.]+ s, -?[0-9]+ us each$/);
});

test('read-cpu: an unknown argument is refused', () => {
  const run = spawnSync(process.execPath, [tool('read-cpu'), '--fast'], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('read-cpu: unexpected argument --fast');
});
