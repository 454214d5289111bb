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
