import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXECUTABLE_PLATFORMS, releaseZipName, writeZip } from '../../src/provider-mirror';
import { providerExecutableName } from '../../src/protocol';
import { REPO_ROOT } from '../lib/terraform';
import { bootstrapText, CODE_CACHE_SCRIPT } from './bootstrap';
import { stripElf } from './elf';
import { commandFor, hostPlatform, runnerFor } from './runner';
import { CACHE_DIR, runtimeBinary, runtimeVersion } from './runtime';

/**
 * `npm run build:executables`: the provider as one self-contained executable per
 * platform, a Node single executable application (SEA) made from Node's own binary:
 *
 * 1. the program: src/executable.ts (provider and handler) bundled by esbuild;
 * 2. its V8 code cache, written by the platform's own Node after running what start-up
 *    runs (natively, or under qemu-aarch64 for arm64; without qemu, no cache: the
 *    executable then compiles at start, and build.json says so);
 * 3. the SEA blob (bootstrap + program + cache as assets), made by the pinned Node;
 * 4. the pinned binary, its symbols and debug sections removed (elf.ts), the blob
 *    injected with postject, the fuse flipped;
 * 5. the release zip, byte-for-byte reproducible from the same inputs.
 *
 * Each platform's result is cached in node_modules/.cache, keyed by everything it is
 * made from, so `npm test` builds once and later runs copy. Output:
 * dist/executables/{<release zip>, <platform>/<executable>, program.js, build.json}.
 */

/** Bump when the recipe changes in a way the inputs do not show. */
const RECIPE = 4;
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export const EXECUTABLES_OUT = join(REPO_ROOT, 'dist', 'executables');

export interface BuiltPlatform {
  readonly platform: string;
  readonly zip: string;
  readonly executable: string;
  readonly zipBytes: number;
  readonly executableBytes: number;
  /** Whether the V8 code cache is inside (it needs the platform's Node to run here). */
  readonly codeCache: boolean;
  /** How the build started it (`--version`) to check it: natively, under qemu, or not at all. */
  readonly started: 'natively' | 'under qemu-aarch64' | 'no';
}

export interface BuildReport {
  readonly version: string;
  readonly node: string;
  readonly platforms: BuiltPlatform[];
}

function packageVersion(): string {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;
}

/** The program bundle (provider + handler), from the compiled dist/src/executable.js. */
function bundleProgram(workDir: string): string {
  const entry = join(REPO_ROOT, 'dist', 'src', 'executable.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run 'npm run build' first`);
  const out = join(workDir, 'program.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    entryPoints: [entry], bundle: true, platform: 'node', target: 'node24', minify: true, keepNames: true,
    legalComments: 'none', logLevel: 'warning', outfile: out,
  });
  return out;
}

/**
 * postject (Node's documented injector) puts the blob into the binary and flips the SEA
 * fuse. In a child process: LIEF, inside it, prints warnings about the binary's notes
 * that mean nothing here; they are shown only when the injection fails.
 */
function injectBlob(executable: string, blob: string): void {
  const postject = require.resolve('postject', { paths: [REPO_ROOT] });
  const script = `require(process.argv[1]).inject(process.argv[2], 'NODE_SEA_BLOB', require('node:fs').readFileSync(process.argv[3]), { sentinelFuse: '${SEA_FUSE}' })
    .then(() => process.exit(0), (err) => { console.error(err && err.message || err); process.exit(1); });`;
  run(process.execPath, ['-e', script, postject, executable, blob], 'injecting the SEA blob (postject)');
  chmodSync(executable, 0o755);
}

