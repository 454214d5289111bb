import { schemaMarkdown, typeName } from '../../scripts/docs/schema-markdown';
import type { DocAttribute, DocBlock } from '../../scripts/docs/schema-source';

/**
 * The schema section of a page for shapes today's resources do not have yet (data
 * sources with lists of objects, nested attributes, nested blocks, a required
 * write-only attribute): a schema that gains them renders without generator changes.
 */

const attr = (a: Partial<DocAttribute> & { name: string }): DocAttribute => ({
  description: '', required: false, optional: false, computed: false, sensitive: false, writeOnly: false, deprecated: false, notes: [], ...a,
});

const block: DocBlock = {
  description: 'Reads packages.',
  deprecated: false,
  attributes: [
    attr({ name: 'packages', type: ['list', ['object', { name: 'string', id: 'number' }]], computed: true, description: 'Every package.' }),
    attr({ name: 'users', type: ['set', ['object', { email: 'string' }]], computed: true }),
    attr({ name: 'domain', type: 'string', required: true, description: 'Domain to read.', notes: ['Changing it replaces the object.'] }),
    attr({ name: 'secret', type: 'string', required: true, writeOnly: true, sensitive: true, description: 'A secret.' }),
    attr({
      name: 'owner', optional: true, computed: true, description: 'The owner.',
      nested: { nesting: 1, attributes: [attr({ name: 'email', type: 'string', computed: true, description: 'E-mail.' }), attr({ name: 'ref', type: 'string', optional: true })] },
    }),
  ],
  blocks: [{ name: 'filter', nesting: 2, minItems: 0, maxItems: 0, block: { description: 'Filters.', deprecated: false, attributes: [attr({ name: 'name', type: 'string', required: true, description: 'Name.' })], blocks: [] } }],
};

describe('schema markdown', () => {
  const md = schemaMarkdown(block);
  const section = (title: string) => md.split(/\n(?=### )/).find((s) => s.startsWith(title)) ?? '';

  it('groups attributes into Required, Optional and Read-Only, sorted, with type, flags, description and notes', () => {
    expect(section('### Required')).toContain('- `domain` (String) Domain to read. Changing it replaces the object.\n- `secret` (String, Sensitive, [Write-only](');
    expect(section('### Required')).toContain('> **NOTE**: [Write-only arguments]');
    expect(section('### Optional')).toContain('- `owner` (Attributes) The owner. (see [below for nested schema](#nestedatt--owner))');
    expect(section('### Optional')).toContain('- `filter` (Block List, Optional) Filters. (see [below for nested schema](#nestedblock--filter))');
    expect(section('### Read-Only')).toContain('- `packages` (List of Object) Every package. (see [below for nested schema](#nestedatt--packages))');
  });

  it('writes a nested schema for nested attributes, blocks and object types, under its anchor', () => {
    expect(md).toContain('<a id="nestedatt--owner"></a>\n### Nested Schema for `owner`\n\nOptional:\n\n- `ref` (String)\n\nRead-Only:\n\n- `email` (String) E-mail.');
    expect(md).toContain('<a id="nestedblock--filter"></a>\n### Nested Schema for `filter`\n\nRequired:\n\n- `name` (String) Name.');
    expect(md).toContain('### Nested Schema for `packages`\n\nRead-Only:\n\n- `id` (Number)\n- `name` (String)\n\n<a id="nestedatt--users"></a>');
  });

  it('names cty types as the registry does', () => {
    expect([typeName('bool'), typeName(['map', 'string']), typeName(['set', ['list', 'number']])]).toEqual(['Boolean', 'Map of String', 'Set of List of Number']);
  });
});
