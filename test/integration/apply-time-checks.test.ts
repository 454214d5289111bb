import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { runHandler } from '../helpers/run-handler';
import { tempDir } from './support';

/**
 * A value that was a Terraform token at synth reaches the handler resolved: the kind's
 * definition checks it with the same rules as a literal prop, before any request.
 */
let emu: TestEmulator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator();
  env = { ...handlerEnv(emu.url, tempDir('journal-')), RESELLER_HANDLER_HOST: 'off' };
});
afterAll(() => emu?.stop());

const pkg = { kind: 'package', path: 'Stack/site', domainName: 'checks.example.com', extraDomainNames: [], packageType: 'Linux Starter', documentRoots: {}, enabled: true };

test('a 300-character label from a variable is refused with the path, the field and the rule, and nothing is written', async () => {
  await emu.control('DELETE', 'requests');
  const run = await runHandler('ensure', { ...pkg, label: 'x'.repeat(300) }, env);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe('error: Stack/site: label is 300 characters long; at most 255 are allowed\n');
  expect(await emu.control('GET', 'requests')).toEqual([]);
});

test('a package on the account needs a type (one on a cloud server does not: see reconcile-entry.test.ts)', async () => {
  const { packageType, ...untyped } = pkg;
  expect(packageType).toBeDefined();
  const run = await runHandler('ensure', untyped, env);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^error: Stack\/site: packageType must be a package type name/);
});

test('a stack user spec is checked too', async () => {
  const run = await runHandler('ensure', { kind: 'stack-user', path: 'Stack/owner', email: 'not-an-email' }, env);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^error: Stack\/owner: email "not-an-email" is not an e-mail address/);
});

test('a failed delete names the construct path, found in the stack Terraform runs in', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { spawn } = await import('node:child_process');
  const { REPO_ROOT } = await import('../../scripts/lib/terraform');
  const create = await runHandler('ensure', { ...pkg, path: 'Stack/doomed', domainName: 'doomed.example.com' }, env);
  expect(create.code).toBe(0);
  const dir = tempDir('stack-');
  mkdirSync(dir, { recursive: true });
  const identity = { kind: 'package', key: 'doomed.example.com', placement: '', parent: '' };
  writeFileSync(join(dir, 'cdk.tf.json'), JSON.stringify({
    resource: { terraform_data: { doomed: { '//': { metadata: { path: 'Stack/doomed/Object' } }, triggers_replace: identity } } },
  }));
  await emu.control('POST', 'faults', { rules: [{ method: 'POST', path: 'deleteWeb', status: 400 }] });
  try {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), 'handler', 'delete'], {
        cwd: dir, env: { ...env, RESELLER_SPEC: JSON.stringify(identity) },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Stack\/doomed: delete package doomed\.example\.com: /);
  } finally {
    await emu.control('DELETE', 'faults');
  }
});
