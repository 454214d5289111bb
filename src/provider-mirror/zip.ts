import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The little of the zip format that provider packages need, on Node built-ins: a
 * writer for the release zips (deflated, Unix modes in the external attributes, a fixed
 * time stamp, so the same files always give the same bytes and the same `zh:` hash) and
 * a reader for the hashes Terraform records (`h1:` is over the files inside a zip).
 * Single-disk archives under 4 GiB only, no zip64: a provider package is one file of
 * about 100 MB.
 */

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
  /**
   * Unix permission bits (0o755 for an executable), kept in the entry as Info-ZIP does;
   * Terraform's unzip gives the extracted file this mode. Undefined: no Unix
   * attributes at all, as an artifact upload writes them (extracted files get 0644).
   */
  readonly mode?: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** 1980-01-01 00:00, the earliest DOS date: no build time leaks into the bytes. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const DEFLATE = 8;
const STORED = 0;
/** "Made by" Unix (3), spec version 2.0: the external attributes then hold st_mode. */
const MADE_BY_UNIX = (3 << 8) | 20;
const MADE_BY_DOS = 20;
const S_IFREG = 0o100000;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of the zip format (zlib.crc32 exists only from Node 20.15 / 22.2). */
export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip holding `entries`, deflated at `level` (9: the release's; smaller, slower). */
export function writeZip(entries: readonly ZipEntry[], level = 9): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data, { level });
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(entry.mode === undefined ? MADE_BY_DOS : MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(DEFLATE, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.mode === undefined ? 0 : ((S_IFREG | entry.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The files of a zip with their contents and Unix modes (undefined when the zip has none). */
export function readZip(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new Error('corrupt zip archive (bad central directory entry)');
    const madeBy = zip.readUInt16LE(at + 4) >> 8;
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const external = zip.readUInt32LE(at + 38);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue; // a directory entry
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const raw = zip.subarray(dataAt, dataAt + compressedSize);
    if (method !== DEFLATE && method !== STORED) throw new Error(`zip entry ${name}: unsupported compression method ${method}`);
    const data = method === DEFLATE ? inflateRawSync(raw) : Buffer.from(raw);
    if (crc32(data) !== crc) throw new Error(`zip entry ${name}: CRC mismatch (the archive is damaged)`);
    const unixMode = madeBy === 3 ? (external >>> 16) & 0o7777 : 0;
    entries.push({ name, data, mode: unixMode || undefined });
  }
  return entries;
}

/** Terraform's `zh:` hash of a package archive: the zip's SHA-256, as SHA256SUMS lists it. */
export function zipHash(zip: Buffer): string {
  return `zh:${createHash('sha256').update(zip).digest('hex')}`;
}

/**
 * Terraform's `h1:` hash (Go's dirhash Hash1) over named file contents: SHA-256 of the
 * sorted lines `<sha256 hex>  <name>\n`. The same for a zip and for its unpacked
 * directory, and blind to file modes.
 */
export function filesHash(files: ReadonlyArray<{ readonly name: string; readonly data: Buffer }>): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${createHash('sha256').update(f.data).digest('hex')}  ${f.name}\n`)
    .join('');
  return `h1:${createHash('sha256').update(lines).digest('base64')}`;
}
