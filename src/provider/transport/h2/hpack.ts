import { huffmanDecode } from './huffman';

/**
 * HPACK (RFC 7541), as much as a server of unary gRPC calls needs: a decoder of the
 * client's header blocks, with the dynamic table the client indexes into, and an
 * encoder of plain literals for the server's few response headers (never indexed, so
 * the server keeps no table of its own and the client's stays empty).
 */

export type HeaderList = Array<[name: string, value: string]>;

/** RFC 7541 Appendix A: the static table, indices 1-61. */
const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''], [':method', 'GET'], [':method', 'POST'], [':path', '/'], [':path', '/index.html'],
  [':scheme', 'http'], [':scheme', 'https'], [':status', '200'], [':status', '204'], [':status', '206'],
  [':status', '304'], [':status', '400'], [':status', '404'], [':status', '500'], ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'], ['accept-language', ''], ['accept-ranges', ''], ['accept', ''],
  ['access-control-allow-origin', ''], ['age', ''], ['allow', ''], ['authorization', ''], ['cache-control', ''],
  ['content-disposition', ''], ['content-encoding', ''], ['content-language', ''], ['content-length', ''],
  ['content-location', ''], ['content-range', ''], ['content-type', ''], ['cookie', ''], ['date', ''],
  ['etag', ''], ['expect', ''], ['expires', ''], ['from', ''], ['host', ''], ['if-match', ''],
  ['if-modified-since', ''], ['if-none-match', ''], ['if-range', ''], ['if-unmodified-since', ''],
  ['last-modified', ''], ['link', ''], ['location', ''], ['max-forwards', ''], ['proxy-authenticate', ''],
  ['proxy-authorization', ''], ['range', ''], ['referer', ''], ['refresh', ''], ['retry-after', ''],
  ['server', ''], ['set-cookie', ''], ['strict-transport-security', ''], ['transfer-encoding', ''],
  ['user-agent', ''], ['vary', ''], ['via', ''], ['www-authenticate', ''],
];

/** An entry's size in the dynamic table (RFC 7541 §4.1): its octets plus 32. */
const entrySize = (name: string, value: string) => name.length + value.length + 32;

/** Decodes the header blocks of one connection, in order (they share the dynamic table). */
export class HeaderDecoder {
  /** Newest first, as HPACK numbers them (index 62 is the newest). */
  private readonly dynamic: Array<readonly [string, string]> = [];
  private size = 0;
  private maxSize: number;

  /** `limit`: SETTINGS_HEADER_TABLE_SIZE as this side announced it (4096 unless changed). */
  constructor(private readonly limit = 4096) {
    this.maxSize = limit;
  }

  /** The header fields of one complete block. Throws on anything malformed (a COMPRESSION_ERROR for the connection). */
  decode(block: Buffer): HeaderList {
    const fields: HeaderList = [];
    const reader = { block, at: 0 };
    while (reader.at < block.length) {
      const first = block[reader.at];
      if (first & 0x80) { // indexed field
        const [name, value] = this.entry(readInteger(reader, 7));
        fields.push([name, value]);
      } else if ((first & 0xc0) === 0x40) { // literal, added to the table
        const field = this.literal(reader, 6);
        this.add(field[0], field[1]);
        fields.push(field);
      } else if ((first & 0xe0) === 0x20) { // dynamic table size update
        const size = readInteger(reader, 5);
        if (size > this.limit) throw new Error(`HPACK: table size ${size} above the ${this.limit} allowed`);
        this.maxSize = size;
        this.evict(0);
      } else { // literal not indexed / never indexed
        fields.push(this.literal(reader, 4));
      }
    }
    return fields;
  }

  private literal(reader: Reader, prefix: number): [string, string] {
    const index = readInteger(reader, prefix);
    const name = index === 0 ? readString(reader) : this.entry(index)[0];
    return [name, readString(reader)];
  }

  private entry(index: number): readonly [string, string] {
    if (index >= 1 && index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1];
    const entry = this.dynamic[index - STATIC_TABLE.length - 1];
    if (!entry) throw new Error(`HPACK: index ${index} is in neither table`);
    return entry;
  }

  private add(name: string, value: string): void {
    const size = entrySize(name, value);
    this.evict(size);
    if (size > this.maxSize) return; // larger than the table: it empties the table and is not kept (§4.4)
    this.dynamic.unshift([name, value]);
    this.size += size;
  }

  /** Evicts the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.dynamic.length && this.size + room > this.maxSize) {
      const [name, value] = this.dynamic.pop()!;
      this.size -= entrySize(name, value);
    }
  }
}

interface Reader { readonly block: Buffer; at: number }

/** An integer with an N-bit prefix (RFC 7541 §5.1). */
function readInteger(reader: Reader, prefix: number): number {
  const max = (1 << prefix) - 1;
  let value = reader.block[reader.at++] & max;
  if (value < max) return value;
  for (let shift = 0; ; shift += 7) {
    if (reader.at >= reader.block.length) throw new Error('HPACK: integer runs past the block');
    if (shift > 28) throw new Error('HPACK: integer too large');
    const byte = reader.block[reader.at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return value;
  }
}

/** A string literal (RFC 7541 §5.2), plain or Huffman-coded; header octets kept as latin1. */
function readString(reader: Reader): string {
  if (reader.at >= reader.block.length) throw new Error('HPACK: string runs past the block');
  const huffman = (reader.block[reader.at] & 0x80) !== 0;
  const length = readInteger(reader, 7);
  const end = reader.at + length;
  if (end > reader.block.length) throw new Error('HPACK: string runs past the block');
  const raw = reader.block.subarray(reader.at, end);
  reader.at = end;
  return (huffman ? huffmanDecode(raw) : raw).toString('latin1');
}

/** An integer with an N-bit prefix whose other bits are `flags`. */
function integerBytes(value: number, prefix: number, flags: number): number[] {
  const max = (1 << prefix) - 1;
  if (value < max) return [flags | value];
  const out = [flags | max];
  let rest = value - max;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

/** One header field as a literal without indexing, its name a literal too (RFC 7541 §6.2.2). */
export function literalField(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const valueBytes = Buffer.from(value, 'latin1');
  return Buffer.concat([
    Buffer.from([0x00, ...integerBytes(nameBytes.length, 7, 0)]), nameBytes,
    Buffer.from(integerBytes(valueBytes.length, 7, 0)), valueBytes,
  ]);
}

/** `:status: 200`, the static table's entry 8 (RFC 7541 §6.1). */
export const STATUS_200 = Buffer.from([0x80 | 8]);
