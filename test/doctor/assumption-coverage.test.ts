import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FACTS, FactEntry } from '../../src/commands/doctor/facts';

/**
 * Every behaviour the client assumes sits behind one exported function of
 * src/client/assumptions.ts; every such function must have a doctor fact that names
 * it: one that checks it against a live account's answers, or one that records why no
 * read can show it (`notReadOnly`: a write or an error answer would be needed). The
 * list of functions comes from the module at run time, so a new function without a
 * fact fails here.
 */

/** The exported functions of a module, as loaded. */
function exportedFunctions(module: Record<string, unknown>): string[] {
  return Object.keys(module).filter((name) => typeof module[name] === 'function').sort();
}

/** The functions no fact names. */
function withoutFact(functions: readonly string[], facts: readonly FactEntry[]): string[] {
  const named = new Set(facts.flatMap((f) => f.assumptions as readonly string[]));
  return functions.filter((name) => !named.has(name));
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const ASSUMPTIONS = exportedFunctions(require('../../src/client/assumptions'));

test('the module is read: its exported functions are found', () => {
  // Far fewer would mean the list is not what the module exports (the rest of the file would then prove nothing).
  expect(ASSUMPTIONS.length).toBeGreaterThanOrEqual(20);
  expect(ASSUMPTIONS).toEqual(expect.arrayContaining(['recordListOfZoneValue', 'dnsNameOfRead', 'dnsNumberOfRead', 'acceptDnsWriteResult']));
});

test('every exported function of client/assumptions.ts has a doctor fact, or a recorded reason why no read shows it', () => {
  expect(withoutFact(ASSUMPTIONS, FACTS)).toEqual([]);
});

test('the check fails for a function that no fact names', () => {
  expect(withoutFact([...ASSUMPTIONS, 'aFunctionNoFactNames'], FACTS)).toEqual(['aFunctionNoFactNames']);
  expect(withoutFact(ASSUMPTIONS, FACTS.filter((f) => !f.assumptions.includes('dnsNumberOfRead')))).toEqual(['dnsNumberOfRead']);
});

test('a fact names only functions that client/assumptions.ts exports', () => {
  expect(FACTS.flatMap((f) => f.assumptions).filter((name) => !ASSUMPTIONS.includes(name))).toEqual([]);
});

test('assumed facts name their functions, documented facts none; a reason is given only for an assumption, in words', () => {
  for (const f of FACTS) {
    if (f.basis === 'assumed') expect([f.fact, f.assumptions.length > 0]).toEqual([f.fact, true]);
    else expect([f.fact, f.assumptions]).toEqual([f.fact, []]);
    if (f.whyNotReadOnly !== undefined) expect([f.fact, f.basis, f.whyNotReadOnly]).toEqual([f.fact, 'assumed', expect.stringMatching(/^only .{10,}/)]);
  }
});

test('fact names are unique (the report finds a fact by its name)', () => {
  const names = FACTS.map((f) => f.fact);
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
});

test('docs/live-testing.md\'s doctor table names every function (what the doctor checks, or why it cannot)', () => {
  const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'live-testing.md'), 'utf8');
  const table = docs.slice(docs.indexOf('| function | area |'), docs.indexOf('### Adding a fact for a new assumption'));
  expect(table.length).toBeGreaterThan(100);
  expect(ASSUMPTIONS.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
});
