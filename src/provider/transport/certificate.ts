import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A throw-away server certificate for go-plugin's automatic mutual TLS: Terraform
 * pins exactly this certificate (printed in the handshake line) as the only root it
 * trusts for this plugin process. node:crypto makes the EC P-256 key in about a
 * millisecond but cannot write X.509, so the certificate is assembled here in DER.
 * Shape (what Go's TLS client checks): self-signed, CA, CN and SAN "localhost",
 * extended key usage serverAuth and clientAuth.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octets = (content: Buffer) => tlv(0x04, content);
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const bitString = (content: Buffer, unusedBits = 0) => tlv(0x03, Buffer.from([unusedBits]), content);

function integer(bytes: Buffer): Buffer {
  // DER integers are signed: a leading 1 bit needs a zero byte in front.
  return tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = part >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (YYMMDDHHMMSSZ): valid for the years 1950-2049, enough for a certificate that lives one process. */
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + 'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

export interface ServerCertificate {
  /** PEM of the certificate, for the TLS server. */
  readonly certPem: string;
  /** PEM (PKCS#8) of the private key, for the TLS server. */
  readonly keyPem: string;
  /** DER of the certificate, base64 without padding, as the handshake line carries it. */
  readonly handshakeField: string;
  readonly der: Buffer;
}

export function createServerCertificate(now = new Date()): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), utf8('localhost'))));
  const serial = randomBytes(16);
  // Positive and minimal in DER: a leading 0x00 byte followed by one below 0x80 is "illegal
  // padding" that OpenSSL refuses when the TLS server loads it (1 start in 256 failed so).
  serial[0] = (serial[0] & 0x7f) | 0x40;
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600_000);
  const extensions = seq(
    extension('2.5.29.19', true, seq(bool(true))), // basicConstraints: CA
    // keyUsage: digitalSignature, keyEncipherment, keyAgreement, keyCertSign (bits 0, 2, 4, 5).
    extension('2.5.29.15', true, bitString(Buffer.from([0xac]), 2)),
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))), // serverAuth, clientAuth
    extension('2.5.29.17', false, seq(tlv(0x82, Buffer.from('localhost', 'ascii')))), // subjectAltName dNSName
  );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))), // version 3
    integer(serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(notBefore), utcTime(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value
  const der = seq(tbs, ecdsaWithSha256, bitString(signature));
  const base64 = der.toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    handshakeField: base64.replace(/=+$/, ''),
    der,
  };
}
