import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRelease } from '../../scripts/executables/release';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { readZip, writeZip } from '../../src/provider-mirror';
import { startTestEmulator, TestEmulator } from '../helpers/emulator';
import { detachSign, makeSigningKey, PrivateRegistry, SigningKey, startPrivateRegistry } from './registry';
import {
  builtExecutables, cliConfig, Executables, INSTALL_TIMEOUT_MS, providerEnv, tempDir, terraform, terraformOk, writeHclConfig,
} from './support';

/**
 * Installation 2: a private registry, as HCP Terraform's private registry or any other
 * serves providers, and the public registry's layout. `npm run release` writes the
 * release (zips, SHA256SUMS, its detached signature, the manifest); a loopback HTTPS
 * server speaks the provider registry protocol with it; `terraform init` downloads the
 * zip, verifies the signature with the published key and the zip against the sums, and
 * the provider applies against the emulator. A zip that does not match its sum and a
 * signature by another key stop `init`. No node on PATH, an empty HOME.
 */
jest.setTimeout(INSTALL_TIMEOUT_MS);

const NAMESPACE = 'acme';
let exe: Executables;
let emu: TestEmulator;
let registry: PrivateRegistry;
let root: string;
let key: SigningKey;
let releaseDir: string;

beforeAll(async () => {
  exe = builtExecutables();
  root = tempDir('registry');
  key = makeSigningKey(privateDir(join(root, 'gnupg')), 'Reseller Release');
  const release = writeRelease({ env: { RESELLER_RELEASE_GPG_KEY: key.secret }, outDir: join(root, 'release'), executablesDir: exe.dir, log: () => undefined });
  releaseDir = release.dir;
  registry = await startPrivateRegistry(root);
  emu = await startTestEmulator();
});

afterAll(async () => {
  await emu?.stop();
  await registry?.close();
});

function privateDir(dir: string): string {
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

const prefix = () => `terraform-provider-reseller_${exe.version}`;

/** A new working directory requiring the provider from the registry, and how to run terraform in it. */
function workspace(name: string, domain: string) {
  const work = join(root, name);
  mkdirSync(work);
  writeHclConfig(work, { source: `${registry.host}/${NAMESPACE}/reseller`, version: exe.version, domain });
  return { cwd: work, cliConfig: cliConfig(work), env: { ...providerEnv(emu.url), SSL_CERT_FILE: registry.certFile } };
}

test('npm run release writes the registry layout: a zip per platform, the manifest, SHA256SUMS and its detached signature', () => {
  expect(readdirSync(releaseDir).sort()).toEqual([
    `${prefix()}_SHA256SUMS`,
    `${prefix()}_SHA256SUMS.sig`,
    `${prefix()}_linux_amd64.zip`,
    `${prefix()}_linux_arm64.zip`,
    `${prefix()}_manifest.json`,
  ]);
  expect(JSON.parse(readFileSync(join(releaseDir, `${prefix()}_manifest.json`), 'utf8'))).toEqual({ version: 1, metadata: { protocol_versions: ['6.0'] } });
  const sums = readFileSync(join(releaseDir, `${prefix()}_SHA256SUMS`), 'utf8');
  expect(sums.trim().split('\n').map((l) => l.split('  ')[1])).toEqual([`${prefix()}_linux_amd64.zip`, `${prefix()}_linux_arm64.zip`, `${prefix()}_manifest.json`]);
  const verify = spawnSync('gpg', ['--homedir', key.home, '--batch', '--verify', join(releaseDir, `${prefix()}_SHA256SUMS.sig`), join(releaseDir, `${prefix()}_SHA256SUMS`)], { encoding: 'utf8' });
  expect(verify.status).toBe(0);
  // Each zip holds the executable alone, executable.
  for (const platform of ['linux_amd64', 'linux_arm64']) {
    expect(readZip(readFileSync(join(releaseDir, `${prefix()}_${platform}.zip`))).map((e) => [e.name, e.mode])).toEqual([[`terraform-provider-reseller_v${exe.version}`, 0o755]]);
  }
});

test('a release without a signing key refuses with one line naming the variable', () => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.RESELLER_RELEASE_GPG_KEY;
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'scripts', 'executables', 'release.js')], { cwd: root, env, encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^npm run release: RESELLER_RELEASE_GPG_KEY is not set: set it to the ASCII-armored private key/)]);
  expect(run.stdout).toBe('');
});

test('terraform init installs from the private registry, verifying the signature and the sum; the provider applies', async () => {
  registry.publish({ namespace: NAMESPACE, type: 'reseller', version: exe.version, releaseDir, keyId: key.keyId, publicKey: key.publicKey });
  const tf = workspace('good', 'registry.example.com');
  const init = await terraformOk(['init', '-input=false'], tf);
  expect(init.output).toContain(`Installed ${registry.host}/${NAMESPACE}/reseller v${exe.version} (self-signed, key ID ${key.keyId.toUpperCase()})`);
  expect(registry.requests).toEqual(expect.arrayContaining([
    `/files/${prefix()}_SHA256SUMS`, `/files/${prefix()}_SHA256SUMS.sig`, `/files/${prefix()}_linux_amd64.zip`,
  ]));
  const lock = readFileSync(join(tf.cwd, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toMatch(/"zh:[0-9a-f]{64}"/); // the registry's signed sums: every platform's zip hash
  await terraformOk(['apply', '-auto-approve', '-input=false'], tf);
  expect(emu.account().packages.map((p) => p.name)).toContain('registry.example.com');
  expect(await terraform(['plan', '-detailed-exitcode', '-input=false'], tf)).toMatchObject({ code: 0 });
});

test('a zip that does not match its SHA256SUMS line stops terraform init', async () => {
  const zipName = `${prefix()}_linux_amd64.zip`;
  const original = readZip(readFileSync(join(releaseDir, zipName)))[0];
  const tampered = writeZip([{ ...original, data: Buffer.concat([original.data, Buffer.from('tampered')]) }]);
  registry.publish({ namespace: NAMESPACE, type: 'reseller', version: exe.version, releaseDir, keyId: key.keyId, publicKey: key.publicKey, replace: { [zipName]: tampered } });
  const r = await terraform(['init', '-input=false'], workspace('bad-sum', 'bad-sum.example.com'));
  expect(r.code).toBe(1);
  expect(r.output.replace(/\s+/g, ' ')).toMatch(/archive has incorrect checksum zh:[0-9a-f]{64} \(expected zh:[0-9a-f]{64}\)/);
  expect(existsSync(join(root, 'bad-sum', '.terraform', 'providers'))).toBe(false);
});

test('a signature by another key than the published one stops terraform init', async () => {
  const other = makeSigningKey(privateDir(join(root, 'gnupg-other')), 'Someone Else');
  const sums = `${prefix()}_SHA256SUMS`;
  registry.publish({
    namespace: NAMESPACE, type: 'reseller', version: exe.version, releaseDir, keyId: key.keyId, publicKey: key.publicKey,
    replace: { [`${sums}.sig`]: detachSign(other, join(releaseDir, sums)) },
  });
  const r = await terraform(['init', '-input=false'], workspace('other-key', 'other-key.example.com'));
  expect(r.code).toBe(1);
  expect(r.output.replace(/\s+/g, ' ')).toMatch(/authentication signature from unknown issuer/);
  expect(existsSync(join(root, 'other-key', '.terraform', 'providers'))).toBe(false);
});
