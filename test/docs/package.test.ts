import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * A versioned product: package.json says where the project lives, CHANGELOG.md (Keep a
 * Changelog) has this version, and the package as published (`npm pack`) carries every
 * file the README links to and every document a command's help refers to, so that each
 * link resolves from the package page and from node_modules.
 */
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));

let packed: Set<string>;
/** The tarball's size in bytes, as `npm pack` reports it. */
let tarballSize: number;
beforeAll(() => {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm pack --dry-run failed: ${run.stderr}`);
  const [report] = JSON.parse(run.stdout) as Array<{ size: number; files: Array<{ path: string }> }>;
  packed = new Set(report.files.map((f) => f.path));
  tarballSize = report.size;
}, 120_000);

test('the package carries no provider executable: those are the platform packages (cdktf-reseller-hosting-provider-<platform>), so the tarball stays small', () => {
  expect([...packed].filter((f) => f.endsWith('.zip') || f.startsWith('dist/executables/'))).toEqual([]);
  // Whether or not `npm run build:executables` has filled dist/executables here, `files` does not ship it.
  expect((pkg.files as string[]).filter((f) => /executables|\.zip/.test(f))).toEqual([]);
  // One executable's zip alone is about 41 MB; the library is about 2.6 MB.
  expect(tarballSize).toBeLessThan(8 * 1024 * 1024);
});

test('package.json names the repository, the home page and where to report bugs', () => {
  expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/) });
  expect(pkg.homepage).toMatch(/^https:\/\//);
  expect(pkg.bugs.url).toMatch(/^https:\/\/.*\/issues$/);
  expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
});

test('CHANGELOG.md is in the Keep a Changelog form, with this version and an upgrade note', () => {
  const log = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
  expect(log).toMatch(/^# Changelog\n/);
  expect(log).toContain('[Keep a Changelog](https://keepachangelog.com/');
  expect(log).toContain('## [Unreleased]');
  expect(log).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  expect(log).toContain('### Upgrading from 0.1');
  expect(log).toContain('import --moved');
  expect(packed.has('CHANGELOG.md')).toBe(true);
});

/** Every Markdown link and image target of a file. */
function linksOf(text: string): string[] {
  const out: string[] = [];
  // Code blocks and inline code hold no links.
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) out.push(m[1]);
  return out;
}

test('every relative link of the README and of docs/*.md points at a file the package ships', () => {
  const pages = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const broken: string[] = [];
  for (const page of pages) {
    expect(packed.has(page)).toBe(true);
    const base = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
    for (const link of linksOf(readFileSync(join(REPO_ROOT, page), 'utf8'))) {
      if (/^(https?:|mailto:|#)/.test(link)) continue;
      const target = join(base, link.split('#')[0]).replace(/\\/g, '/');
      if (!packed.has(target)) broken.push(`${page}: ${link}`);
    }
  }
  expect(broken).toEqual([]);
});

test('every document a command\'s help refers to is published', async () => {
  const { COMMAND_NAMES } = await import('../../src/cli');
  const texts: string[] = [];
  for (const name of COMMAND_NAMES) {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'reseller-hosting.js'), name, '--help'], { encoding: 'utf8' });
    texts.push(run.stdout);
  }
  const referred = new Set(texts.join('\n').match(/docs\/[\w./-]+\.md/g) ?? []);
  expect(referred.size).toBeGreaterThan(0);
  expect([...referred].filter((doc) => !packed.has(doc))).toEqual([]);
});

/** Every Markdown page a user reads: the README and every page under docs/, generated ones included. */
function allPages(dir = join(REPO_ROOT, 'docs'), base = 'docs'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? allPages(join(dir, e.name), `${base}/${e.name}`)
    : e.name.endsWith('.md') ? [`${base}/${e.name}`] : []));
}

test('the docs cite no file the repository does not have (api-notes, the API spec, the design notes)', () => {
  const cited: string[] = [];
  for (const page of ['README.md', 'CHANGELOG.md', ...allPages()]) {
    const text = readFileSync(join(REPO_ROOT, page), 'utf8');
    for (const m of text.matchAll(/api-notes|reseller-api-spec|DESIGN\.md|DESIGN §|\bspec \d+\.\d+/g)) cited.push(`${page}: ${m[0]}`);
  }
  expect(cited).toEqual([]);
});
