/**
 * A small protobuf (proto3) encoder/decoder driven by message descriptors written in
 * TypeScript (see messages.ts). The provider needs a few dozen messages of one schema
 * that never changes at run time, so plain descriptors cost nothing to load, unlike
 * parsing .proto text at start-up.
 *
 * Scalars are JS values (int64 as number: every int64 the protocol uses here is a
 * small count, version or index), bytes are Buffers, messages are plain objects keyed
 * by the descriptor's field names, maps are records, enums are numbers.
 */

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int64' | 'enum';

export interface FieldDescriptor {
  readonly no: number;
  readonly type: ScalarType | 'message' | 'map';
  readonly repeated?: boolean;
  /** The message type (for `message`, and the value type of a `map<string, Message>`). */
  readonly message?: () => MessageDescriptor;
  /** The value type of a `map<string, scalar>`. */
  readonly mapValue?: ScalarType;
}

export type MessageDescriptor = { readonly [name: string]: FieldDescriptor };

// Wire types (protobuf encoding spec).
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/** Bytes of the varint of a non-negative length. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n >>>= 7;
    size++;
  }
  return size;
}

/**
 * One growing buffer per encoded message. A nested message is written in place after a
 * one-byte length, which is widened (the message moved up) only when it turns out
 * longer than 127 bytes: no buffer per field and no concatenation (a plan encodes
 * several messages per resource).
 */
class Writer {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(value: number | bigint): void {
    // Tags, lengths, bools and enums: small non-negative numbers, written without BigInt
    // (a plan writes several per resource).
    if (typeof value === 'number' && value >= 0 && value <= 0x7fffffff && Number.isInteger(value)) {
      this.room(5);
      let small = value;
      while (small >= 0x80) {
        this.buf[this.pos++] = (small & 0x7f) | 0x80;
        small >>>= 7;
      }
      this.buf[this.pos++] = small;
      return;
    }
    this.room(10);
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  tag(no: number, wireType: number): void {
    this.varint(no * 8 + wireType);
  }

