import { Decoder, Encoder, ExtData } from '@msgpack/msgpack';

/**
 * Terraform values on the wire (`DynamicValue.msgpack`), decoded and encoded according
 * to the type the provider declared in its schema (hashicorp/terraform
 * docs/plugin-protocol/object-wire-format.md):
 * - null is msgpack nil; an unknown value is any msgpack extension (code 0, or 12 for a
 *   "refined" unknown whose refinements this provider ignores), and we send code 0;
 * - objects and maps are msgpack maps, lists and sets are arrays;
 * - numbers may arrive as integers, floats or decimal strings, and leave as decimal
 *   strings (numberToWire says why).
 */

export type TfType =
  | 'string'
  | 'number'
  | 'bool'
  | readonly ['list' | 'set' | 'map', TfType]
  | readonly ['object', { readonly [attribute: string]: TfType }];

/** The placeholder of a value known only after apply. */
export class UnknownValue {
  toJSON(): string {
    return '(known after apply)';
  }
}
export const UNKNOWN = new UnknownValue();

export function isUnknown(value: unknown): value is UnknownValue {
  return value instanceof UnknownValue;
}

/** A decoded value: null, unknown, a primitive, an array or an object/map. */
export type TfValue = null | UnknownValue | string | number | boolean | TfValue[] | { [key: string]: TfValue };

export type TfObject = { [attribute: string]: TfValue };

function fromWire(raw: unknown, type: TfType): TfValue {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof ExtData) return UNKNOWN;
  if (type === 'string') return String(raw);
  if (type === 'bool') return Boolean(raw);
  if (type === 'number') return typeof raw === 'number' ? raw : Number(raw);
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') return (raw as unknown[]).map((item) => fromWire(item, inner as TfType));
  if (kind === 'map') {
    const out: TfObject = {};
    for (const [key, item] of Object.entries(raw as Record<string, unknown>)) out[key] = fromWire(item, inner as TfType);
    return out;
  }
  const attrs = inner as Record<string, TfType>;
  const source = raw as Record<string, unknown>;
  const out: TfObject = {};
  for (const [name, attrType] of Object.entries(attrs)) out[name] = fromWire(source[name], attrType);
  return out;
}

/**
 * Numbers go out as decimal strings, which the protocol allows (Terraform's own encoder
 * sends a number that int64 or float64 cannot hold that way). Terraform 1.11-1.14 parse
 * a string exactly as they parse the number in a state file, and an integer or float
 * otherwise: a refreshed number then differs in its in-memory form from the same number
 * read from the state, and `terraform plan -refresh-only -detailed-exitcode` exits 2
 * with "No changes" (hashicorp/terraform 659d5e2, fixed in 1.15).
 */
function numberToWire(n: number): string | number {
  return Number.isFinite(n) ? String(n) : n;
}

function toWire(value: unknown, type: TfType): unknown {
  if (value === null || value === undefined) return null;
  if (isUnknown(value)) return new ExtData(0, new Uint8Array(0));
  if (type === 'string') return String(value);
  if (type === 'bool') return Boolean(value);
  if (type === 'number') return numberToWire(Number(value));
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') return (value as unknown[]).map((item) => toWire(item, inner as TfType));
  if (kind === 'map') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) out[key] = toWire(item, inner as TfType);
    return out;
  }
  const attrs = inner as Record<string, TfType>;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, attrType] of Object.entries(attrs)) out[name] = toWire(source[name], attrType);
  return out;
}

// One encoder and one decoder for the process: the library's encode()/decode() make a
// new one per call (a 2 KiB buffer each), and a plan makes several calls per resource.
// Both are synchronous, so no call ever sees another's state.
const encoder = new Encoder();
const decoder = new Decoder();

/** Decodes a DynamicValue; JSON is the fallback the protocol allows when msgpack is empty. */
export function decodeDynamic(value: { msgpack?: Buffer; json?: Buffer } | undefined, type: TfType): TfValue {
  if (!value) return null;
  if (value.msgpack && value.msgpack.length) return fromWire(decoder.decode(value.msgpack), type);
  if (value.json && value.json.length) return fromWire(JSON.parse(value.json.toString('utf8')), type);
  return null;
}

export function encodeDynamic(value: TfValue | undefined, type: TfType): { msgpack: Buffer } {
  const bytes = encoder.encode(toWire(value, type));
  return { msgpack: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Whether a value is, or contains, an unknown. */
export function containsUnknown(value: TfValue | undefined): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

/** The JSON text of a type constraint, as `Schema.Attribute.type` carries it. */
export function typeJson(type: TfType): Buffer {
  return Buffer.from(JSON.stringify(type), 'utf8');
}
