import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * DESIGN §6: one core, three adapters. Walks src/ and checks every import specifier
 * against the folder's allowed neighbours, so that a crossing import fails here
 * instead of slowly turning the adapters back into one tangle.
 */
const SRC = resolve(__dirname, '..', '..', 'src');

/**
 * Folder -> the src folders its files may import (besides itself). Each command's home
 * (`commands/<command>`) is a folder of its own: commands are adapters over the core and
 * the stack reader, and meet only in the shared helper (commands/command.ts).
 */
const COMMAND_BASE = ['reconcile', 'client', 'protocol', 'stacks', 'commands/command'];
const ALLOWED: Record<string, readonly string[]> = {
  protocol: [],
  client: ['protocol'],
  reconcile: ['client', 'protocol'],
  // provider-mirror: the file copying that places the built provider in Terraform's
  // implied local mirror, used by both `provider install` and the constructs' synth
  // (which must not load the provider itself). It knows only the protocol's layout constants.
  'provider-mirror': ['protocol'],
  constructs: ['protocol', 'provider-mirror'],
  // provider-mirror for the one version function (the package's) that --version prints.
  handler: ['reconcile', 'client', 'protocol', 'provider-mirror'],
  provider: ['reconcile', 'client', 'protocol', 'provider-mirror'],
  // The synthesized stacks, in the kinds' terms, and how the account compares with them.
  stacks: ['reconcile', 'client', 'protocol'],
  'commands/command': ['protocol', 'provider-mirror'],
  'commands/drift': COMMAND_BASE,
  'commands/import': COMMAND_BASE,
  'commands/review': COMMAND_BASE,
  'commands/doctor': COMMAND_BASE,
  'commands/sweep': COMMAND_BASE,
  // The commands over another adapter: its entry points, and nothing of another command.
  'commands/emulator': [...COMMAND_BASE, 'emulator'],
  'commands/provider': [...COMMAND_BASE, 'provider'],
  'commands/handler': [...COMMAND_BASE, 'handler'],
  emulator: ['protocol'],
};

/** Packages a folder must not import: the adapters and the core never load cdktf. */
const CDK_PACKAGES = /^(cdktf|cdktf-cli|@cdktf\/.*|constructs)$/;
const NO_CDK = ['protocol', 'client', 'reconcile', 'handler', 'provider', 'provider-mirror', 'stacks', 'emulator'];
/** The protocol is pure: no I/O modules. */
const IO_MODULES = /^(node:)?(fs|fs\/promises|http|https|net|child_process|dgram|tls|worker_threads)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) out.push(m[1]);
  return out;
}

/** The folder a file belongs to: its top folder under src/, or for src/commands its command's home (`commands/drift`, `commands/command`). */
const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  const top = parts[0].replace(/\.tsx?$/, '');
  return top === 'commands' && parts.length > 1 ? `commands/${parts[1].replace(/\.tsx?$/, '')}` : top;
};

function violations(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    const allowed = ALLOWED[from];
    if (!allowed) continue; // src/cli.ts, src/index.ts: the entry points may import anything
    const where = relative(SRC, file);
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        const to = relative(SRC, target).startsWith('..') ? '(outside src)' : folderOf(target);
        if (to !== from && !allowed.includes(to)) out.push(`src/${where} imports ${spec} (${from} -> ${to})`);
      } else {
        if ((NO_CDK.includes(from) || from.startsWith('commands/')) && CDK_PACKAGES.test(spec)) out.push(`src/${where} imports ${spec} (${from} must not load cdktf)`);
        if (from === 'protocol' && IO_MODULES.test(spec)) out.push(`src/${where} imports ${spec} (protocol is pure: no I/O)`);
      }
    }
  }
  return out;
}

test('no import crosses the boundaries of DESIGN §6', () => {
  expect(violations()).toEqual([]);
});

test('the check sees the folders and would catch a crossing import', () => {
  const folders = new Set(sourceFiles(SRC).map(folderOf));
  for (const f of ['protocol', 'client', 'reconcile', 'constructs', 'handler', 'stacks', 'emulator', 'commands/drift', 'commands/command']) expect(folders).toContain(f);
  // Every command's home is checked: none may be left out of ALLOWED.
  expect([...folders].filter((f) => f.startsWith('commands/') && !ALLOWED[f])).toEqual([]);
  expect(specifiers("import { x } from '../handler/run';\nexport * from './a';\nconst y = require('../stacks');"))
    .toEqual(['../handler/run', './a', '../stacks']);
});

/**
 * DESIGN §6 again: everything about one kind lives in its definition and its reconcile
 * module, so the adapters name no kind. The exceptions, each a file of its own: the
 * provider's data sources and ephemeral resources (one per API noun, by design; the
 * RPC layer over them, ephemeral/handlers.ts, stays checked) and doctor (the API's wire
 * shapes, not kinds). Import writes each kind's construct from its definition's facet.
 */
const ADAPTERS = ['provider', 'handler', 'commands', 'stacks'];
const NAMES_KINDS = [/^provider\/data-sources\//, /^provider\/ephemeral\/sources\//, /^commands\/doctor\//];

function kindLiterals(text: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kinds: string[] = require('../../src/protocol').DEFINITIONS.map((d: { kind: string }) => d.kind);
  const literal = new RegExp(`(['"\`])(${kinds.join('|')})\\1`, 'g');
  // Comments may name a kind as an example: only the code counts.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  return [...code.matchAll(literal)].map((m) => m[2]);
}

test('the generic adapters name no kind (provider, handler, the commands, stacks; the listed exceptions aside)', () => {
  const named = sourceFiles(SRC)
    .map((file) => relative(SRC, file).split(sep).join('/'))
    .filter((where) => ADAPTERS.includes(where.split('/')[0]) && !NAMES_KINDS.some((p) => p.test(where)))
    .flatMap((where) => kindLiterals(readFileSync(join(SRC, where), 'utf8')).map((kind) => `src/${where} names '${kind}'`));
  expect(named).toEqual([]);
  expect(kindLiterals("if (kind === 'mailbox') x(\"dns-record\"); const y = 'packages'; // 'forwarder'\n/** `package` */")).toEqual(['mailbox', 'dns-record']);
});
