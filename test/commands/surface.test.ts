import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_NAMES } from '../../src/cli';
import { HANDLER_VERBS } from '../../src/protocol';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { runBinary } from '../drift/helpers';

/**
 * DESIGN §1: every command shares one surface. Run as users run them (the package's
 * bin, a process each): `--help` prints the usage on stdout and exits 0, `--version` the
 * package's version, an unknown option is a usage error (64) with the message on
 * stderr, whatever the command, `provider` and `handler` included.
 */
const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'surface-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** An environment with no connection: nothing here may need one. */
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete e.RESELLER_API_URL;
  delete e.RESELLER_API_KEY;
  return e;
};

test('reseller-hosting --version prints the package version, as every command does', async () => {
  for (const args of [['--version'], ...COMMAND_NAMES.map((c) => [c, '--version'])]) {
    const run = await runBinary(args, env(), home);
    expect([args, run.code, run.stdout, run.stderr]).toEqual([args, 0, `${VERSION}\n`, '']);
  }
});

test('every command prints its usage for --help (stdout, exit 0)', async () => {
  for (const command of COMMAND_NAMES) {
    const run = await runBinary([command, '--help'], env(), home);
    expect([command, run.code, run.stderr]).toEqual([command, 0, '']);
    expect(run.stdout).toMatch(new RegExp(`^usage: reseller-hosting ${command}\\b`));
  }
});

test('an unknown option is a usage error (64) for every command, named on stderr, never on stdout', async () => {
  for (const command of COMMAND_NAMES) {
    const run = await runBinary([command, '--no-such-option'], env(), home);
    expect([command, run.code, run.stdout]).toEqual([command, 64, '']);
    expect(run.stderr).toMatch(new RegExp(`^reseller-hosting ${command}: .*no-such-option`));
  }
});

test('provider: a bad argument of install is a usage error (64, not 2: 2 means differences found)', async () => {
  const bad = await runBinary(['provider', 'install', '--stack'], env(), home);
  expect(bad.code).toBe(64);
  expect(bad.stderr).toMatch(/^reseller-hosting provider: .*--stack/);
  const extra = await runBinary(['provider', 'install', 'somewhere'], env(), home);
  expect(extra.code).toBe(64);
  const unknown = await runBinary(['provider', 'uninstall'], env(), home);
  expect(unknown.code).toBe(64);
  expect(unknown.stderr).toMatch(/unknown sub-command "uninstall"/);
  // install itself still works: into a directory of ours.
  const installed = await runBinary(['provider', 'install', '--plugins-dir', join(home, 'plugins')], env(), home);
  expect(installed.code).toBe(0);
  expect(installed.stdout).toMatch(/^installed .*terraform-provider-reseller_v/);
});

test('the handler verbs are listed one way: the top usage and the handler usage say the same', async () => {
  const top = await runBinary(['--help'], env(), home);
  const handler = await runBinary(['handler', '--help'], env(), home);
  expect(HANDLER_VERBS).toBe('ensure|retire-settings|delete|update|set-password');
  expect(top.stdout).toContain(`handler  ${HANDLER_VERBS}`);
  expect(handler.stdout.split('\n')[0]).toBe(`usage: reseller-hosting handler ${HANDLER_VERBS}`);
  const wrong = await runBinary(['handler', 'create'], env(), home);
  expect(wrong.code).toBe(64);
  expect(wrong.stderr).toContain(`unknown verb "create"`);
});

test('drift --out, the former name of --stacks, still works for one release and says so on stderr', async () => {
  // Nothing synthesized here: both spellings reach the same reading of the output directory.
  const former = await runBinary(['drift', '--out', 'nowhere'], env(), home);
  const current = await runBinary(['drift', '--stacks', 'nowhere'], env(), home);
  expect(former.stderr).toContain('reseller-hosting drift: --out is deprecated and will be removed in the next release: use --stacks');
  expect(former.stderr.replace(/^.*deprecated.*\n/m, '')).toBe(current.stderr);
  expect([former.code, current.code]).toEqual([1, 1]);
  expect(current.stderr).toMatch(/nowhere does not exist: synthesize the stacks first \(cdktf synth\) or point --stacks at the output directory/);
  const both = await runBinary(['drift', '--out', 'a', '--stacks', 'b'], env(), home);
  expect(both.code).toBe(64);
});

test('doctor --json carries the one version field, and the package\'s and the provider\'s versions', async () => {
  // No URL: the report still comes (a failed first check), and says which versions ran.
  const run = await runBinary(['doctor', '--json'], env(), home);
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout);
  expect(Object.keys(report).slice(0, 4)).toEqual(['version', 'package', 'provider', 'node']);
  expect(report).toMatchObject({ version: 2, package: VERSION, provider: VERSION });
  expect(report).not.toHaveProperty('doctorReportVersion');
});