  bytes(data: Uint8Array): void {
    this.varint(data.length);
    this.room(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  string(text: string): void {
    const length = Buffer.byteLength(text, 'utf8');
    this.varint(length);
    this.room(length);
    this.pos += this.buf.write(text, this.pos, length, 'utf8');
  }

  /** A length-delimited field written by `body`, its length put in front afterwards. */
  delimited(body: () => void): void {
    this.room(1);
    const start = this.pos++;
    body();
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const extra = varintSize(length) - 1;
    this.room(extra);
    this.buf.copy(this.buf, start + 1 + extra, start + 1, this.pos);
    this.pos = start;
    this.varint(length);
    this.pos += length;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

function writeScalar(w: Writer, no: number, type: ScalarType, value: unknown): void {
  switch (type) {
    case 'string':
      w.tag(no, LEN);
      w.string(String(value));
      return;
    case 'bytes':
      w.tag(no, LEN);
      w.bytes(value as Uint8Array);
      return;
    case 'bool':
      w.tag(no, VARINT);
      w.varint(value ? 1 : 0);
      return;
    case 'int64':
    case 'enum':
      w.tag(no, VARINT);
      w.varint(value as number);
      return;
  }
}

/** proto3: default values are not written (an absent field reads back as its default). */
function isDefault(type: ScalarType, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (type === 'bytes') return (value as Uint8Array).length === 0;
  return value === '' || value === false || value === 0;
}

/** A descriptor's fields as a list, made once per descriptor (encode and decode walk it per message). */
const fieldsCache = new WeakMap<MessageDescriptor, ReadonlyArray<readonly [string, FieldDescriptor]>>();

function fieldsOf(desc: MessageDescriptor): ReadonlyArray<readonly [string, FieldDescriptor]> {
  let fields = fieldsCache.get(desc);
  if (!fields) {
    fields = Object.entries(desc);
    fieldsCache.set(desc, fields);
  }
  return fields;
}

function writeMessage(w: Writer, desc: MessageDescriptor, obj: Record<string, unknown>): void {
  for (const [name, field] of fieldsOf(desc)) {
    const value = obj[name];
    if (value === undefined || value === null) continue;
    if (field.type === 'map') {
      for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
        w.tag(field.no, LEN);
        w.delimited(() => {
          writeScalar(w, 1, 'string', key);
          if (field.message) {
            w.tag(2, LEN);
            w.delimited(() => writeMessage(w, field.message!(), entry as Record<string, unknown>));
          } else {
            writeScalar(w, 2, field.mapValue ?? 'string', entry);
          }
        });
      }
      continue;
    }
    if (field.type === 'message') {
      const message = field.message!();
      for (const item of field.repeated ? (value as unknown[]) : [value]) {
        w.tag(field.no, LEN);
        w.delimited(() => writeMessage(w, message, item as Record<string, unknown>));
      }
    } else if (field.repeated) {
      for (const item of value as unknown[]) writeScalar(w, field.no, field.type, item);
    } else if (!isDefault(field.type, value)) {
      writeScalar(w, field.no, field.type, value);
    }
  }
}

export function encodeMessage(desc: MessageDescriptor, obj: Record<string, unknown>): Buffer {
  const w = new Writer();
  writeMessage(w, desc, obj);
  return w.finish();
}

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer, readonly end = buf.length) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new Error('protobuf: truncated varint');
      const byte = this.buf[this.pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  }

  smallVarint(): number {
    // Up to 4 bytes (28 bits: tags, lengths, small values) without BigInt; longer ones
    // (or negative int64s, 10 bytes) are read again the general way.
    const start = this.pos;
    let result = 0;
    for (let shift = 0; shift < 28 && this.pos < this.end; shift += 7) {
      const byte = this.buf[this.pos++];
      result |= (byte & 0x7f) << shift;
      if (byte < 0x80) return result;
    }
    this.pos = start;
    return Number(BigInt.asIntN(64, this.varint()));
  }

  bytes(): Buffer {
    const len = this.smallVarint();
    const start = this.pos;
    this.pos += len;
    if (this.pos > this.end) throw new Error('protobuf: truncated field');
    return this.buf.subarray(start, this.pos);
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === I64) this.pos += 8;
    else if (wireType === LEN) this.bytes();
    else if (wireType === I32) this.pos += 4;
    else throw new Error(`protobuf: unsupported wire type ${wireType}`);
  }
}

function readScalar(r: Reader, type: ScalarType): unknown {
  switch (type) {
    case 'string':
      return r.bytes().toString('utf8');
    case 'bytes':
      return Buffer.from(r.bytes());
    case 'bool':
      return r.smallVarint() !== 0;
    case 'int64':
    case 'enum':
      return r.smallVarint();
  }
}

function defaultOf(field: FieldDescriptor): unknown {
  if (field.type === 'map') return {};
  if (field.repeated) return [];
  switch (field.type) {
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'bool':
      return false;
    case 'int64':
    case 'enum':
      return 0;
    case 'message':
      return undefined;
  }
}

const byNumberCache = new WeakMap<MessageDescriptor, Map<number, [string, FieldDescriptor]>>();

function byNumber(desc: MessageDescriptor): Map<number, [string, FieldDescriptor]> {
  let map = byNumberCache.get(desc);
  if (!map) {
    map = new Map(fieldsOf(desc).map(([name, field]) => [field.no, [name, field]]));
    byNumberCache.set(desc, map);
  }
  return map;
}

/** Decodes a message; absent scalar fields take their proto3 default, absent messages are undefined. */
export function decodeMessage<T = Record<string, unknown>>(desc: MessageDescriptor, buf: Buffer): T {
  const out: Record<string, unknown> = {};
  for (const [name, field] of fieldsOf(desc)) out[name] = defaultOf(field);
  const fields = byNumber(desc);
  const r = new Reader(buf);
  while (r.pos < r.end) {
    const tag = r.smallVarint();
    const no = Math.floor(tag / 8);
    const wireType = tag & 7;
    const known = fields.get(no);
    if (!known) {
      r.skip(wireType);
      continue;
    }
    const [name, field] = known;
    if (field.type === 'map') {
      const entry = new Reader(r.bytes());
      let key = '';
      let value: unknown = field.message ? {} : defaultOf({ no: 2, type: field.mapValue ?? 'string' });
      while (entry.pos < entry.end) {
        const t = entry.smallVarint();
        if (t >> 3 === 1) key = entry.bytes().toString('utf8');
        else if (t >> 3 === 2) value = field.message ? decodeMessage(field.message(), entry.bytes()) : readScalar(entry, field.mapValue ?? 'string');
        else entry.skip(t & 7);
      }
      (out[name] as Record<string, unknown>)[key] = value;
      continue;
    }
    if (field.type === 'message') {
      const value = decodeMessage(field.message!(), r.bytes());
      if (field.repeated) (out[name] as unknown[]).push(value);
      else out[name] = value;
      continue;
    }
    if (field.repeated && wireType === LEN && field.type !== 'string' && field.type !== 'bytes') {
      // Packed repeated scalars.
      const packed = new Reader(r.bytes());
      while (packed.pos < packed.end) (out[name] as unknown[]).push(readScalar(packed, field.type));
      continue;
    }
    const value = readScalar(r, field.type);
    if (field.repeated) (out[name] as unknown[]).push(value);
    else out[name] = value;
  }
  return out as T;
}
