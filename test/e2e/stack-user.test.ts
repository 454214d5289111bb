import { join } from 'node:path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { runDriftCli } from '../../src/commands/drift';
import { runImportCli } from '../../src/commands/import';
import type { DriftDocument } from '../../src/commands/drift/report';
import { HostingPackage, ResellerHosting, StackUser } from '../../src';
import { DEFAULT_API_KEY } from '../../src/emulator';
import { apiEnv, capture } from '../drift/helpers';
import {
  E2E_TIMEOUT_MS, E2EEmulator, planExitCode, requireTerraform, stackEnv, startE2EEmulator, tempDir, terraform,
} from './support';

/**
 * The fifth kind, StackUser, through the REAL Terraform engine with the provisioner
 * carriers: created, adopted by e-mail, linked to a package (which waits for it),
 * a name change reported by drift (the API cannot change it), deleted when declared
 * absent, and imported with `import --users`.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

interface Options {
  readonly personName?: string;
  readonly ownerAbsent?: boolean;
}

let tf: string;
let emu: E2EEmulator;
let outdir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;
let journalDir: string;

beforeAll(async () => {
  tf = requireTerraform();
  const dir = tempDir('stack-user');
  emu = await startE2EEmulator({ dir, provisionDelayMs: 50 });
  outdir = join(dir, 'cdktf.out');
  journalDir = join(dir, 'journal');
  env = stackEnv({ url: emu.url, apiKey: DEFAULT_API_KEY, journalDir });
});
afterAll(() => emu?.stop());

function synth(options: Options = {}): void {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'users');
  new LocalBackend(stack, { path: 'terraform.tfstate' });
  new ResellerHosting(stack, 'reseller', { engine: 'terraform_data' });
  const owner = new StackUser(stack, 'owner', { email: 'New.Owner@Example.com', personName: options.personName ?? 'New Owner', absent: options.ownerAbsent });
  new StackUser(stack, 'known', { email: 'OWNER@example.com' }); // the fixture user stack-user:989901: adopted
  new HostingPackage(stack, 'site', {
    domainName: 'users-site.example.com', packageType: 'Linux Starter', stackUser: owner, absent: options.ownerAbsent,
  });
  app.synth();
  stackDir = join(outdir, 'stacks', 'users');
}

const apply = () => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env);
const users = () => Object.values(emu.account().users) as unknown as Array<{ id: number; contact: { email: string; person_name: string } }>;
const userByEmail = (email: string) => users().find((u) => u.contact.email.toLowerCase() === email.toLowerCase());
const drift = async (args: string[] = []) => {
  const run = await capture(runDriftCli, ['--stacks', outdir, '--json', ...args], apiEnv(emu.url, journalDir));
  return { ...run, doc: JSON.parse(run.stdout) as DriftDocument };
};

test('apply creates the new user, adopts the existing one, and links the package to the new user (after creating it)', async () => {
  const before = users().length;
  synth();
  await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env);
  const result = await apply();
  expect(result.stdout).toMatch(/created stack user New\.Owner@example\.com \(stack-user:[0-9]+\)/);
  expect(result.stdout).toMatch(/adopted stack user owner@example\.com \(stack-user:989901\)/);
  expect(users()).toHaveLength(before + 1);
  const created = userByEmail('new.owner@example.com')!;
  expect(created.contact.person_name).toBe('New Owner');
  const site = emu.account().packages.find((p) => p.name === 'users-site.example.com')!;
  expect(site.stackUsers).toEqual([`stack-user:${created.id}`]);
  expect((await planExitCode(tf, stackDir, env)).code).toBe(0);
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(0);
  expect(doc.objects.filter((o) => o.kind === 'stack-user').map((o) => [o.key, o.status])).toEqual([
    ['new.owner@example.com', 'in-sync'], ['owner@example.com', 'in-sync'],
  ]);
});

test('a name change is reported by drift and never presented as done: the API cannot change it', async () => {
  synth({ personName: 'Renamed Owner' });
  const result = await apply();
  expect(result.stderr + result.stdout).toMatch(/the API cannot change a user's name after creation/);
  expect(userByEmail('new.owner@example.com')!.contact.person_name).toBe('New Owner');
  const { doc, code } = await drift(['--detailed-exitcode']);
  expect(code).toBe(2);
  expect(doc.objects.find((o) => o.key === 'new.owner@example.com')).toMatchObject({
    status: 'changed', diffs: [{ field: 'personName', declared: 'Renamed Owner', live: 'New Owner' }],
  });
});

test('import --users declares the users, and packages refer to them', async () => {
  const out = await capture(runImportCli, ['--users'], apiEnv(emu.url, journalDir));
  expect(out.code).toBe(0);
  expect(out.stderr).toMatch(/, 3 stack user\(s\)/);
  expect(out.stdout).toContain("import { HostingPackage, StackUser } from 'cdktf-reseller-hosting';");
  const created = userByEmail('new.owner@example.com')!;
  expect(out.stdout).toMatch(new RegExp(`const (user_new_owner_example_com) = new StackUser\\(this, 'user_new_owner_example_com', \\{ email: 'New\\.Owner@example\\.com', personName: 'New Owner' \\}\\); // stack-user:${created.id}`));
  expect(out.stdout).toMatch(/'pkg_users_site_example_com', \{\n\s+domainName: 'users-site\.example\.com',\n\s+packageType: 'Linux Starter',\n\s+stackUser: user_new_owner_example_com,/);
});

test('declared absent: the package and then the user are deleted; the adopted user stays', async () => {
  synth({ personName: 'New Owner', ownerAbsent: true });
  await apply();
  expect(userByEmail('new.owner@example.com')).toBeUndefined();
  expect(emu.account().packages.find((p) => p.name === 'users-site.example.com')).toBeUndefined();
  expect(userByEmail('owner@example.com')).toBeDefined();
  const { doc } = await drift();
  expect(doc.objects.find((o) => o.key === 'new.owner@example.com')?.status).toBe('absent');
});
