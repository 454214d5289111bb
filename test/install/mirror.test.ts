import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesHash, readZip } from '../../src/provider-mirror';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import {
  builtExecutables, cliConfig, Executables, INSTALL_TIMEOUT_MS, providerEnv, tempDir, terraform, terraformOk, writeHclConfig,
} from './support';

/**
 * Installation 1: a packed filesystem mirror, as a team keeps one on a share or in the
 * repository. The release zips sit in `<mirror>/<host>/<namespace>/reseller/`;
 * `terraform providers lock -fs-mirror` records both platforms' hashes, and
 * `terraform init` (through a `filesystem_mirror` block) checks the zip against them.
 * No node on PATH, an empty HOME.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

const SOURCE = 'registry.example.com/acme/reseller';
let exe: Executables;
let emu: TestEmulator;

beforeAll(async () => {
  exe = builtExecutables();
  emu = await startTestEmulator();
});

afterAll(async () => {
  await emu?.stop();
});

test('a packed filesystem mirror, locked for linux_amd64 and linux_arm64, installs, checks and runs the executable', async () => {
  const root = tempDir('mirror');
  const mirror = join(root, 'mirror');
  const typeDir = join(mirror, ...SOURCE.split('/'));
  mkdirSync(typeDir, { recursive: true });
  for (const platform of ['linux_amd64', 'linux_arm64']) copyFileSync(exe.zip(platform), join(typeDir, basename(exe.zip(platform))));
  const work = join(root, 'work');
  mkdirSync(work);
  writeHclConfig(work, { source: SOURCE, version: exe.version, domain: 'mirror.example.com' });
  const config = cliConfig(root, `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.example.com/*/*"]\n  }\n}\n`);
  const tf = { cwd: work, cliConfig: config, env: providerEnv(emu.url) };

  // docs/install.md's recipe as written, with this mirror's path: the lock, then init.
  const [lockCommand, initCommand] = mirrorRecipe(mirror);
  expect(lockCommand).toEqual(['providers', 'lock', `-fs-mirror=${mirror}`, '-platform=linux_amd64', '-platform=linux_arm64']);
  await terraformOk(lockCommand, tf);
  const lock = readFileSync(join(work, '.terraform.lock.hcl'), 'utf8');
  for (const platform of ['linux_amd64', 'linux_arm64']) {
    const zip = readFileSync(exe.zip(platform));
    // Terraform's own hash of each platform's package: the same as synth and the release compute.
    expect(lock).toContain(filesHash(readZip(zip)));
  }
  expect(lock.match(/"h1:/g)).toHaveLength(2);
  expect(lock).toContain(`version     = "${exe.version}"`);

  expect(initCommand).toEqual(['init']);
  const init = await terraformOk(initCommand, tf);
  expect(init.output).toContain(`Installed ${SOURCE} v${exe.version}`);
  await terraformOk(['apply', '-auto-approve', '-input=false'], tf);
  const pkg = emu.account().packages.find((p) => p.name === 'mirror.example.com');
  expect(pkg).toBeDefined();
  expect(await terraform(['plan', '-detailed-exitcode', '-input=false'], tf)).toMatchObject({ code: 0 });

  // init checks the lock: a lock whose linux_amd64 hash is another package's refuses the zip.
  const other = filesHash([{ name: 'terraform-provider-reseller', data: Buffer.from('another build') }]);
  writeFileSync(join(work, '.terraform.lock.hcl'), lock.replace(filesHash(readZip(readFileSync(exe.zip('linux_amd64')))), other));
  const tampered = join(root, 'work2');
  mkdirSync(tampered);
  writeHclConfig(tampered, { source: SOURCE, version: exe.version, domain: 'mirror.example.com' });
  copyFileSync(join(work, '.terraform.lock.hcl'), join(tampered, '.terraform.lock.hcl'));
  const refused = await terraform(['init', '-input=false'], { ...tf, cwd: tampered });
  expect(refused.code).toBe(1);
  expect(refused.output.replace(/\s+/g, ' ')).toMatch(/doesn't match any of the checksums previously recorded in the dependency lock file/);
});

/** The commands of docs/install.md's mirror recipe (`<!-- recipe: mirror -->`), Terraform's arguments each, its mirror path replaced. */
function mirrorRecipe(mirror: string): string[][] {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'install.md'), 'utf8');
  const block = /<!-- recipe: mirror -->\n```sh\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/install.md has no block marked <!-- recipe: mirror -->');
  return block[1].trim().split('\n').map((line) => {
    const [command, ...args] = line.replace('/opt/terraform/mirror', mirror).trim().split(/\s+/);
    if (command !== 'terraform') throw new Error(`docs/install.md's mirror recipe runs ${command}, not terraform`);
    return args;
  });
}
