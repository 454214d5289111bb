import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { packLibrary } from '../cdktn/user-project';
import { requireTerraform, tempDir } from '../e2e/support';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { readRecipe } from './recipes/ci';
import { parseYaml } from './recipes/yaml';
import { allBlocks, Block } from './recipes/markdown';
import { Fill, readerEnv, runJob, runShell, shellOf, shellSyntaxProblem, write } from './recipes/runner';

/**
 * Docs that are tests: every shell block and every CI recipe (GitHub Actions, GitLab CI)
 * of README.md and docs/*.md runs here as a reader would run it: in a scratch project
 * that installs the packed package (`npm pack`, then `npm install <tarball>`, from the
 * npm cache where it can), against the emulator, whose account also holds what no code
 * declares (a customer's packages and mail, a retained cloud server), as a real account
 * does. A CI recipe's steps run in order with the environment the recipe sets; its
 * `uses:` actions are what the scratch project already has. A block marked
 * `<!-- recipe: needs a real account -->` is syntax-checked only. A block that fails
 * fails its test. Which scenario runs which block: `SCENARIOS` below; a block of an
 * unknown marker fails the first test, so nothing goes unrun by accident.
 */
jest.setTimeout(20 * 60_000);

const BLOCKS = allBlocks(REPO_ROOT);
const at = (marker: string | undefined, page?: string): Block[] => BLOCKS.filter((b) => b.marker === marker && (!page || b.page === page));
const one = (marker: string): Block => {
  const found = at(marker);
  if (found.length !== 1) throw new Error(`expected one block marked "${marker}", found ${found.length}`);
  return found[0];
};

/** Markers this test knows, each with what it does. */
const SCENARIOS: Record<string, string> = {
  install: 'creates the scratch project (an empty directory, then the README\'s install commands for cdktf)',
  'install-cdktn': 'the same for CDK Terrain, in an empty directory of its own (cdktn-cli itself needs Node >= 22.19: installed only)',
  deploy: 'the README\'s deploy workflow (GitHub Actions), twice: on the account with unmanaged objects it is green',
  checks: 'the scheduled drift job (green in sync, exits 2 after a declared object changed) and the pull-request review job',
  'gitlab-drift': 'the GitLab drift job: green in sync, red after a declared object changed',
  adopt: 'adopting an existing account (another account of the emulator) with import --engine provider and import blocks',
  migrate: 'a carrier stack deployed, switched to the provider in the code, then migrated with state rm and import blocks',
  server: 'a server block: its first command runs until it prints "listening on", the rest against it, then Ctrl-C',
  emulator: 'runs against an emulator of its own at the address the block names',
  'global-install': 'npm install --global (into a prefix of its own, on PATH), in an empty directory',
  'several-accounts': 'the provider guide\'s two-account configuration, against two accounts of the emulator',
  'in this repository (npm test runs this check; CI runs npm ci && npm test)': 'syntax-checked; each npm script it names exists',
  'needs a real account': 'syntax-checked only',
  mirror: 'run by test/install/mirror.test.ts as written, against a mirror of the built zips in place of the path it names',
  atlantis: 'Atlantis\'s project file: its project directory is the deployed stack, holding the files autoplan watches; init and plan run there as Atlantis runs them',
};

/** Runs every block not marked (the README's deploy from a shell, the review block) in the deployed project. */
const DEFAULT = 'in the scratch project after the deploy, with the connection exported';

let tf: string;
let root: string;
let project: string;
let home: string;
let tarball: string;
let emu: TestEmulator;
let api: ResellerClient;
const PASSWORD = 'Docs-Recipe-Passw0rd!';

const fill = (extra: Partial<Fill> = {}): Fill => ({
  url: emu.url, tarball, values: { RESELLER_API_KEY: API_KEY, TF_VAR_info_password: PASSWORD, TF_VAR_live_key: API_KEY, TF_VAR_staging_key: 'docs-staging-key', ...extra.values }, ...extra,
});
/** A reader's shell after the README told them to export the connection and the password. */
const shellEnv = (extra: NodeJS.ProcessEnv = {}) => readerEnv(home, {
  RESELLER_API_URL: emu.url, RESELLER_API_KEY: API_KEY, TF_VAR_info_password: PASSWORD, RESELLER_POLL_INTERVAL: '100ms', ...extra,
});
/** A CI runner's environment: nothing of the reader's connection; the recipe sets its own. */
const runnerEnv = () => readerEnv(home, { CI: 'true', RESELLER_POLL_INTERVAL: '100ms' });
const ctx = (event: string) => ({
  secrets: { RESELLER_API_KEY: API_KEY, INFO_PASSWORD: PASSWORD, MAILBOX_PASSWORD: PASSWORD },
  vars: { RESELLER_API_URL: emu.url },
  github: { event_name: event, run_number: '1', token: 'not-a-token', 'event.pull_request.number': '1' },
});

