import { readFileSync } from 'node:fs';
import { readZip } from '../../src/provider-mirror';
import { filesUnder } from './support';

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

/** A named text a secret must not appear in. */
export type Artifact = [name: string, text: string];

/**
 * What an audited run left behind: every file under `dirs` (a plan file's entries
 * opened), each Terraform command's stdout and stderr, and the texts given.
 */
export function collectArtifacts(
  dirs: readonly string[], runs: ReadonlyArray<{ args: string[]; stdout: string; stderr: string }>, texts: readonly Artifact[],
): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const file of dirs.flatMap((dir) => filesUnder(dir))) {
    if (file.endsWith('.tfplan')) for (const entry of unzip(file)) artifacts.push([`${file}!${entry.name}`, entry.text]);
    else artifacts.push([file, readFileSync(file, 'latin1')]);
  }
  for (const r of runs) artifacts.push([`terraform ${r.args.join(' ')} (stdout)`, r.stdout], [`terraform ${r.args.join(' ')} (stderr)`, r.stderr]);
  return [...artifacts, ...texts];
}

/** The names in `artifacts` that no pattern of `expected` matches: empty when the search covered them all. */
export function uncovered(artifacts: readonly Artifact[], expected: readonly RegExp[]): string[] {
  return expected.filter((pattern) => !artifacts.some(([name]) => pattern.test(name))).map(String);
}

/** Every place a form of a secret appears: "<form> in <artifact>". */
export function leaks(artifacts: readonly Artifact[], secrets: ReadonlyArray<[string, string]>): string[] {
  const found: string[] = [];
  for (const [artifact, text] of artifacts) for (const [what, secret] of secrets) if (text.includes(secret)) found.push(`${what} in ${artifact}`);
  return found;
}
