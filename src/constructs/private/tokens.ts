import { IResolvable, IResolveContext, Token, Tokenization } from './cdk';

/**
 * Helpers for values that may be unresolved cdktf tokens (TerraformVariable values,
 * resource attributes, Fn calls), and for writing literal text into Terraform JSON,
 * where every string is a template: a literal `${` or `%{` must be escaped or
 * Terraform would evaluate it.
 */

/** True when the value is (or, for strings, contains) an unresolved token. */
export function isToken(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'number') return Token.isUnresolved(value);
  if (Array.isArray(value)) return Tokenization.reverseList(value) !== undefined;
  return value !== null && typeof value === 'object' && Tokenization.isResolvable(value);
}

/** True when the value holds an unresolved token anywhere inside it. */
export function containsToken(value: unknown): boolean {
  if (isToken(value)) return true;
  if (Array.isArray(value)) return value.some(containsToken);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsToken);
  return false;
}

/** Escapes Terraform template sequences in literal text (`${` -> `$${`, `%{` -> `%%{`). */
export function escapeTemplate(text: string): string {
  // (function replacers: in a replacement string `$$` would mean a single `$`)
  return text.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/** A string for Terraform JSON: literal text (also between tokens) escaped, tokens left for cdktf. */
export function templateSafe(text: string): string {
  // e.g. TerraformVariable.value: an IResolvable typed as a string
  if (typeof text !== 'string') return Tokenization.isResolvable(text) ? Token.asString(text) : String(text);
  if (!Token.isUnresolved(text)) return escapeTemplate(text);
  const parts = fragmentsOf(text);
  if (!parts.some((part) => typeof part === 'string' && /[$%]\{/.test(part))) return text;
  return parts.map((part) => (typeof part === 'string' ? escapeTemplate(part) : Token.asString(part))).join('');
}

/**
 * The same value with every leaf made safe for a Terraform JSON string context:
 * literal strings escaped, number/boolean/list tokens turned into string tokens.
 * Used for trigger maps (whose values must be strings anyway).
 */
export function terraformView<T>(value: T): T {
  return view(value) as T;
}

function view(value: unknown): unknown {
  if (typeof value === 'string') return templateSafe(value);
  if (typeof value === 'number') return Token.isUnresolved(value) ? Token.asString(value) : value;
  if (Array.isArray(value)) {
    const list = Tokenization.reverseList(value);
    // A whole-list token: one element standing for its JSON, so a change still shows.
    if (list) return [Token.asString(new JsonEncodeExpression(list))];
    return value.map(view);
  }
  if (value !== null && typeof value === 'object') {
    if (Tokenization.isResolvable(value)) return Token.asString(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[templateSafe(k)] = view(v);
    return out;
  }
  return value;
}

/** `String(value)` that keeps a number token a token. */
export function tokenSafeString(value: string | number): string {
  return typeof value === 'number' && Token.isUnresolved(value) ? Token.asString(value) : String(value);
}

/**
 * `${jsonencode(<value as an HCL expression>)}`, with tokens as Terraform expressions,
 * so that Terraform itself encodes variable values (a raw `${var.x}` inside JSON text
 * would break on quotes). cdktf's own `Fn.jsonencode` does not escape quotes or
 * backslashes of literal strings inside the expression, so the expression is written
 * here: literal strings are complete HCL string literals, tokens are expressions.
 */
export function jsonencodeString(value: unknown): string {
  return Token.asString(new JsonEncodeExpression(value));
}

class JsonEncodeExpression implements IResolvable {
  public readonly creationStack: string[] = [];

  constructor(private readonly value: unknown) {}

  public resolve(context: IResolveContext): string {
    const outer = context.suppressBraces;
    try {
      const expr = `jsonencode(${renderHcl(context, this.value)})`;
      return outer ? expr : `\${${expr}}`;
    } finally {
      context.suppressBraces = outer;
    }
  }

  public toString(): string {
    return Token.asString(this);
  }
}

/** An HCL native-syntax expression for a value that may hold tokens. */
function renderHcl(context: IResolveContext, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return renderString(context, value);
  if (typeof value === 'number') {
    if (Token.isUnresolved(value)) return renderToken(context, value);
    return Number.isFinite(value) ? String(value) : 'null';
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const list = Tokenization.reverseList(value);
    if (list) return renderToken(context, list);
    return `[${value.map((v) => renderHcl(context, v)).join(', ')}]`;
  }
  if (typeof value === 'object') {
    if (Tokenization.isResolvable(value)) return renderToken(context, value);
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${renderKey(context, k)} = ${renderHcl(context, v)}`).join(', ')}}`;
  }
  return hclString(String(value));
}

function renderKey(context: IResolveContext, key: string): string {
  return Token.isUnresolved(key) ? `(${renderString(context, key)})` : hclString(key);
}

/** The resolved form of a token: an expression, or (for lazies) a literal value. */
function resolveToken(context: IResolveContext, token: unknown): { expr: string } | { literal: unknown } {
  const outer = context.suppressBraces;
  try {
    context.suppressBraces = true;
    const inner = context.resolve(token);
    context.suppressBraces = false;
    const braced = context.resolve(token);
    // References and function calls render differently with and without braces;
    // a lazy value that produced a literal does not.
    if (typeof inner === 'string' && inner !== braced) return { expr: inner };
    return { literal: inner };
  } finally {
    context.suppressBraces = outer;
  }
}

function renderToken(context: IResolveContext, token: unknown): string {
  const r = resolveToken(context, token);
  return 'expr' in r ? r.expr : renderHcl(context, r.literal);
}

function renderString(context: IResolveContext, text: string): string {
  if (!Token.isUnresolved(text)) return hclString(text);
  const parts = fragmentsOf(text);
  if (parts.length === 1 && typeof parts[0] !== 'string') return renderToken(context, parts[0]);
  let body = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      body += hclStringBody(part);
    } else {
      const r = resolveToken(context, part);
      body += 'expr' in r ? `\${${r.expr}}` : hclStringBody(String(r.literal));
    }
  }
  return `"${body}"`;
}

/** The literal texts and tokens of a string, in order (public cdktf API only). */
function fragmentsOf(text: string): Array<string | IResolvable> {
  const fragments = Tokenization.reverseString(text);
  const values: unknown[] = [];
  if (fragments.length === 1) {
    values.push(fragments.firstValue);
  } else if (fragments.length > 1) {
    let first = true;
    fragments.join({
      join: (left: unknown, right: unknown) => {
        if (first) values.push(left);
        first = false;
        values.push(right);
        return values;
      },
    });
  }
  return values.map((v) => {
    if (typeof v === 'string') {
      if (!Token.isUnresolved(v)) return v;
      const f = Tokenization.reverseString(v);
      return f.firstToken ?? v;
    }
    return Tokenization.isResolvable(v) ? v : String(v);
  });
}

/** A complete HCL string literal (quoted) for literal text. */
export function hclString(text: string): string {
  return `"${hclStringBody(text)}"`;
}

function hclStringBody(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return escapeTemplate(out);
}