/** The last lines of an output, without terminal escapes and spinner frames: what says why it failed. */
function tail(output: string): string {
  return plain(output).split('\n').filter((l) => l.trim() && !/^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(l)).slice(-60).join('\n');
}

/** An output without terminal escapes (Terraform colours "Plan:"). */
function plain(output: string): string {
  // eslint-disable-next-line no-control-regex
  return output.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}

async function shell(block: Block, cwd: string, env: NodeJS.ProcessEnv, extra: Partial<Fill> = {}) {
  const ran = await runShell(shellOf(block, fill(extra)), { cwd, env });
  if (ran.code !== 0) throw new Error(`${block.where} exited ${ran.code}; the end of its output:\n${tail(ran.output)}`);
  return ran.output;
}

/** The README's own app ("Using it in your own project"): the block that synthesizes. */
function readmeApp(): string {
  const text = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const app = [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]).find((t) => t.includes('app.synth()'));
  if (!app) throw new Error('README.md has no TypeScript app block (with app.synth())');
  return app;
}

/** The files `cdktf init` gives a TypeScript project, around `main.ts`. */
function appFiles(dir: string, main: string): void {
  write(join(dir, 'main.ts'), main);
  write(join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsc -p . && node main.js', output: 'cdktf.out', projectId: 'docs-recipes', sendCrashReports: 'false' }, null, 2));
  write(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2020', module: 'CommonJS', lib: ['es2020'], skipLibCheck: true, types: [], noEmitOnError: true },
    include: ['*.ts'],
  }, null, 2));
}

/** Another app directory sharing the scratch project's installed packages (a second checkout of the same project). */
function sibling(name: string, main: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) writeFileSync(join(dir, f), readFileSync(join(project, f)));
  symlinkSync(join(project, 'node_modules'), join(dir, 'node_modules'), 'dir');
  appFiles(dir, main);
  return dir;
}

beforeAll(async () => {
  tf = requireTerraform();
  root = tempDir('docs-recipes');
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  tarball = packLibrary(root);
  emu = await startTestEmulator({ provisionDelayMs: 100 });
  api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  // What a real reseller account holds besides the code's objects: customers' packages
  // (one the README's app reads with fromDomainName), their mail, a retained server.
  await api.packages.create({ type: 812, domainName: 'legacy.example.com', extraDomainNames: [] });
  const customer = await api.packages.create({ type: 811, domainName: 'customer-shop.example.net', extraDomainNames: [] });
  await api.mail.createMailbox(customer, 'customer-shop.example.net', { local: 'owner', send: true, receive: true, password: 'Customer-Own-Passw0rd' });
  await api.cloudServers.order({
    configuration: { spec: 'small', zone: 'dc_location-usa', provider: '20icloud', mvpsName: 'retained.example-hosting.net' },
    periodMonths: 1, type: 'cloud-20i',
  });
}, 5 * 60_000);
afterAll(async () => {
  api?.close();
  await emu?.stop();
});

