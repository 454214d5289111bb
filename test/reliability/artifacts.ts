import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/** Helpers of the secrets audits (every engine): the forms a secret may take, and plan files opened. */

/** A secret as it could leak: raw, base64, base64url, hex, and any extra forms given. */
export const secretForms = (name: string, secret: string, extra: string[] = []): Array<[string, string]> => [
  [`${name} (raw)`, secret],
  [`${name} (base64)`, Buffer.from(secret).toString('base64')],
  [`${name} (base64url)`, Buffer.from(secret).toString('base64url')],
  [`${name} (hex)`, Buffer.from(secret).toString('hex')],
  ...extra.map((v, i): [string, string] => [`${name} (variant ${i})`, v]),
];

/** The entries of a zip file (a Terraform plan file is one), inflated. */
export function unzip(file: string): Array<{ name: string; text: string }> {
  const buf = readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out: Array<{ name: string; text: string }> = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataAt, dataAt + size);
    out.push({ name, text: (method === 8 ? inflateRawSync(raw) : raw).toString('latin1') });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}
