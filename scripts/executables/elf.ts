/**
 * Removes what `strip` removes from Node's release binaries before the program is
 * injected: the symbol table and the DWARF debug sections (about 18 MB of the 127 MB
 * x64 binary, 4 MB once zipped). Those sections are never loaded: no program header
 * covers them, so dropping them cannot change what runs. The dynamic symbols, which
 * native addons link against, stay. ELF64 little-endian only (linux amd64 and arm64),
 * in plain Node, so the build needs no binutils for a foreign architecture.
 *
 * Returns the input unchanged, with the reason, when the file is laid out otherwise
 * than expected (a dropped section inside a loaded segment, a kept section linking to
 * a dropped one): a larger zip is better than a wrong executable.
 */
export function stripElf(input: Buffer): { output: Buffer; removed: number; skipped?: string } {
  const skip = (why: string) => ({ output: input, removed: 0, skipped: why });
  if (input.readUInt32BE(0) !== 0x7f454c46) return skip('not an ELF file');
  if (input[4] !== 2 || input[5] !== 1) return skip('not ELF64 little-endian');

  const phoff = Number(input.readBigUInt64LE(0x20));
  const shoff = Number(input.readBigUInt64LE(0x28));
  const phentsize = input.readUInt16LE(0x36);
  const phnum = input.readUInt16LE(0x38);
  const shentsize = input.readUInt16LE(0x3a);
  const shnum = input.readUInt16LE(0x3c);
  const shstrndx = input.readUInt16LE(0x3e);
  if (shentsize !== 64 || shnum === 0) return skip('unexpected section header table');

  // Everything the loader maps ends here; what follows is sections only.
  let loadedEnd = phoff + phentsize * phnum;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    loadedEnd = Math.max(loadedEnd, Number(input.readBigUInt64LE(at + 8) + input.readBigUInt64LE(at + 32)));
  }

  const headers = Array.from({ length: shnum }, (_, i) => Buffer.from(input.subarray(shoff + i * 64, shoff + (i + 1) * 64)));
  const strtab = headers[shstrndx];
  const strOffset = Number(strtab.readBigUInt64LE(24));
  const nameOf = (h: Buffer) => {
    const start = strOffset + h.readUInt32LE(0);
    return input.toString('latin1', start, input.indexOf(0, start));
  };
  const SHF_ALLOC = 2n;
  const SHF_INFO_LINK = 0x40n;
  const SHT_NOBITS = 8;
  const dropped = headers.map((h, i) => {
    if (i === 0 || i === shstrndx || (h.readBigUInt64LE(8) & SHF_ALLOC) !== 0n) return false;
    const name = nameOf(h);
    return name === '.symtab' || name === '.strtab' || name === '.comment' || name.startsWith('.debug_');
  });
  if (!dropped.some(Boolean)) return skip('nothing to strip');

  const newIndex: number[] = [];
  let next = 0;
  for (let i = 0; i < shnum; i++) newIndex[i] = dropped[i] ? -1 : next++;
  const parts: Buffer[] = [input.subarray(0, loadedEnd)];
  let size = loadedEnd;
  const kept: Buffer[] = [];
  for (let i = 0; i < shnum; i++) {
    const h = headers[i];
    const offset = Number(h.readBigUInt64LE(24));
    const length = h.readUInt32LE(4) === SHT_NOBITS ? 0 : Number(h.readBigUInt64LE(32));
    if (dropped[i]) {
      if (offset < loadedEnd && length > 0) return skip(`section ${nameOf(h)} lies inside a loaded segment`);
      continue;
    }
    const link = h.readUInt32LE(40);
    if (link && dropped[link]) return skip(`section ${nameOf(h)} links to a removed section`);
    if (link) h.writeUInt32LE(newIndex[link], 40);
    const info = h.readUInt32LE(44);
    if ((h.readBigUInt64LE(8) & SHF_INFO_LINK) !== 0n && info) {
      if (dropped[info]) return skip(`section ${nameOf(h)} refers to a removed section`);
      h.writeUInt32LE(newIndex[info], 44);
    }
    if (i !== 0 && offset >= loadedEnd && length > 0) {
      // A kept unloaded section (.shstrtab, notes): moved up behind the loaded part.
      const align = Math.max(1, Number(h.readBigUInt64LE(48)));
      const padding = (align - (size % align)) % align;
      parts.push(Buffer.alloc(padding), input.subarray(offset, offset + length));
      h.writeBigUInt64LE(BigInt(size + padding), 24);
      size += padding + length;
    }
    kept.push(h);
  }
  const padding = (8 - (size % 8)) % 8;
  parts.push(Buffer.alloc(padding), ...kept);
  const output = Buffer.concat(parts);
  output.writeBigUInt64LE(BigInt(size + padding), 0x28);
  output.writeUInt16LE(kept.length, 0x3c);
  output.writeUInt16LE(newIndex[shstrndx], 0x3e);
  return { output, removed: input.length - output.length };
}
