import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { readZip, writeZip, ZipEntry } from '../../src/provider-mirror';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { synthStacks } from './stacks';
import { builtExecutables, cliConfig, INSTALL_TIMEOUT_MS, providerEnv, tempDir, terraform, terraformOk } from './support';

/**
 * Installation 4: a pipeline whose synth job hands the stack directory to a separate
 * apply job as an artifact. Artifact uploads keep no file modes (the stack arrives as a
 * zip whose entries carry none, and every file comes out 0644). A stack synthesized for
 * the executables works: they are placed as the release zips, whose entry inside keeps
 * its mode for Terraform's unzip. A stack with the Node launcher stops at once.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

let emu: TestEmulator;
let stacks: Record<string, string>;

beforeAll(async () => {
  builtExecutables();
  emu = await startTestEmulator();
  stacks = synthStacks(tempDir('synth'), [
    { name: 'artifact-carriers', engine: 'terraform_data', domain: 'artifact.example.com', providerPlatforms: ['linux_amd64'] },
    { name: 'artifact-launcher', engine: 'provider', domain: 'artifact-launcher.example.com' },
  ]);
});

afterAll(async () => {
  await emu?.stop();
});

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The stack directory through an artifact upload and download: zipped without modes, unzipped elsewhere. */
function throughArtifact(stackDir: string): string {
  const entries: ZipEntry[] = files(stackDir).map((f) => ({ name: relative(stackDir, f), data: readFileSync(f) }));
  const artifact = writeZip(entries, 1);
  const jobDir = join(tempDir('apply-job'), 'stack');
  for (const entry of readZip(artifact)) {
    expect(entry.mode).toBeUndefined();
    mkdirSync(dirname(join(jobDir, entry.name)), { recursive: true });
    writeFileSync(join(jobDir, entry.name), entry.data, { mode: 0o644 });
  }
  for (const f of files(jobDir)) expect(statSync(f).mode & 0o111).toBe(0);
  return jobDir;
}

test('a stack synthesized for the executables, received as a zip artifact without file modes, applies with Terraform alone', async () => {
  const jobDir = throughArtifact(stacks['artifact-carriers']);
  const tf = { cwd: jobDir, cliConfig: cliConfig(tempDir('cli')), env: providerEnv(emu.url) };
  await terraformOk(['init', '-input=false'], tf);
  await terraformOk(['apply', '-auto-approve', '-input=false'], tf);
  expect(emu.account().packages.map((p) => p.name)).toContain('artifact.example.com');
  expect(await terraform(['plan', '-input=false', '-detailed-exitcode'], tf)).toMatchObject({ code: 0 });
});

test('a launcher stack received the same way stops at the first plan, naming the launcher that cannot run', async () => {
  const jobDir = throughArtifact(stacks['artifact-launcher']);
  const tf = { cwd: jobDir, cliConfig: cliConfig(tempDir('cli')), env: providerEnv(emu.url) };
  await terraformOk(['init', '-input=false'], tf);
  const plan = await terraform(['plan', '-input=false'], tf);
  expect(plan.code).toBe(1);
  // The file has lost its run bit, so nothing of ours can speak: Terraform names it.
  expect(plan.output.replace(/\s+/g, ' ')).toMatch(/terraform-provider-reseller_v[\d.]+: permission denied/);
  expect(emu.account().packages.map((p) => p.name)).not.toContain('artifact-launcher.example.com');
});
