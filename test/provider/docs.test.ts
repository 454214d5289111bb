import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coreModel } from '../../src/provider/core-kinds';
import { PROVIDER_SCHEMA } from '../../src/provider/provider-config';
import { schemaMessageOf } from '../../src/provider/resources/schema';
import type { SchemaAttribute } from '../../src/provider/wire/rpc';

/**
 * docs/provider.md agrees with the provider's schema: every attribute its tables call
 * required, optional or computed is so in the schema, and every attribute of the
 * schema is in the tables.
 */

const DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'provider.md'), 'utf8');

/** The rows of the table under a heading: attribute names and the word the second column starts with. */
function tableUnder(heading: string): Map<string, string> {
  const start = DOC.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/provider.md has no heading "${heading}"`);
  const rows = new Map<string, string>();
  let inTable = false;
  for (const line of DOC.slice(start + heading.length + 2).split('\n')) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const [names, presence] = line.split('|').slice(1, 3).map((c) => c.trim());
    if (names === 'Attribute' || /^-+$/.test(names)) continue;
    const word = /^(required|optional|computed|write-only)/.exec(presence)?.[1] ?? `(unrecognised: ${presence})`;
    for (const [, name] of names.matchAll(/`([a-z_]+)`/g)) rows.set(name, word);
  }
  return rows;
}

function presenceOf(attribute: SchemaAttribute): string {
  if (attribute.required) return 'required';
  if (attribute.writeOnly) return 'write-only';
  if (attribute.optional) return 'optional';
  return 'computed';
}

/** Attributes documented "as for mailboxes" (the forwarder's placement) take the mailbox's words. */
function documented(typeName: string): Map<string, string> {
  const rows = tableUnder(`### \`${typeName}\``);
  if (typeName === 'reseller_forwarder') {
    const mailbox = tableUnder('### `reseller_mailbox`');
    for (const name of ['package', 'domain', 'local_part']) rows.set(name, mailbox.get(name)!);
  }
  return rows;
}

describe('docs/provider.md', () => {
  for (const kind of coreModel({}).kinds) {
    it(`documents ${kind.typeName} as its schema declares it`, () => {
      const schema = new Map((schemaMessageOf(kind).block.attributes ?? []).filter((a) => a.name !== 'id').map((a) => [a.name, presenceOf(a)]));
      expect(Object.fromEntries(documented(kind.typeName))).toEqual(Object.fromEntries(schema));
    });
  }

  it('documents every provider block attribute as optional', () => {
    const schema = new Map((PROVIDER_SCHEMA.block.attributes ?? []).map((a) => [a.name, presenceOf(a)]));
    expect(Object.fromEntries(tableUnder('### The provider block'))).toEqual(Object.fromEntries(schema));
  });
});
