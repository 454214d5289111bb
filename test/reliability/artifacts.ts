import { readFileSync } from 'node:fs';
import { readZip } from '../../src/provider-mirror';

/** Helpers of the secrets audits (every engine): the forms a secret may take, and plan files opened. */

/** A secret as it could leak: raw, base64, base64url, hex, and any extra forms given. */
export const secretForms = (name: string, secret: string, extra: string[] = []): Array<[string, string]> => [
  [`${name} (raw)`, secret],
  [`${name} (base64)`, Buffer.from(secret).toString('base64')],
  [`${name} (base64url)`, Buffer.from(secret).toString('base64url')],
  [`${name} (hex)`, Buffer.from(secret).toString('hex')],
  ...extra.map((v, i): [string, string] => [`${name} (variant ${i})`, v]),
];

/** The entries of a zip file (a Terraform plan file is one), inflated, as text. */
export function unzip(file: string): Array<{ name: string; text: string }> {
  return readZip(readFileSync(file)).map((entry) => ({ name: entry.name, text: entry.data.toString('latin1') }));
}
