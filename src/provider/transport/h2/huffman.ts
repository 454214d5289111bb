/**
 * HPACK's Huffman code (RFC 7541 §5.2, Appendix B), decoding only: the client
 * (Terraform's Go gRPC) Huffman-codes header strings whenever that is shorter, and the
 * server's own headers are sent as plain literals.
 *
 * The code is canonical (codes of one length are consecutive, in symbol order, and
 * shorter codes come first), so the bit length of each symbol is the whole table: the
 * codes follow from it, as `canonicalCodes` shows and the tests check against
 * Appendix B's listed codes.
 */

/** Code length in bits of symbols 0-255 and, last, EOS (256), from RFC 7541 Appendix B. */
const CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
];
const EOS = 256;
const MAX_LENGTH = 30;

/** Symbols in code order (by length, then symbol). */
const SYMBOLS = CODE_LENGTHS.map((_, symbol) => symbol)
  .sort((a, b) => CODE_LENGTHS[a] - CODE_LENGTHS[b] || a - b);

/** Per length: the first code of that length, how many codes have it, and where its symbols start in SYMBOLS. */
const FIRST_CODE = new Array<number>(MAX_LENGTH + 1).fill(0);
const COUNT = new Array<number>(MAX_LENGTH + 1).fill(0);
const OFFSET = new Array<number>(MAX_LENGTH + 1).fill(0);
for (const length of CODE_LENGTHS) COUNT[length]++;
{
  let code = 0;
  let offset = 0;
  for (let length = 1; length <= MAX_LENGTH; length++) {
    FIRST_CODE[length] = code;
    OFFSET[length] = offset;
    code = (code + COUNT[length]) * 2;
    offset += COUNT[length];
  }
}

/** Every symbol's code and length (for tests, and to read the table against Appendix B). */
export function canonicalCodes(): Array<{ symbol: number; code: number; length: number }> {
  return SYMBOLS.map((symbol, i) => {
    const length = CODE_LENGTHS[symbol];
    return { symbol, code: FIRST_CODE[length] + (i - OFFSET[length]), length };
  }).sort((a, b) => a.symbol - b.symbol);
}

/**
 * Decodes a Huffman-coded header string. Throws on EOS inside the string, and on
 * padding longer than 7 bits or not made of ones (RFC 7541 §5.2: a decoding error).
 */
export function huffmanDecode(input: Buffer): Buffer {
  const out = Buffer.allocUnsafe(Math.ceil((input.length * 8) / 5)); // the shortest code is 5 bits
  let written = 0;
  let code = 0;
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    for (let bit = 7; bit >= 0; bit--) {
      code = code * 2 + ((byte >> bit) & 1);
      length++;
      const index = code - FIRST_CODE[length];
      if (index >= 0 && index < COUNT[length]) {
        const symbol = SYMBOLS[OFFSET[length] + index];
        if (symbol === EOS) throw new Error('HPACK: EOS inside a Huffman-coded string');
        out[written++] = symbol;
        code = 0;
        length = 0;
      } else if (length >= MAX_LENGTH) {
        throw new Error('HPACK: invalid Huffman code');
      }
    }
  }
  if (length > 7 || code !== 2 ** length - 1) throw new Error('HPACK: invalid Huffman padding');
  return out.subarray(0, written);
}
