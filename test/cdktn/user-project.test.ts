import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import { E2E_TIMEOUT_MS, E2EEmulator, planExitCode, requireTerraform, stackEnv, startE2EEmulator, tempDir, terraform } from '../e2e/support';
import { createUserProject, packLibrary, repoVersion, UserProject } from './user-project';

/**
 * The library as users get it: `npm pack`, installed into a new project with only
 * cdktn (CDK Terrain) and constructs, or only cdktf and constructs. The example stack,
 * compiled and run there, synthesizes the same Terraform JSON under both, and the
 * cdktn one deploys with the real `terraform` against the emulator (the handler run
 * by its provisioners is the packed one, in the project's node_modules).
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const API_KEY = 'cdktn-user-project-key-5d1e';
const PASSWORD = 'Cdktn-Mailbox-Passw0rd!';

let binary: string;
let dir: string;
let cdktn: UserProject;
let cdktf: UserProject;
let emu: E2EEmulator;

beforeAll(async () => {
  binary = requireTerraform();
  dir = tempDir('cdktn-user');
  const tarball = packLibrary(dir);
  cdktn = createUserProject(join(dir, 'cdktn-app'), tarball, 'cdktn');
  cdktf = createUserProject(join(dir, 'cdktf-app'), tarball, 'cdktf');
  emu = await startE2EEmulator({ dir, apiKey: API_KEY, provisionDelayMs: 300 });
}, 240_000);
afterAll(() => emu?.stop());

/** Every package npm installed in the project (its lockfile's `packages`, the whole tree). */
function installedNames(project: UserProject): Set<string> {
  const lock = JSON.parse(readFileSync(join(project.dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return new Set(Object.keys(lock.packages).filter((path) => path !== '').map((path) => path.replace(/^.*node_modules\//, '')));
}

/**
 * The JSON without what legitimately differs: the CDK version stamp, and the relative
 * path from the stack directory to the package's handler (where the package sits).
 */
function comparable(json: unknown): unknown {
  const text = JSON.stringify(json).replace(/"[^"]*\/bin\/reseller-hosting\.js"/g, '"<package>/bin/reseller-hosting.js"');
  const copy = JSON.parse(text);
  delete copy['//'].metadata.version;
  return copy;
}

test('installing the packed library brings in no cdktf with cdktn, and no cdktn with cdktf', () => {
  const withCdktn = installedNames(cdktn);
  expect(withCdktn.has('cdktn')).toBe(true);
  expect(withCdktn.has('cdktf-reseller-hosting')).toBe(true);
  expect([...withCdktn].filter((n) => n === 'cdktf' || n.startsWith('@cdktf/'))).toEqual([]);
  expect(existsSync(join(cdktn.dir, 'node_modules', 'cdktf'))).toBe(false);

  const withCdktf = installedNames(cdktf);
  expect(withCdktf.has('cdktf')).toBe(true);
  expect([...withCdktf].filter((n) => n === 'cdktn' || n.startsWith('@cdktn/'))).toEqual([]);
});

test('the example stack synthesizes identically under cdktn and cdktf, apart from the version stamp', () => {
  const underCdktn = cdktn.synthExample().json;
  const underCdktf = cdktf.synthExample().json;
  // Each really ran on its own CDK package: the stamp is that package's version.
  expect(underCdktn['//'].metadata.version).toBe(repoVersion('cdktn'));
  expect(underCdktf['//'].metadata.version).toBe(repoVersion('cdktf'));
  expect(repoVersion('cdktn')).not.toBe(repoVersion('cdktf'));

  expect(comparable(underCdktn)).toEqual(comparable(underCdktf));
  // And the same as this repository's own synth (cdktf, sources under ts-jest).
  expect(comparable(underCdktn)).toEqual(comparable(synthExample({ engine: 'provider' }).json));
  // Not trivially equal: the whole example is there (one reseller_* resource per construct).
  expect(Object.values(underCdktn.resource as Record<string, object>).flatMap((byName) => Object.keys(byName)).length).toBeGreaterThanOrEqual(9);
});

test('under cdktn the example stack deploys with real Terraform, and a second plan is empty', async () => {
  const { stackDir } = cdktn.synthExample();
  const env = stackEnv({ url: emu.url, apiKey: API_KEY, password: PASSWORD, journalDir: join(dir, 'journal') });
  await terraform(binary, ['init', '-input=false', '-no-color'], stackDir, env);
  await terraform(binary, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env);

  const account = emu.account();
  expect(account.packages.map((p) => p.name).sort()).toEqual(['app.example-shop.com', 'example-blog.com', 'example-shop.com']);
  expect(mailOf(account, 'example-shop.com').mailboxes.map((m) => m.local).sort()).toEqual(['info', 'orders']);
  expect(mailOf(account, 'example-shop.com').forwarders.map((f) => `${f.local}->${f.remote}`)).toEqual(['sales->sales-team@example.org']);
  expect(account.cloudServers.map((s) => s.name)).toEqual(['web1.example-shop.com']);

  expect((await planExitCode(binary, stackDir, env)).code).toBe(0);
});