function run(command: string, args: string[], what: string, options: { cwd?: string; timeout?: number } = {}): string {
  const r = spawnSync(command, args, { encoding: 'utf8', cwd: options.cwd, timeout: options.timeout ?? 600_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error)).trim().slice(-2000)}`);
  return r.stdout;
}

function buildPlatform(platform: string, program: string, version: string, log: (line: string) => void): Omit<BuiltPlatform, 'zip' | 'executable'> & { cacheDir: string } {
  const nodeVersion = runtimeVersion();
  const source = readFileSync(program);
  const programSha256 = createHash('sha256').update(source).digest('hex');
  const runner = runnerFor(platform);
  const key = createHash('sha256').update(JSON.stringify({ RECIPE, platform, version, nodeVersion, programSha256, codeCache: !!runner })).digest('hex').slice(0, 16);
  const cacheDir = join(CACHE_DIR, 'executables', `${platform}-${key}`);
  const reportFile = join(cacheDir, 'built.json');
  if (existsSync(reportFile)) return { ...JSON.parse(readFileSync(reportFile, 'utf8')), cacheDir };

  const work = mkdtempSync(join(tmpdir(), `reseller-sea-${platform}-`));
  try {
    const node = runtimeBinary(platform, log);
    const hostNode = runtimeBinary(hostPlatform()!, log);
    const assets: Record<string, string> = { 'program.js': program };
    if (runner) {
      log(`${platform}: code cache (${runner.emulated ? 'under qemu-aarch64' : 'natively'}) ...`);
      const script = join(work, 'code-cache.js');
      writeFileSync(script, CODE_CACHE_SCRIPT);
      const [command, args] = commandFor(platform, node, [script, program, join(work, 'program.js.cache')]);
      run(command, args, `writing the ${platform} code cache`, { cwd: work });
      assets['program.js.cache'] = join(work, 'program.js.cache');
    } else {
      log(`${platform}: no code cache (its Node cannot run on this machine; install qemu-user for one)`);
    }
    const cacheSha256 = assets['program.js.cache'] && createHash('sha256').update(readFileSync(assets['program.js.cache'])).digest('hex');
    writeFileSync(join(work, 'bootstrap.js'), bootstrapText({ version, programSha256, cacheSha256 }));
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify({
      main: join(work, 'bootstrap.js'), output: join(work, 'sea.blob'), disableExperimentalSEAWarning: true,
      // Code cache and snapshot of the bootstrap are platform-bound and worth nothing: off, so the blob fits any platform.
      useCodeCache: false, useSnapshot: false, assets,
    }));
    run(hostNode, ['--experimental-sea-config', join(work, 'sea-config.json')], 'making the SEA blob', { cwd: work });

    const stripped = stripElf(readFileSync(node));
    if (stripped.skipped) log(`${platform}: not stripped (${stripped.skipped})`);
    const executable = join(work, providerExecutableName(version));
    writeFileSync(executable, stripped.output, { mode: 0o755 });
    injectBlob(executable, join(work, 'sea.blob'));

    let started: BuiltPlatform['started'] = 'no';
    if (runner) {
      const [command, args] = commandFor(platform, executable, ['--version']);
      const printed = run(command, args, `starting the ${platform} executable`).trim();
      if (printed !== version) throw new Error(`the ${platform} executable printed ${JSON.stringify(printed)} for --version, not ${version}`);
      started = runner.emulated ? 'under qemu-aarch64' : 'natively';
    }
    const bytes = readFileSync(executable);
    log(`${platform}: zipping ${(bytes.length / 1e6).toFixed(1)} MB ...`);
    const zip = writeZip([{ name: providerExecutableName(version), data: bytes, mode: 0o755 }]);

    const staging = `${cacheDir}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, releaseZipName(version, platform)), zip);
    copyFileSync(executable, join(staging, providerExecutableName(version)));
    chmodSync(join(staging, providerExecutableName(version)), 0o755);
    const report = { platform, zipBytes: zip.length, executableBytes: bytes.length, codeCache: !!runner, started };
    writeFileSync(join(staging, 'built.json'), JSON.stringify(report));
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(staging, cacheDir);
    return { ...report, cacheDir };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds (or takes from the cache) the executables of `platforms` into `outDir`. */
export function buildExecutables(options: { platforms?: readonly string[]; outDir?: string; log?: (line: string) => void } = {}): BuildReport {
  const platforms = options.platforms ?? EXECUTABLE_PLATFORMS;
  const outDir = options.outDir ?? EXECUTABLES_OUT;
  const log = options.log ?? ((line: string) => process.stderr.write(`build:executables: ${line}\n`));
  const version = packageVersion();
  if (!hostPlatform()) {
    throw new Error(`the executables are built on Linux (amd64 or arm64), which runs the pinned Linux Node to make them; this is ${process.platform}_${process.arch}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'reseller-program-'));
  try {
    const program = bundleProgram(work);
    mkdirSync(outDir, { recursive: true });
    const built: BuiltPlatform[] = [];
    for (const platform of platforms) {
      const { cacheDir, ...result } = buildPlatform(platform, program, version, log);
      const zip = join(outDir, releaseZipName(version, platform));
      const executable = join(outDir, platform, providerExecutableName(version));
      mkdirSync(join(outDir, platform), { recursive: true });
      copyFileSync(join(cacheDir, releaseZipName(version, platform)), zip);
      copyFileSync(join(cacheDir, providerExecutableName(version)), executable);
      chmodSync(executable, 0o755);
      built.push({ ...result, zip, executable });
    }
    // The program inside every executable, for reference (what its checksum is over).
    copyFileSync(program, join(outDir, 'program.js'));
    const report: BuildReport = { version, node: runtimeVersion(), platforms: built };
    writeFileSync(join(outDir, 'build.json'), `${JSON.stringify(report, null, 2)}\n`);
    return report;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function parseArgs(argv: string[]): { platforms?: string[]; outDir?: string } {
  const out: { platforms?: string[]; outDir?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--platform' && argv[i + 1]) (out.platforms ??= []).push(argv[++i]);
    else if (argv[i] === '--out' && argv[i + 1]) out.outDir = argv[++i];
    else throw new Error(`usage: npm run build:executables [-- --platform linux_amd64 ...] [--out DIR]; unexpected ${argv[i]}`);
  }
  const unknown = out.platforms?.filter((p) => !(EXECUTABLE_PLATFORMS as readonly string[]).includes(p)) ?? [];
  if (unknown.length) throw new Error(`cannot build ${unknown.join(', ')}: the executables are built for ${EXECUTABLE_PLATFORMS.join(', ')}`);
  return out;
}

if (require.main === module) {
  try {
    const report = buildExecutables(parseArgs(process.argv.slice(2)));
    for (const p of report.platforms) {
      process.stdout.write(`${p.zip} (${(p.zipBytes / 1e6).toFixed(1)} MB zipped, ${(p.executableBytes / 1e6).toFixed(1)} MB executable; code cache: ${p.codeCache ? 'yes' : 'no'}; started: ${p.started})\n`);
    }
  } catch (err) {
    process.stderr.write(`build:executables: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
