import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { EXECUTABLE_PLATFORMS } from '../../src/provider-mirror';
import { PROVIDER_TYPE } from '../../src/protocol';
import { REPO_ROOT } from '../lib/terraform';
import { buildExecutables } from './build';
import { writePlatformPackage } from './npm-packages';

/**
 * `npm run release`: the provider's release in the layout the public Terraform
 * Registry, HCP Terraform's private registry and any registry speaking the provider
 * registry protocol expect, in dist/release/<version>/:
 *
 *   terraform-provider-reseller_<v>_<os>_<arch>.zip   one per platform
 *   terraform-provider-reseller_<v>_manifest.json      {"version": 1, "metadata": {"protocol_versions": ["6.0"]}}
 *   terraform-provider-reseller_<v>_SHA256SUMS         "<sha256>  <file>" for each of the above
 *   terraform-provider-reseller_<v>_SHA256SUMS.sig     detached binary GPG signature of the sums
 *
 * and beside it dist/release/<v>-signing-key.json ({key_id, ascii_armor}: what a
 * registry publishes as the release's signing key) and dist/release/<v>-npm/<name>/,
 * one npm package per platform holding its zip (npm-packages.ts), for synth's
 * `providerPlatforms`. The signing key comes from the
 * environment (an ASCII-armored private key, as CI secrets hold one); it is imported
 * into a throw-away GnuPG home and never written anywhere else.
 */

export const SIGNING_KEY_VARIABLE = 'RESELLER_RELEASE_GPG_KEY';
export const PASSPHRASE_VARIABLE = 'RESELLER_RELEASE_GPG_PASSPHRASE';
const MANIFEST = { version: 1, metadata: { protocol_versions: ['6.0'] } };

export interface Release {
  readonly dir: string;
  readonly files: string[];
  readonly keyId: string;
  readonly publicKey: string;
  /** The npm package directories, one per platform (`npm publish <dir>`). */
  readonly npmPackages: string[];
}

export class ReleaseError extends Error {}

function gpg(home: string, args: string[], input?: string): string {
  const r = spawnSync('gpg', ['--homedir', home, '--batch', '--no-tty', ...args], { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') throw new ReleaseError('gpg is not on PATH: install GnuPG (apt-get install gnupg) to sign the release');
  if (r.status !== 0) throw new ReleaseError(`gpg ${args.filter((a) => !a.startsWith('-')).slice(-1)[0] ?? ''} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return r.stdout;
}

/** Signs `file` with the key in the environment; returns the signature's path and the key's id and public half. */
function sign(file: string, env: NodeJS.ProcessEnv): { signature: string; keyId: string; publicKey: string } {
  const home = mkdtempSync(join(tmpdir(), 'reseller-release-gpg-'));
  try {
    gpg(home, ['--import'], env[SIGNING_KEY_VARIABLE]);
    const secret = gpg(home, ['--with-colons', '--list-secret-keys']).split('\n').find((l) => l.startsWith('sec:'));
    const keyId = secret?.split(':')[4];
    if (!keyId) throw new ReleaseError(`${SIGNING_KEY_VARIABLE} holds no private key (gpg --armor --export-secret-keys KEYID gives one)`);
    const passphrase = env[PASSPHRASE_VARIABLE];
    const signature = `${file}.sig`;
    const passArgs = passphrase ? ['--pinentry-mode', 'loopback', '--passphrase-fd', '0'] : [];
    gpg(home, [...passArgs, '--yes', '--local-user', keyId, '--output', signature, '--detach-sign', file], passphrase);
    gpg(home, ['--verify', signature, file]);
    return { signature, keyId, publicKey: gpg(home, ['--armor', '--export', keyId]) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Writes the release; refuses, naming the variable, when no signing key is given. */
export function writeRelease(options: { env?: NodeJS.ProcessEnv; outDir?: string; executablesDir?: string; log?: (line: string) => void } = {}): Release {
  const env = options.env ?? process.env;
  if (!env[SIGNING_KEY_VARIABLE]?.trim()) {
    throw new ReleaseError(
      `${SIGNING_KEY_VARIABLE} is not set: set it to the ASCII-armored private key that signs the release ` +
        `(gpg --armor --export-secret-keys KEYID; its passphrase, if any, in ${PASSPHRASE_VARIABLE}). ` +
        'Terraform verifies SHA256SUMS.sig against the public key the registry publishes, so a release cannot go unsigned.',
    );
  }
  const report = buildExecutables({ outDir: options.executablesDir, log: options.log });
  const { version } = report;
  const dir = join(options.outDir ?? join(REPO_ROOT, 'dist', 'release'), version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const prefix = `terraform-provider-${PROVIDER_TYPE}_${version}`;
  const files: string[] = [];
  const npmDir = join(dir, '..', `${version}-npm`);
  rmSync(npmDir, { recursive: true, force: true });
  const npmPackages: string[] = [];
  for (const platform of EXECUTABLE_PLATFORMS) {
    const built = report.platforms.find((p) => p.platform === platform);
    if (!built) throw new ReleaseError(`the build made no ${platform} executable`);
    const target = join(dir, basename(built.zip));
    copyFileSync(built.zip, target);
    files.push(target);
    npmPackages.push(writePlatformPackage(npmDir, platform, version, target));
  }
  const manifest = join(dir, `${prefix}_manifest.json`);
  writeFileSync(manifest, `${JSON.stringify(MANIFEST, null, 2)}\n`);
  files.push(manifest);
  const sums = join(dir, `${prefix}_SHA256SUMS`);
  writeFileSync(sums, files.map((f) => `${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${basename(f)}\n`).join(''));
  const { signature, keyId, publicKey } = sign(sums, env);
  writeFileSync(join(dir, '..', `${version}-signing-key.json`), `${JSON.stringify({ key_id: keyId, ascii_armor: publicKey }, null, 2)}\n`);
  return { dir, files: [...files, sums, signature], keyId, publicKey, npmPackages };
}

if (require.main === module) {
  try {
    const release = writeRelease();
    process.stdout.write(`${release.dir} (signed by key ${release.keyId}):\n${release.files.map((f) => `  ${basename(f)}\n`).join('')}`);
    process.stdout.write(`npm packages (npm publish <dir>):\n${release.npmPackages.map((d) => `  ${d}\n`).join('')}`);
  } catch (err) {
    process.stderr.write(`npm run release: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
