import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, TERRAFORM_INSTALL_HINT } from '../../scripts/lib/terraform';
import { E2E_TIMEOUT_MS, requireTerraform, tempDir } from './support';

/**
 * Without Terraform (or OpenTofu) the end-to-end tests FAIL with the install hint; they
 * never skip, so a CI image that lost Terraform cannot pass `npm test` silently.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

/** A PATH that holds `node` and nothing else (no terraform, no tofu). */
function pathWithoutTerraform(): string {
  const bin = join(tempDir('no-terraform'), 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

test('requireTerraform() throws the install hint when neither terraform nor tofu is on PATH', () => {
  const saved = { PATH: process.env.PATH, TERRAFORM_BINARY: process.env.TERRAFORM_BINARY };
  process.env.PATH = pathWithoutTerraform();
  delete process.env.TERRAFORM_BINARY;
  try {
    expect(() => requireTerraform()).toThrow(TERRAFORM_INSTALL_HINT);
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.TERRAFORM_BINARY === undefined) delete process.env.TERRAFORM_BINARY;
    else process.env.TERRAFORM_BINARY = saved.TERRAFORM_BINARY;
  }
  expect(TERRAFORM_INSTALL_HINT).toMatch(/Terraform >= 1\.10 \(or OpenTofu >= 1\.11\) must be on PATH/);
});

test('an e2e suite run without Terraform fails every test with that message (no skips)', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutTerraform(), CI: 'true' };
  delete env.TERRAFORM_BINARY;
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--runInBand', 'test/e2e/lifecycle.test.ts'], {
    cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000,
  });
  const output = `${run.stdout}${run.stderr}`;
  expect({ status: run.status, output }).toEqual({ status: 1, output: expect.stringContaining(TERRAFORM_INSTALL_HINT) });
  expect(output).toMatch(/Tests:\s+14 failed, 14 total/); // 7 cases x 2 engines (test/e2e/engine-cases.ts)
  expect(output).not.toMatch(/skipped/);
});
