import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { apiEnv, outOfBand, removeTempDirs, runBinary, tempDir, synthGenerated } from './helpers';

/**
 * `reseller-hosting import --kinds autoresponder` and `drift` for autoresponders: the
 * generated TypeScript declares each live autoresponder (with its package) in canonical
 * forms, compiles strictly and synthesizes; drift of that stack finds everything in
 * sync; a change in the control panel is `changed`, with the fields in words, and
 * `drift --fix` repairs it; an autoresponder no stack declares is unmanaged.
 */
let emu: TestEmulator;
let api: ResellerClient;
let env: NodeJS.ProcessEnv;
let project: string;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startTestEmulator({ provisionDelayMs: 0 });
  api = outOfBand(emu.url);
  env = apiEnv(emu.url, tempDir('journal-'));
  const pkg = await api.packages.create({ type: 811, domainName: 'example-away.com', extraDomainNames: ['www.example-away.com'] });
  await api.responders.create(pkg, 'example-away.com', 'away', {
    subject: "Out of office: 'back' soon", content: 'Back on Monday.\nRegards', type: 'text/plain', enabled: true,
    startTime: '2026-12-24T10:00:00+01:00', endTime: '2027-01-02T08:00:00Z', forwardTo: 'Desk@Example.org',
  });
  await api.responders.create(pkg, 'www.example-away.com', 'old', {
    subject: 'Moved', content: '<p>This address is no longer monitored.</p>', type: 'text/html', enabled: false, startTime: null, endTime: null, forwardTo: null,
  });
  project = tempDir('reseller-import-reply-');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'cdktf-reseller-hosting'), 'dir');
  for (const dep of ['cdktf', 'constructs']) symlinkSync(join(REPO_ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
}, 60_000);
afterAll(async () => {
  api?.close();
  await emu?.stop();
  removeTempDirs(emu?.dir);
});

test('import declares each autoresponder in canonical forms; the code compiles and synthesizes; drift finds it in sync, then a panel change, which --fix repairs', async () => {
  const file = join(project, 'replies.ts');
  const run = await runBinary(['import', '--kinds', 'autoresponder', '--out', file, '--class-name', 'RepliesStack', '--engine', 'terraform_data'], env, project);
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(/class RepliesStack with 0 cloud server\(s\), 1 package\(s\), 2 autoresponder\(s\)/);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain("import { Autoresponder, HostingPackage, ResellerHosting } from 'cdktf-reseller-hosting';");
  expect(source).toMatch(/new Autoresponder\(this, 'reply_away_example_away_com', \{\n\s+package: pkg_example_away_com,\n\s+localPart: 'away',\n\s+subject: 'Out of office: \\'back\\' soon',\n\s+content: 'Back on Monday\.\\nRegards',\n\s+contentType: 'text\/plain',\n\s+enabled: true,\n\s+startTime: '2026-12-24T09:00:00Z',\n\s+endTime: '2027-01-02T08:00:00Z',\n\s+forwardTo: 'Desk@example\.org',\n\s+\}\);/);
  expect(source).toMatch(/new Autoresponder\(this, 'reply_old_www_example_away_com', \{\n\s+package: pkg_example_away_com,\n\s+localPart: 'old',\n\s+domain: 'www\.example-away\.com',\n[^}]*contentType: 'text\/html',\n\s+enabled: false,\n\s+\}\);/);

  const { outdir } = synthGenerated(project, 'replies', 'RepliesStack', 'replies');

  const drift = async (...args: string[]) => {
    const result = await runBinary(['drift', '--stacks', outdir, '--json', ...args], env, project);
    return JSON.parse(result.stdout) as { summary: Record<string, number>; objects: Array<{ address: string; status: string; diffs: unknown[] }> };
  };
  expect((await drift()).summary).toMatchObject({ declared: 3, inSync: 3, unmanaged: 0 });

  const live = (await api.mail.get('example-away.com', 'example-away.com')).responders[0];
  await api.responders.update('example-away.com', 'example-away.com', live.id, { ...live, subject: 'Changed in the panel', endTime: null });
  const changed = await drift();
  expect(changed.summary).toMatchObject({ declared: 3, changed: 1 });
  const away = changed.objects.find((o) => o.status === 'changed')!;
  expect(away.address).toBe('terraform_data.reply_away_example_away_com');
  expect(away.diffs).toEqual([
    { field: 'subject', declared: "Out of office: 'back' soon", live: 'Changed in the panel' },
    { field: 'endTime', declared: '2027-01-02T08:00:00Z', live: null },
  ]);
  const fixed = await runBinary(['drift', '--stacks', outdir, '--fix'], env, project);
  expect(fixed.stdout).toMatch(/fixed\s+terraform_data\.reply_away_example_away_com\s+autoresponder away@example-away\.com: adopted autoresponder away@example-away\.com; updated subject/);
  expect((await drift()).summary).toMatchObject({ declared: 3, inSync: 3 });

  await api.responders.create('example-away.com', 'example-away.com', 'extra', {
    subject: 'Not in any stack', content: 'x', type: 'text/plain', enabled: true, startTime: null, endTime: null, forwardTo: null,
  });
  const unmanaged = await runBinary(['drift', '--stacks', outdir, '--json'], env, project);
  expect(JSON.parse(unmanaged.stdout).unmanaged).toEqual([expect.objectContaining({ kind: 'autoresponder', key: 'extra@example-away.com', detail: '"Not in any stack"' })]);
}, 120_000);
