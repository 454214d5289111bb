import { ApiError } from '../../errors';
import type { Package } from '../../backend/model';
import type { EmulatorProfile } from '../../profile';
import { withAssumed } from '../../profile';
import { validationError } from '../../assumed';

/**
 * The web noun's assumed behaviours: what api-notes.md marks `assumed` for the web
 * settings of a package, or what the emulator had to choose, behind one function each.
 * Each says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/** ASSUMED: a new package's PHP version, as the read gives it. */
export function defaultPhpVersion(): string {
  return 'php81';
}

/**
 * ASSUMED (api-notes "Web": the available versions are `[{"FullVersion", "Handler",
 * "Title"}]` with no example): what each version looks like, per platform. A Windows
 * package offers none to switch to.
 */
export function availablePhpVersions(platform: string): Array<{ FullVersion: string; Handler: string; Title: string }> {
  if (platform !== 'linux') return [];
  return [['7.4', '33'], ['8.0', '30'], ['8.1', '31'], ['8.2', '27'], ['8.3', '15']].map(([v, patch]) => ({
    FullVersion: `${v}.${patch}`, Handler: `php${v.replace('.', '')}`, Title: `PHP ${v}`,
  }));
}

/**
 * ASSUMED (api-notes "Web": body `{"value": "php82"}`; clients also send `{"version"}`
 * and `{"phpVersion"}`, and the value format `php82` vs `8.2` is unconfirmed): the version
 * a write asks for, in the read's format ("php82"). The `documented` profile takes the
 * documented body and format only.
 */
export function phpVersionOfWrite(body: Record<string, unknown>, profile: EmulatorProfile): string {
  const keys = withAssumed(profile) ? ['value', 'version', 'phpVersion'] : ['value'];
  const key = keys.find((k) => body[k] !== undefined);
  const value = key === undefined ? undefined : body[key];
  if (typeof value !== 'string') throw validationError(`${keys.map((k) => `"${k}"`).join(' or ')} must be a PHP version such as "php82"`);
  const text = value.trim().toLowerCase();
  if (/^php[0-9]{2,3}$/.test(text)) return text;
  if (withAssumed(profile) && /^[0-9]\.[0-9]{1,2}$/.test(text)) return `php${text.replace('.', '')}`;
  throw validationError(`"${value}" is not a PHP version such as "php82"`);
}

/**
 * ASSUMED (api-notes "Web": "one portal treats 409 as 'already so'"): setting force-HTTPS
 * to the value it has is answered 409. The `documented` profile answers 200.
 */
export function forceSslAlreadySo(profile: EmulatorProfile): ApiError | undefined {
  return withAssumed(profile) ? new ApiError(409, 'ConflictingObject: force SSL is already set to that value') : undefined;
}

/**
 * ASSUMED (api-notes "Web": issuance "depends on DNS pointing at the service"): the names
 * that point here are the package's names and their `www.` names. A free certificate
 * asked for any other name is never issued.
 */
export function pointsHere(pkg: Package, name: string): boolean {
  return pkg.names.some((n) => n === name || `www.${n}` === name);
}

/** ASSUMED: the provider of a free certificate, as api-notes shows it. */
export function freeCertificateProvider(): string {
  return 'letsencrypt/standard';
}

/** ASSUMED: the PEM the list shows (the certificate only; the service never lists a private key). */
export function certificatePem(commonName: string, id: number): string {
  const body = Buffer.from(`emulated certificate ${id} for ${commonName}`).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}
