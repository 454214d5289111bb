import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { builtExecutables } from '../install/support';

/**
 * A smoke run of bench/executable.ts (the provider executables' figures): the sizes
 * and one round of start-up, from this run's executables. The plan figure is the same
 * plumbing as plan-cpu.ts and runs for BENCHMARKS.md only.
 */
jest.setTimeout(180_000);

test('bench/executable prints the sizes of both platforms and a start-up row against node -e 0', () => {
  const exe = builtExecutables();
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'bench', 'executable.js'), '--only', 'sizes,startup', '--startup-runs', '1', '--executables', exe.dir], {
    encoding: 'utf8', timeout: 170_000,
  });
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/\| linux_amd64 \| \d+\.\d MB \| \d+\.\d MB \| yes \| natively \|/);
  expect(run.stdout).toMatch(/\| linux_arm64 \| \d+\.\d MB \| \d+\.\d MB \|/);
  expect(run.stdout).toMatch(/\| NODE_EXTRA_CA_CERTS unset; load\/core [\d.]+ \| \d+ ms \| \d+ ms \|.*\| [\d.]+x \| [\d.]+x \| [\d.]+x \|/);
});
