import type { Account, Package, State } from '../../backend/model';
import { validationError } from '../../assumed';
import { packageTypeLimits } from '../packages/model';
import { availablePhpVersions, certificatePem, freeCertificateProvider, pointsHere } from './assumed';
import type { Certificate } from './model';

/**
 * The web settings of a package (api-notes "Web"). A free certificate is issued
 * asynchronously: it is listed once the issuance delay has passed since it was asked for,
 * and only for a name that points at this service (assumed.ts `pointsHere`); a name that
 * does not waits for DNS for ever. Issuance is computed from the clock, so no timers run
 * and a restart keeps it. The delay is the smaller of the one in force when it was asked
 * for and the one in force now (POST /__emulator/web/settings): lowering the delay issues
 * the waiting ones sooner, raising it never takes an issued one back.
 */

export function issuedAtMs(account: Account, c: Certificate): number {
  return c.requestedAtMs + Math.min(c.delayMs, account.certificateDelayMs);
}

export function isIssued(account: Account, c: Certificate, nowMs: number): boolean {
  return nowMs >= issuedAtMs(account, c);
}

/** The package type's limit `code` (freeSsl, switchPhpVersion): 0 refuses the feature (400). */
export function requireLimit(account: Account, pkg: Package, code: string, what: string): void {
  if (packageTypeLimits(pkg.typeId)[code] !== 0) return;
  const type = account.packageTypes.find((t) => t.id === pkg.typeId);
  throw validationError(`package type ${type?.label ?? pkg.typeId} does not allow ${what} (limit ${code} is 0)`);
}

/** GET …/web/certificates: the issued certificates, with their PEM (never a private key). */
export function certificateList(account: Account, pkg: Package, nowMs: number): Array<Record<string, unknown>> {
  return pkg.web.certificates.filter((c) => isIssued(account, c, nowMs)).map((c) => ({
    id: c.id,
    certificatePem: certificatePem(c.commonName, c.id),
    commonName: c.commonName,
    createdAt: new Date(issuedAtMs(account, c)).toISOString(),
    provider: c.provider,
  }));
}

/**
 * POST …/web/freeSSL `{"name", "enabled"}`: asks for a free certificate (a name that
 * has one, issued or being issued, is left as it is), or with `enabled: false` drops the
 * name's free certificates and its wait for DNS.
 */
export function setFreeSsl(state: State, account: Account, pkg: Package, name: string, enabled: boolean, nowMs: number): void {
  const web = pkg.web;
  const free = (c: Certificate) => c.provider === freeCertificateProvider() && c.commonName === name;
  if (!enabled) {
    web.certificates = web.certificates.filter((c) => !free(c));
    web.waitingForDns = web.waitingForDns.filter((w) => w.name !== name);
    return;
  }
  if (web.certificates.some(free)) return;
  if (!pointsHere(pkg, name)) {
    if (!web.waitingForDns.some((w) => w.name === name)) web.waitingForDns.push({ name, requestedAtMs: nowMs });
    return;
  }
  web.waitingForDns = web.waitingForDns.filter((w) => w.name !== name);
  web.certificates.push({ id: state.counters.certificateId++, commonName: name, provider: freeCertificateProvider(), requestedAtMs: nowMs, delayMs: account.certificateDelayMs });
}

/** POST …/web/certificates `{"delete": [ids]}`: true for each id that named a certificate of the package. */
export function deleteCertificates(pkg: Package, ids: readonly unknown[]): boolean[] {
  return ids.map((raw) => {
    const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    const before = pkg.web.certificates.length;
    pkg.web.certificates = pkg.web.certificates.filter((c) => c.id !== id);
    return pkg.web.certificates.length < before;
  });
}

/** Installs a certificate at once (the control API: one uploaded, or made in the control panel). */
export function installCertificate(state: State, pkg: Package, commonName: string, provider: string, nowMs: number): Certificate {
  const certificate = { id: state.counters.certificateId++, commonName, provider, requestedAtMs: nowMs, delayMs: 0 };
  pkg.web.certificates.push(certificate);
  return certificate;
}

/** The versions the package may switch to, as GET …/web/availablePhpVersions lists them. */
export function phpVersionsOf(account: Account, pkg: Package): Array<{ FullVersion: string; Handler: string; Title: string }> {
  const platform = account.packageTypes.find((t) => t.id === pkg.typeId)?.platform ?? 'linux';
  return availablePhpVersions(platform);
}

/** POST …/web/phpVersion: the type must allow switching, and the version must be one the package is offered. */
export function setPhpVersion(account: Account, pkg: Package, wire: string): void {
  requireLimit(account, pkg, 'switchPhpVersion', 'switching the PHP version');
  const offered = phpVersionsOf(account, pkg).map((v) => v.Handler);
  if (!offered.includes(wire)) throw validationError(`PHP version ${wire} is not available for package ${pkg.id}; available: ${offered.join(', ')}`);
  pkg.web.phpVersion = wire;
}
