/**
 * TypeScript text for `reseller-hosting import`: literals, comments and construct ids,
 * the same for every kind.
 */

/** Words TypeScript reserves, and names the generated constructor already uses. */
const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with as implements interface ' +
    'let package private protected public static yield any boolean constructor declare get module require number set string ' +
    'symbol type from of scope id app').split(' '),
);

/**
 * Allocates construct ids: valid Terraform names (and TypeScript identifiers), unique
 * with the `_settings` sibling each construct adds (and `_password`, which stacks
 * synthesized by 0.1 had).
 */
export class IdAllocator {
  private readonly used = new Set<string>();

  allocate(prefix: string, name: string): string {
    let base = `${prefix}_${name}`.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/_$/, '');
    if (!/^[a-z_]/.test(base)) base = `_${base}`;
    if (base.length > 60) base = base.slice(0, 60).replace(/_$/, '');
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}_${n}`;
      const names = [id, `${id}_settings`, `${id}_password`];
      if (RESERVED.has(id) || names.some((x) => this.used.has(x))) continue;
      names.forEach((x) => this.used.add(x));
      return id;
    }
  }
}

/** A TypeScript string literal. */
export function tsString(value: string): string {
  const body = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'").replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `'${body}'`;
}

/** Text safe inside a `//` comment. */
export function commentText(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value of a checked spec as a TypeScript literal: strings, numbers, booleans, lists and maps of them. */
export function tsLiteral(value: unknown): string {
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : tsString(k)}: ${tsLiteral(v)}`);
    return `{ ${entries.join(', ')} }`;
  }
  throw new Error(`import: no TypeScript literal for ${String(value)}`);
}

/** The English plural ending of a label: `es` after s, x, z, ch and sh (`mailboxes`), else `s`. */
const pluralEnding = (label: string) => (/(s|x|z|ch|sh)$/.test(label) ? 'es' : 's');

/** How many of a kind, the plural ending in parentheses: `2 package(s)`, `4 mailbox(es)`. */
export function countOf(count: number, label: string, plural?: string): string {
  // A label that is its own plural ('web settings', the definition's `plural`) takes no ending.
  return plural === label ? `${count} ${label}` : `${count} ${label}(${pluralEnding(label)})`;
}

/** The plural of a label: `packages`, `mailboxes`, `DNS records`. */
export function pluralOf(label: string, plural?: string): string {
  return plural ?? `${label}${pluralEnding(label)}`;
}

/** `a`, `a or b`, `a, b or c` (with `and`: `a, b and c`). */
export function listWords(words: readonly string[], last = 'or'): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** The first letter in capitals: `Cloud server`. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
