import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findTerraform } from '../../scripts/lib/terraform';
import { releaseZipName } from '../../src/provider-mirror';
import { providerExecutableName } from '../../src/protocol';

/**
 * How users install the provider, with real Terraform and nothing else: every
 * Terraform command of these tests runs with a PATH that holds `terraform` alone (no
 * `node`: the provider and the carriers must not need it), an empty HOME of its own
 * (nothing from an earlier synth or run), and a CLI configuration the test writes.
 * The executables are built once per run by test/helpers/global-setup.js.
 */
export const INSTALL_TIMEOUT_MS = 600_000;
export const API_KEY = 'emulator-key';

export interface Executables {
  readonly dir: string;
  readonly version: string;
  zip(platform: string): string;
  executable(platform: string): string;
}

/** The executables of this run, or a failure naming why there are none (never a skip). */
export function builtExecutables(): Executables {
  const failed = process.env.RESELLER_EXECUTABLES_BUILD_ERROR;
  if (failed) throw new Error(`the provider executables were not built for this run: ${failed}`);
  const dir = process.env.RESELLER_PROVIDER_EXECUTABLES;
  if (!dir || !existsSync(join(dir, 'build.json'))) {
    throw new Error("RESELLER_PROVIDER_EXECUTABLES names no built executables: run the tests through jest's globalSetup (npm test) after 'npm run build'");
  }
  const { version } = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) as { version: string };
  return {
    dir,
    version,
    zip: (platform) => join(dir, releaseZipName(version, platform)),
    executable: (platform) => join(dir, platform, providerExecutableName(version)),
  };
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `reseller-install-${name}-`));
}

let nodelessBin: string | undefined;

/** A PATH directory holding `terraform` and nothing else; asserted to find no `node`. */
export function nodelessPath(): string {
  if (nodelessBin) return nodelessBin;
  const terraform = findTerraform();
  const absolute = terraform.includes('/') ? terraform : (process.env.PATH ?? '').split(delimiter).map((d) => join(d, terraform)).find((f) => existsSync(f));
  if (!absolute) throw new Error(`cannot find ${terraform} on PATH`);
  const bin = join(tempDir('path'), 'bin');
  mkdirSync(bin);
  symlinkSync(absolute, join(bin, 'terraform'));
  const probe = spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: bin } });
  if (probe.status === 0) throw new Error(`node is still found on the PATH ${bin}`);
  nodelessBin = bin;
  return bin;
}

/** A CLI configuration file with `body` (empty: no provider_installation, the implied local mirrors apply). */
export function cliConfig(dir: string, body = ''): string {
  const file = join(dir, 'terraformrc');
  writeFileSync(file, `disable_checkpoint = true\n${body}`);
  return file;
}

export interface TfResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly output: string;
}

export interface TfOptions {
  readonly cwd: string;
  readonly cliConfig: string;
  /** What the provider reads (RESELLER_*), SSL_CERT_FILE, TF_VAR_*: added to the bare environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `terraform args` as a node-less runner runs it: the environment is built from
 * nothing (PATH with terraform alone, a new empty HOME, TMPDIR), not inherited.
 */
export function terraform(args: string[], options: TfOptions): Promise<TfResult> {
  const home = tempDir('home');
  if (readdirSync(home).length) throw new Error(`HOME ${home} is not empty`);
  const env: NodeJS.ProcessEnv = {
    PATH: nodelessPath(),
    HOME: home,
    TMPDIR: tmpdir(),
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_CLI_CONFIG_FILE: options.cliConfig,
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(join(env.PATH!, 'terraform'), [...args, '-no-color'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, output: `${stdout}${stderr}` }));
  });
}

/** The same, failing with Terraform's output unless it exits 0. */
export async function terraformOk(args: string[], options: TfOptions): Promise<TfResult> {
  const r = await terraform(args, options);
  if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} in ${options.cwd} exited ${r.code}:\n${r.output.slice(-4000)}`);
  return r;
}

/** The provider's connection to the emulator, with quick polling. */
export const providerEnv = (url: string): NodeJS.ProcessEnv => ({ RESELLER_API_URL: url, RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms' });

/**
 * A plain-HCL configuration (what a user without cdktf writes): the provider from
 * `source` at `version`, a package and a forwarder on it.
 */
export function writeHclConfig(dir: string, options: { source: string; version: string; domain: string }): void {
  writeFileSync(join(dir, 'main.tf'), `terraform {
  required_providers {
    reseller = {
      source  = "${options.source}"
      version = "${options.version}"
    }
  }
}

provider "reseller" {}

resource "reseller_package" "site" {
  domain_name  = "${options.domain}"
  package_type = "Linux Unlimited"
}

resource "reseller_forwarder" "sales" {
  package    = reseller_package.site.domain_name
  local_part = "sales"
  remote     = "team@example.org"
}
`);
}

/** Makes a file unexecutable for everyone, as a checkout or an artifact download without modes leaves it. */
export function dropModes(file: string): void {
  chmodSync(file, 0o644);
}
