import type { IncomingMessage } from 'node:http';
import { validationError } from './assumed';

/**
 * Request bodies: read with a size limit, then parsed as JSON or, when the client says
 * `application/x-www-form-urlencoded`, as a PHP-style form (`new[mailbox][local]=info`,
 * `delete[]=m1`), since the API accepts both (api-notes "Conventions").
 */

/** Largest body accepted; larger ones are answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A too-large body is still read (and thrown away) up to this size, so that the 413
 * reaches the client instead of a connection reset mid-upload. Beyond it the
 * connection is cut.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export interface RawBody {
  /** Bytes received. */
  bytes: number;
  /** The body, or null when it was over MAX_BODY_BYTES. */
  data: Buffer | null;
}

/** Why a body could not be read: the status the request log records (499: client went away). */
export class BodyReadError extends Error {
  constructor(readonly status: 413 | 499, message: string) {
    super(message);
  }
}

export function readBody(req: IncomingMessage): Promise<RawBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
      if (bytes > DRAIN_LIMIT_BYTES) {
        req.destroy();
        reject(new BodyReadError(413, `request body over ${DRAIN_LIMIT_BYTES} bytes; connection closed`));
      }
    });
    req.on('end', () => resolve({ bytes, data: bytes <= MAX_BODY_BYTES ? Buffer.concat(chunks) : null }));
    req.on('error', (err) => reject(new BodyReadError(499, err.message)));
    req.on('aborted', () => reject(new BodyReadError(499, 'request aborted by the client')));
  });
}

export interface ParsedBody {
  /** undefined for an empty body. */
  value: unknown;
  /** True for a form-encoded body (all leaves are strings). */
  form: boolean;
}

/**
 * Deepest nesting of arrays/objects a body may have. No request of the API needs more
 * than a handful of levels; without a limit, code that walks or prints a value
 * (JSON.stringify in an error message, the form parser) overflows the stack (500).
 */
export const MAX_BODY_DEPTH = 32;

export function parseBody(data: Buffer, contentType: string | undefined): ParsedBody {
  const form = /^\s*application\/x-www-form-urlencoded\b/i.test(contentType ?? '');
  const text = data.toString('utf8');
  if (text.trim() === '') return { value: undefined, form };
  if (form) return { value: parseForm(text), form };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError(`malformed JSON body: ${(err as Error).message}`);
  }
  if (depthOf(value) > MAX_BODY_DEPTH) throw validationError(`request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  return { value, form };
}

/** Nesting depth of a parsed JSON value, without recursion (a scalar is 0). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > MAX_BODY_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

type FormNode = { [key: string]: FormNode | string };

/**
 * PHP-style bracket keys to nested objects. `a[]=x&a[]=y` and `a[0]=x&a[1]=y` give
 * arrays (an object whose keys are exactly 0..n-1 becomes an array). Keys that mix a
 * plain value and brackets (`a=1&a[b]=2`) are refused rather than guessed.
 */
export function parseForm(text: string): unknown {
  const root: FormNode = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw validationError(`malformed form field name "${key}"`);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    if (path.length > MAX_BODY_DEPTH) throw validationError(`form field name "${key.slice(0, 64)}…" is nested deeper than ${MAX_BODY_DEPTH} levels`);
    if (path.includes('__proto__')) throw validationError(`form field name "${key}" is not allowed`);
    let node = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(nextIndex(node)) : segment;
      if (i === path.length - 1) {
        if (typeof node[name] === 'object') throw validationError(`form field "${key}" conflicts with another field`);
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next === 'string') throw validationError(`form field "${key}" conflicts with another field`);
      if (next === undefined) node[name] = Object.create(null) as FormNode;
      node = node[name] as FormNode;
    });
  }
  return toArrays(root);
}

/** PHP's `a[]`: one past the largest integer key so far. */
function nextIndex(node: FormNode): number {
  const ints = Object.keys(node).filter((k) => /^[0-9]+$/.test(k)).map(Number);
  return ints.length === 0 ? 0 : Math.max(...ints) + 1;
}

function toArrays(node: FormNode | string): unknown {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => toArrays(node[k]));
  const out: Record<string, unknown> = Object.create(null);
  for (const k of keys) out[k] = toArrays(node[k]);
  return out;
}
