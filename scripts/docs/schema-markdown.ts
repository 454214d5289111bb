import type { CtyType, DocAttribute, DocBlock, DocNestedBlock } from './schema-source';
import { byCodePoint } from './order';

/**
 * A schema block as markdown in the layout Terraform users know from the registry
 * (tfplugindocs' "Schema" section): attributes grouped into Required, Optional and
 * Read-Only, sorted by name, each with its type, flags, description and notes; nested
 * blocks and object attributes get their own "Nested Schema" section, linked by anchor.
 */

const WRITE_ONLY_LINK = '[Write-only](https://developer.hashicorp.com/terraform/language/resources/ephemeral#write-only-arguments)';
const WRITE_ONLY_NOTE = `> **NOTE**: ${WRITE_ONLY_LINK.replace('Write-only', 'Write-only arguments')} are supported in Terraform 1.11 and later.`;

const NESTING_NAMES: Record<number, string> = { 1: '', 2: ' List', 3: ' Set', 4: ' Map', 5: '' };

/** A nested schema still to be written: its anchor, dotted path, and content. */
interface Pending {
  readonly anchor: string;
  readonly path: string;
  readonly render: (pending: Pending[]) => string[];
}

type Group = 'Required' | 'Optional' | 'Read-Only';
const GROUPS: readonly Group[] = ['Required', 'Optional', 'Read-Only'];

export function typeName(type: CtyType | undefined): string {
  if (type === undefined) return 'Dynamic';
  if (typeof type === 'string') return ({ string: 'String', number: 'Number', bool: 'Boolean', dynamic: 'Dynamic' } as Record<string, string>)[type] ?? type;
  const [kind, inner] = type;
  if (kind === 'object') return 'Object';
  const collection = ({ list: 'List', set: 'Set', map: 'Map' } as Record<string, string>)[kind] ?? kind;
  return `${collection} of ${typeName(inner as CtyType)}`;
}

/** The object type inside an attribute's type (an object, or a collection of objects). */
function objectAttributes(type: CtyType | undefined): Record<string, CtyType> | undefined {
  if (type === undefined || typeof type === 'string') return undefined;
  if (type[0] === 'object') return type[1] as Record<string, CtyType>;
  return objectAttributes(type[1] as CtyType);
}

function groupOf(attr: DocAttribute): Group {
  if (attr.required) return 'Required';
  if (attr.optional) return 'Optional';
  return 'Read-Only';
}

function blockGroup(block: DocNestedBlock): Group {
  const attrs = block.block.attributes;
  if (attrs.length && attrs.every((a) => !a.optional && !a.required)) return 'Read-Only';
  return block.minItems > 0 ? 'Required' : 'Optional';
}

const byName = <T extends { name: string }>(items: readonly T[]): T[] => [...items].sort((a, b) => byCodePoint(a.name, b.name));
const sentence = (text: string): string => text.trim();

function attributeLine(attr: DocAttribute, parentPath: string, pending: Pending[]): string {
  const flags: string[] = [attr.nested ? `Attributes${NESTING_NAMES[attr.nested.nesting] ?? ''}` : typeName(attr.type)];
  if (attr.sensitive) flags.push('Sensitive');
  if (attr.writeOnly) flags.push(WRITE_ONLY_LINK);
  if (attr.deprecated) flags.push('Deprecated');
  const text = [attr.description, ...attr.notes].map(sentence).filter(Boolean).join(' ');
  const path = parentPath ? `${parentPath}.${attr.name}` : attr.name;
  let link = '';
  const object = objectAttributes(attr.type);
  if (attr.nested || object) {
    const anchor = `nestedatt--${path.replace(/\./g, '--')}`;
    link = ` (see [below for nested schema](#${anchor}))`;
    const group = groupOf(attr);
    pending.push({
      anchor,
      path,
      render: (more) => (attr.nested
        ? groupedLines(attr.nested.attributes, [], path, more, ':')
        : [`${group}:`, '', ...Object.keys(object!).sort().map((name) => attributeLine(
            { name, type: object![name], description: '', required: false, optional: false, computed: false, sensitive: false, writeOnly: false, deprecated: false, notes: [] },
            path, more))]),
    });
  }
  return `- \`${attr.name}\` (${flags.join(', ')})${text ? ` ${text}` : ''}${link}`;
}

function blockLine(block: DocNestedBlock, parentPath: string, pending: Pending[]): string {
  const path = parentPath ? `${parentPath}.${block.name}` : block.name;
  const anchor = `nestedblock--${path.replace(/\./g, '--')}`;
  pending.push({ anchor, path, render: (more) => groupedLines(block.block.attributes, block.block.blocks, path, more, ':') });
  const group = blockGroup(block);
  const kind = `Block${NESTING_NAMES[block.nesting] ?? ''}, ${group === 'Read-Only' ? 'Read-only' : group}`;
  const text = sentence(block.block.description);
  return `- \`${block.name}\` (${kind})${text ? ` ${text}` : ''} (see [below for nested schema](#${anchor}))`;
}

/**
 * Attributes and blocks in their groups. `style` '###' makes the top-level headings
 * ("### Required"), ':' the labels of a nested schema ("Required:").
 */
function groupedLines(attributes: readonly DocAttribute[], blocks: readonly DocNestedBlock[], path: string, pending: Pending[], style: '###' | ':'): string[] {
  const lines: string[] = [];
  for (const group of GROUPS) {
    const attrs = byName(attributes).filter((a) => groupOf(a) === group);
    const nested = byName(blocks).filter((b) => blockGroup(b) === group);
    if (!attrs.length && !nested.length) continue;
    lines.push(style === '###' ? `### ${group}` : `${group}:`, '');
    if (attrs.some((a) => a.writeOnly)) lines.push(WRITE_ONLY_NOTE, '');
    for (const attr of attrs) lines.push(attributeLine(attr, path, pending));
    for (const block of nested) lines.push(blockLine(block, path, pending));
    lines.push('');
  }
  return lines;
}

/** The "## Schema" section of a block (a resource, a data source, the provider). */
export function schemaMarkdown(block: DocBlock): string {
  const pending: Pending[] = [];
  const lines = ['## Schema', '', ...groupedLines(block.attributes, block.blocks, '', pending, '###')];
  // Nested schemas in the order they were linked, each after its parent's (breadth first).
  for (let i = 0; i < pending.length; i++) {
    const { anchor, path, render } = pending[i];
    if (lines[lines.length - 1] !== '') lines.push('');
    lines.push(`<a id="${anchor}"></a>`, `### Nested Schema for \`${path}\``, '', ...render(pending));
  }
  while (lines[lines.length - 1] === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