test('every shell block and CI recipe of README.md and docs/*.md has a known scenario, and parses', () => {
  const unknown = BLOCKS.filter((b) => b.marker !== undefined && !(b.marker in SCENARIOS)).map((b) => `${b.where}: ${b.marker}`);
  expect(unknown).toEqual([]);
  for (const b of BLOCKS) {
    // Placeholders filled in as for a run (`<stack>` is no shell).
    if (b.lang === 'shell') expect([b.where, shellSyntaxProblem(b.text.replace(/<stack>/g, 'hosting'))]).toEqual([b.where, undefined]);
    else if (b.marker !== 'atlantis') {
      const recipe = readRecipe(b.text);
      for (const step of recipe.jobs.flatMap((j) => j.steps)) if (step.run) expect([b.where, step.name, shellSyntaxProblem(step.run)]).toEqual([b.where, step.name, undefined]);
    }
  }
  // Commands installed in a project are reached with npx (or from a global install): never bare.
  const bare = BLOCKS.filter((b) => b.marker !== 'global-install' && /(^|[\s(|&;])reseller-hosting (?!emulator --port)/m.test(b.text.replace(/(npx |bin\/)reseller-hosting/g, '').replace(/#.*$/gm, '')));
  expect(bare.map((b) => b.where)).toEqual([]);
  expect(BLOCKS.length).toBeGreaterThanOrEqual(18);
});

test('marked blocks that need what this machine cannot give are syntax-checked, and the repository block names real scripts', () => {
  expect(at('needs a real account').length).toBeGreaterThanOrEqual(3);
  const scripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  for (const b of BLOCKS.filter((x) => x.marker?.startsWith('in this repository'))) {
    for (const m of b.text.matchAll(/npm (?:run (\S+)|(test))/g)) expect([b.where, m[1] ?? m[2], (m[1] ?? m[2]) in scripts]).toEqual([b.where, m[1] ?? m[2], true]);
  }
});

test('README: the CDK Terrain install commands install the packed library next to cdktn', async () => {
  const dir = join(root, 'cdktn-project');
  mkdirSync(dir, { recursive: true });
  await shell(one('install-cdktn'), dir, shellEnv());
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  expect(Object.keys(pkg.dependencies).sort()).toEqual(['cdktf-reseller-hosting', 'cdktn', 'constructs']);
  expect(existsSync(join(dir, 'node_modules', 'cdktf'))).toBe(false);
});

test('README: the install commands make a project with the packed library', async () => {
  await shell(one('install'), project, shellEnv());
  // The user's app: the README's, compiled by the project's own TypeScript as cdktf init sets it up.
  await runShell('npm install --save-dev typescript@5', { cwd: project, env: shellEnv() });
  appFiles(project, readmeApp());
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  expect(pkg.dependencies['cdktf-reseller-hosting']).toMatch(/^file:.*\.tgz$/);
  expect(existsSync(join(project, 'node_modules', '.bin', 'reseller-hosting'))).toBe(true);
});

test('README: the deploy from a shell (unmarked: the default scenario) deploys the app, the retained server and customers untouched', async () => {
  const blocks = BLOCKS.filter((b) => b.marker === undefined && b.page === 'README.md');
  expect(blocks.length).toBeGreaterThan(0);
  for (const b of blocks) await shell(b, project, shellEnv());
  const names = emu.account().packages.map((p) => p.name);
  expect(names).toEqual(expect.arrayContaining(['example.com', 'app.example.com', 'legacy.example.com', 'customer-shop.example.net']));
  expect(emu.account().cloudServers.map((s) => s.name).sort()).toEqual(['retained.example-hosting.net', 'web1.example.com']);
});

test('README CI: the deploy workflow is green on an account with unmanaged objects', async () => {
  const recipe = readRecipe(one('deploy').text);
  const run = await runJob(recipe, 'deploy', { cwd: project, base: runnerEnv(), ctx: ctx('push'), fill: fill() });
  expect([run.passed, run.steps.map((s) => [s.name, s.code])]).toEqual([true, expect.any(Array)]);
  expect(run.steps.filter((s) => s.code !== 0 && s.code !== 'skipped').map((s) => [s.name, tail(s.output)])).toEqual([]);
});

test('docs/drift.md CI: the scheduled drift job is green in sync with unmanaged objects, and fails with exit 2 when a declared object changes', async () => {
  const recipe = readRecipe(one('checks').text);
  const gitlab = readRecipe(one('gitlab-drift').text);
  const green = await runJob(recipe, 'drift', { cwd: project, base: runnerEnv(), ctx: ctx('schedule'), fill: fill() });
  expect(green.steps.filter((s) => typeof s.code === 'number' && s.code !== 0).map((s) => [s.name, tail(s.output)])).toEqual([]);
  expect(green.passed).toBe(true);
  const report = JSON.parse(readFileSync(join(project, 'drift.json'), 'utf8'));
  expect(report.summary).toMatchObject({ drift: false, unmanagedCounted: false });
  expect(report.unmanaged.map((u: { key: string }) => u.key)).toEqual(expect.arrayContaining(['retained.example-hosting.net', 'customer-shop.example.net', 'owner@customer-shop.example.net']));
  const gitlabGreen = await runJob(gitlab, 'drift', { cwd: project, base: { ...runnerEnv(), RESELLER_API_KEY: API_KEY }, ctx: ctx('schedule'), fill: fill() });
  expect([gitlabGreen.passed, gitlabGreen.steps.map((st) => (st.code === 0 ? st.name : tail(st.output)))]).toEqual([true, ['script']]);

  // Someone renames the site in the control panel: a declared object differs.
  const site = emu.account().packages.find((p) => p.name === 'example.com')!;
  await api.packages.setLabel(site.id, 'Renamed in the panel');
  const red = await runJob(recipe, 'drift', { cwd: project, base: runnerEnv(), ctx: ctx('schedule'), fill: fill() });
  expect(red.passed).toBe(false);
  expect(red.steps.find((s) => s.name === 'drift')).toMatchObject({ code: 2 });
  expect(red.steps.find((s) => s.name === 'drift')!.output).toMatch(/CHANGED\s+package\s+example\.com/);
  // The JSON step runs whatever happened (if: always()) and tells the two apart.
  const after = JSON.parse(readFileSync(join(project, 'drift.json'), 'utf8'));
  expect(after.summary).toMatchObject({ drift: true, changed: 1 });
  const gitlabRed = await runJob(gitlab, 'drift', { cwd: project, base: { ...runnerEnv(), RESELLER_API_KEY: API_KEY }, ctx: ctx('schedule'), fill: fill() });
  expect(gitlabRed.passed).toBe(false);
  expect(gitlabRed.steps[0].code).toBe(2);
});

test('docs/drift.md CI: the pull-request review job plans with the key and URL, reviews, and its gate passes a plan that only repairs', async () => {
  const recipe = readRecipe(one('checks').text);
  const run = await runJob(recipe, 'review', { cwd: project, base: runnerEnv(), ctx: ctx('pull_request'), fill: fill() });
  expect(run.steps.filter((s) => typeof s.code === 'number' && s.code !== 0).map((s) => [s.name, tail(s.output)])).toEqual([]);
  expect(run.steps.find((s) => s.name === 'comment')).toMatchObject({ code: 'marked' });
  expect(readFileSync(join(project, 'review.md'), 'utf8')).toMatch(/package `example\.com`/);
  expect(run.passed).toBe(true);
});

test('docs/drift.md: the review block, in the stack directory', async () => {
  const blocks = BLOCKS.filter((b) => b.marker === undefined && b.page !== 'README.md');
  expect(blocks.map((b) => b.where)).toEqual([expect.stringMatching(/^docs\/drift\.md:/)]);
  const out = await shell(blocks[0], project, shellEnv(), { stack: 'hosting' });
  expect(out).toMatch(/### Reseller hosting plan review/);
});

test('docs/install.md: Atlantis runs init and plan in the project directory atlantis.yaml names', async () => {
  const config = parseYaml(one('atlantis').text) as { projects: { dir: string; autoplan: { when_modified: string[] } }[] };
  expect(config.projects).toHaveLength(1);
  const dir = join(project, config.projects[0].dir);
  for (const watched of config.projects[0].autoplan.when_modified) expect([watched, existsSync(join(dir, watched))]).toEqual([watched, true]);
  // Atlantis's own commands, in that directory, with the connection in the server's environment.
  // (The scenarios before this one change the account, so the plan may have something to do.)
  const out = await shell({ ...one('atlantis'), text: 'terraform init -input=false\nterraform plan -input=false' }, dir, shellEnv());
  expect(plain(out)).toMatch(/No changes\.|Plan: \d+ to add, \d+ to change, \d+ to destroy\./);
});

test('docs/drift.md: adopting an existing account with import --engine provider and import blocks', async () => {
  await emu.control('POST', 'accounts', { id: 777001, apiKey: 'docs-adopt-key' });
  const other = new ResellerClient({ baseUrl: emu.url, apiKey: 'docs-adopt-key', retryBaseDelayMs: 10 });
  const pkg = await other.packages.create({ type: 812, domainName: 'adopt-me.example.org', extraDomainNames: [] });
  await other.mail.createForwarder(pkg, 'adopt-me.example.org', { local: 'sales', remote: 'team@example.org' });
  other.close();
  // The app the block's comment describes: main.ts with the imported stack added.
  const dir = sibling('adopt', [
    "import { App } from 'cdktf';",
    "import { ImportedResellerStack } from './imported';",
    'const app = new App();',
    "new ImportedResellerStack(app, 'imported');",
    'app.synth();',
    '',
  ].join('\n'));
  const out = await shell(one('adopt'), dir, shellEnv({ RESELLER_API_KEY: 'docs-adopt-key' }));
  expect(plain(out)).toMatch(/Plan: 2 to import, 0 to add, \d+ to change, 0 to destroy\./);
});

test('docs/drift.md: migrating a carrier stack with state rm and import blocks', async () => {
  await emu.control('POST', 'accounts', { id: 777002, apiKey: 'docs-migrate-key' });
  const app = (engine: string) => [
    "import { App, TerraformStack } from 'cdktf';",
    "import { Forwarder, HostingPackage, ResellerHosting } from 'cdktf-reseller-hosting';",
    'const app = new App();',
    "const stack = new TerraformStack(app, 'migrate');",
    `new ResellerHosting(stack, 'reseller', { engine: '${engine}' });`,
    "const site = new HostingPackage(stack, 'site', { domainName: 'migrate-me.example.org', packageType: 'Linux Starter' });",
    "new Forwarder(stack, 'sales', { package: site, localPart: 'sales', remote: 'team@example.org' });",
    'app.synth();',
    '',
  ].join('\n');
  const dir = sibling('migrate', app('terraform_data'));
  const env = shellEnv({ RESELLER_API_KEY: 'docs-migrate-key' });
  const deployed = await runShell('npx cdktf deploy --auto-approve migrate', { cwd: dir, env });
  expect([deployed.code, deployed.output.slice(-2000)]).toEqual([0, expect.any(String)]);
  // What the block's first comment asks: switch the engine, then the block's commands.
  writeFileSync(join(dir, 'main.ts'), app('provider'));
  const out = await shell(one('migrate'), dir, env, { stack: 'migrate', values: { RESELLER_API_KEY: 'docs-migrate-key' } });
  expect(plain(out)).toMatch(/Plan: 2 to import, 0 to add, 0 to change, 0 to destroy\./);
});

test('docs/provider.md: installing globally, then provider install; several accounts in one configuration', async () => {
  const dir = join(root, 'plain-terraform');
  mkdirSync(dir, { recursive: true });
  const prefix = join(root, 'global');
  const env = shellEnv({ npm_config_prefix: prefix });
  env.PATH = `${join(prefix, 'bin')}:${env.PATH}`;
  const out = await shell(one('global-install'), dir, env);
  expect(plain(out)).toMatch(/installed .*\.terraform\.d\/plugins/);
  // The configuration of the guide's two-account example: its HCL block beside the provider requirement.
  await emu.control('POST', 'accounts', { id: 777003, apiKey: 'docs-staging-key' });
  const guide = readFileSync(join(REPO_ROOT, 'docs', 'provider.md'), 'utf8');
  const hcl = /## Several accounts[\s\S]*?```hcl\n([\s\S]*?)```/.exec(guide)![1];
  const index = readFileSync(join(REPO_ROOT, 'docs', 'index.md'), 'utf8');
  const requirement = /```terraform\n(terraform \{[\s\S]*?\n\})/.exec(index)![1];
  write(join(dir, 'main.tf'), `${requirement}\n\n${hcl}`);
  const plainEnv = shellEnv();
  delete plainEnv.RESELLER_API_KEY; // the keys come from the variables
  const applied = await shell(one('several-accounts'), dir, plainEnv);
  expect(plain(applied)).toMatch(/Apply complete! Resources: 1 added/);
});

test('README and docs/emulator.md: the emulator blocks (server blocks, then the control API and curl against it)', async () => {
  for (const block of at('server')) {
    const [server, ...rest] = block.text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const url = `http://127.0.0.1:${port}`;
    const dir = join(root, `server-${port}`);
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(project, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const { spawn } = await import('node:child_process');
    const env = shellEnv();
    // Its own process group, as a terminal's foreground job: Ctrl-C reaches every process of it.
    const child = spawn('bash', ['--noprofile', '--norc', '-c', server.replace(/--port 8080\b/, `--port ${port}`)], { cwd: dir, env, detached: true });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('listening on')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`${block.where}: the server exited ${code} before listening`)));
    });
    expect(out).toBe(`listening on ${url}\n`);
    try {
      if (rest.length) {
        const ran = await runShell(rest.join('\n').replace(/127\.0\.0\.1:8080/g, `127.0.0.1:${port}`), { cwd: dir, env });
        expect([block.where, ran.code, ran.output]).toEqual([block.where, 0, expect.stringContaining('the API key is accepted')]);
      }
    } finally {
      // Ctrl-C: the emulator stops cleanly, its data file saved and its lock released.
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      const data = /--data (\S+)/.exec(server)?.[1];
      if (data) {
        // The shell may end before the emulator has finished stopping: wait for its lock to go (bounded).
        for (let i = 0; i < 100 && existsSync(join(dir, `${data}.lock`)); i++) await new Promise((r) => setTimeout(r, 100));
        expect(existsSync(join(dir, data))).toBe(true);
        expect(existsSync(join(dir, `${data}.lock`))).toBe(false);
      }
    }
  }
  for (const block of at('emulator')) {
    const own = await startTestEmulator({ provisionDelayMs: 10 });
    try {
      const ran = await runShell(block.text.replace(/127\.0\.0\.1:8080/g, own.url.replace('http://', '')), { cwd: root, env: shellEnv() });
      expect([block.where, ran.code]).toEqual([block.where, 0]);
      expect(ran.output).not.toMatch(/"error"\s*:\s*\{\s*"message"\s*:\s*"(Unauthorized|No route handler)/);
    } finally {
      await own.stop();
    }
  }
});
