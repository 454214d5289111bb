import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * The README's "adding a kind" table is checked against what the test-only kind of
 * test/kinds/locker had to touch: each of its files stands for one file of a real kind,
 * and each registration it makes (register.ts) is made in one file of the library.
 * The counts of the targets are derived from the same table.
 */

/** What the test-only kind is made of, and the file of a real kind each piece stands for. */
const PIECES: ReadonlyArray<{ readonly testKind: string; readonly real: string }> = [
  { testKind: 'definition.ts', real: 'src/protocol/kinds/<kind>.ts' },
  { testKind: 'reconciler.ts', real: 'src/reconcile/<kind>.ts' },
  { testKind: 'construct.ts', real: 'src/constructs/<kind>.ts' },
  { testKind: 'client.ts', real: 'src/client/<noun>.ts' },
  { testKind: 'emulator.ts', real: 'src/emulator/nouns/<noun>/' },
];

/** Its registrations (register.ts), and where a real kind registers: the function must be exported by that file. */
const REGISTRATIONS: ReadonlyArray<{ readonly call: string; readonly real: string; readonly module: string }> = [
  { call: 'registerKind', real: 'src/protocol/kinds/index.ts', module: 'src/protocol/kinds/index.ts' },
  { call: 'registerReconciler', real: 'src/reconcile/index.ts', module: 'src/reconcile/index.ts' },
  { call: 'registerApiNoun', real: 'src/emulator/nouns/index.ts', module: 'src/emulator/nouns/index.ts' },
];

/**
 * What a real kind registers that the test-only kind reaches without a registration
 * (its construct is imported where used; its client noun through `client.noun()`;
 * its assumptions and dump types are a real noun's only).
 */
const STATIC_REGISTRATIONS = ['src/index.ts', 'src/client/client.ts', 'src/client/assumptions.ts', 'src/emulator/index.ts'];

function readmeTable(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('#### Adding a kind'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| file |')));
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

const checklist = [...PIECES.map((p) => p.real), ...REGISTRATIONS.map((r) => r.real), ...STATIC_REGISTRATIONS];

test('the README lists exactly the files the test-only kind stands for, and no other', () => {
  expect([...readmeTable()].sort()).toEqual([...checklist].sort());
});

test('each piece of the test-only kind exists, and each of its registrations is made through the file the README names', () => {
  const dir = join(REPO_ROOT, 'test', 'kinds', 'locker');
  for (const piece of PIECES) expect(existsSync(join(dir, piece.testKind))).toBe(true);
  const register = readFileSync(join(dir, 'register.ts'), 'utf8');
  for (const { call, module } of REGISTRATIONS) {
    expect(register).toContain(`${call}(`);
    expect(Object.keys(require(join(REPO_ROOT, module)))).toContain(call);
  }
  for (const file of STATIC_REGISTRATIONS) expect(existsSync(join(REPO_ROOT, file))).toBe(true);
});

test('the targets: at most 6 files outside client/ and emulator/, 9 with the client noun, 12 with the emulator noun', () => {
  const outside = checklist.filter((f) => !f.startsWith('src/client/') && !f.startsWith('src/emulator/'));
  const client = checklist.filter((f) => f.startsWith('src/client/'));
  const emulator = checklist.filter((f) => f.startsWith('src/emulator/'));
  expect(outside).toHaveLength(6);
  expect(outside.length + client.length).toBeLessThanOrEqual(9);
  expect(outside.length + client.length + emulator.length).toBeLessThanOrEqual(12);
});
