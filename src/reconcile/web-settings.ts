import type { AvailablePhpVersion, PackageSummary, WebCertificate } from '../client';
import { isMissingObject, WriteOutcomeUnknownError } from '../client';
import { definitionOf, Identity, WebSettingsSpec } from '../protocol';
import { listPackageTypes } from './account';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { describeDiffs, FieldDiff } from './diff';
import { ReconcileError } from './errors';
import type { AccountProblem, KindReconciler } from './kind';
import { Observed, observed } from './observed';
import { listedPackages } from './package';
import { packageIndex } from './package-index';
import { formatElapsed, sleep } from './wait';

/**
 * The web settings of a package (api-notes "Web: HTTPS and PHP version of a package"):
 * force-HTTPS (`GET …/web/forceSSL`, a bare boolean), the free certificates (a name is
 * secured when a Let's Encrypt certificate with that common name is listed by
 * `GET …/web/certificates`) and the PHP version (`GET …/web/phpVersion`). Each is one read
 * per package per context, through the context's lists (a plan of N packages' settings
 * makes 3N reads, plus the package list once).
 *
 * A free certificate is issued asynchronously, only once the name's DNS points at the
 * service: `ensure` asks for the missing ones, then waits up to the spec's timeout,
 * printing progress, and then fails or warns as the spec says (`onCertificateTimeout`),
 * returning the names still pending (`Observed.pending`) for the provider to remember.
 */

type Place = Pick<WebSettingsSpec, 'packageDomain'>;

const FORCE = (pkg: string) => `web:force-https:${pkg}`;
const CERTIFICATES = (pkg: string) => `web:certificates:${pkg}`;
const PHP = (pkg: string) => `web:php:${pkg}`;
const AVAILABLE = (pkg: string) => `web:php-available:${pkg}`;

/** A read that is undefined when the package is gone (404). */
async function ifPresent<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isMissingObject(err)) return undefined;
    throw err;
  }
}

/** The package's settings through the context's lists; `after` > 0 asks for reads started after that tick. Undefined: no such package. */
async function readSettings(ctx: ReconcileContext, pkg: string, after = 0): Promise<LiveSettings | undefined> {
  const { web } = ctx.client;
  const [forceHttps, certificates, phpVersion] = await Promise.all([
    ctx.lists.get(FORCE(pkg), () => ifPresent(() => web.forceHttps(pkg)), after),
    ctx.lists.get(CERTIFICATES(pkg), () => ifPresent(() => web.certificates(pkg)), after),
    ctx.lists.get(PHP(pkg), () => ifPresent(() => web.phpVersion(pkg).then((v): { version: string | undefined } => ({ version: v }))), after),
  ]);
  if (forceHttps === undefined || certificates === undefined || phpVersion === undefined) return undefined;
  return { forceHttps, certificates, phpVersion: phpVersion.version };
}

interface LiveSettings {
  readonly forceHttps: boolean;
  readonly certificates: readonly WebCertificate[];
  /** Undefined: the read held no version the client can read (not verifiable). */
  readonly phpVersion: string | undefined;
}

/** The names with a free certificate listed, sorted. */
const freeNames = (live: LiveSettings): string[] => [...new Set(live.certificates.filter((c) => c.free).map((c) => c.commonName))].sort();

/**
 * The certificates of the package, as the `reseller_certificates` data source reads them
 * (the same read the resources make: one per package per context). Undefined: no such package.
 */
export function readCertificates(ctx: ReconcileContext, packageDomain: string): Promise<WebCertificate[] | undefined> {
  return ctx.lists.get(CERTIFICATES(packageDomain), () => ifPresent(() => ctx.client.web.certificates(packageDomain)));
}

/** The package's PHP version, through the same read as the resources' (undefined: none readable, or no such package). */
export async function readPhpVersion(ctx: ReconcileContext, packageDomain: string): Promise<string | undefined> {
  return (await ctx.lists.get(PHP(packageDomain), () => ifPresent(() => ctx.client.web.phpVersion(packageDomain).then((v) => ({ version: v })))))?.version;
}

/** The PHP versions the service offers a package (one read per package per context). Undefined: no such package. */
export function readAvailablePhpVersions(ctx: ReconcileContext, packageDomain: string): Promise<AvailablePhpVersion[] | undefined> {
  return ctx.lists.get(AVAILABLE(packageDomain), () => ifPresent(() => ctx.client.web.availablePhpVersions(packageDomain)));
}

function observedSettings(pkg: PackageSummary, live: LiveSettings, id?: Identity): Observed {
  const packageDomain = pkg.name.toLowerCase();
  const identity = id ?? { kind: 'web-settings', key: packageDomain, placement: packageDomain, parent: '' };
  const fields: Record<string, unknown> = {
    packageDomain, forceHttps: live.forceHttps, freeCertificates: freeNames(live),
    ...(live.phpVersion !== undefined ? { phpVersion: live.phpVersion } : {}),
  };
  return observed({ ...identity, placement: packageDomain }, pkg.id, fields, {
    packageId: pkg.id,
    names: pkg.names.map((n) => n.toLowerCase()),
    certificates: live.certificates.map((c) => ({ commonName: c.commonName, provider: c.provider, createdAt: c.createdAt, free: c.free })),
  }, live.phpVersion === undefined ? ['phpVersion'] : []);
}

async function observeSettings(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(id.key);
  if (!pkg) return undefined;
  const live = await readSettings(ctx, id.key);
  return live && observedSettings(pkg, live, id);
}

/** Every package's settings: three reads per package, at most `ctx.readsAtOnce` packages at once. */
async function listSettings(ctx: ReconcileContext): Promise<Observed[]> {
  const packages = [...packageIndex(await listedPackages(ctx)).byPrimary.values()];
  const out: Array<Observed | undefined> = new Array(packages.length);
  let next = 0;
  const worker = async () => {
    while (next < packages.length) {
      const i = next++;
      const live = await readSettings(ctx, packages[i].name.toLowerCase());
      out[i] = live && observedSettings(packages[i], live);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.readsAtOnce, packages.length) }, worker));
  return out.filter((o): o is Observed => o !== undefined);
}

/**
 * The listed free certificates the declaration speaks of: every one when it is the
 * whole list (`deleteCertificates`), else those of its names (others are left alone).
 */
function relevant(spec: Pick<WebSettingsSpec, 'freeCertificates' | 'deleteCertificates'>, listed: readonly string[]): string[] {
  return spec.deleteCertificates ? [...listed] : listed.filter((n) => spec.freeCertificates.includes(n));
}

/** An observed object as the declaration sees it: its free certificates narrowed to the ones it speaks of. */
function settingsAsDeclared(o: Observed, spec: WebSettingsSpec): Observed {
  const listed = (o.fields.freeCertificates as string[] | undefined) ?? [];
  return { ...o, fields: { ...o.fields, freeCertificates: relevant(spec, listed) } };
}

export function diffWebSettings(spec: WebSettingsSpec, live: Pick<WebSettingsSpec, 'forceHttps' | 'freeCertificates' | 'phpVersion'>): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  if (spec.forceHttps !== live.forceHttps) diffs.push({ field: 'forceHttps', declared: spec.forceHttps, live: live.forceHttps });
  const seen = relevant(spec, live.freeCertificates);
  const same = seen.length === spec.freeCertificates.length && spec.freeCertificates.every((n) => seen.includes(n));
  if (!same) diffs.push({ field: 'freeCertificates', declared: [...spec.freeCertificates], live: seen });
  if (spec.phpVersion !== undefined && live.phpVersion !== undefined && spec.phpVersion !== live.phpVersion) {
    diffs.push({ field: 'phpVersion', declared: spec.phpVersion, live: live.phpVersion });
  }
  return diffs;
}

const liveOf = (o: Observed) => ({
  forceHttps: o.fields.forceHttps === true,
  freeCertificates: (o.fields.freeCertificates as string[] | undefined) ?? [],
  phpVersion: o.fields.phpVersion as string | undefined,
});

/** A write to one of the package's settings: with shared lists, reads scheduled meanwhile wait for it. */
function writing(ctx: ReconcileContext, list: string, write: () => Promise<void>): Promise<void> {
  ctx.confirmed?.clear();
  return ctx.lists.shared ? ctx.lists.writing(list, write) : write();
}

/** The settings as the account shows them now (reads started after this call), or the error naming the missing package. */
async function freshSettings(ctx: ReconcileContext, spec: WebSettingsSpec): Promise<LiveSettings> {
  const live = await readSettings(ctx, spec.packageDomain, ctx.lists.tick());
  if (!live) throw missingPackage(spec);
  return live;
}

const missingPackage = (spec: Pick<WebSettingsSpec, 'path' | 'packageDomain'>) => new ReconcileError(
  `${spec.path}: package ${spec.packageDomain} does not exist in the account (deleted outside Terraform?); its web settings cannot be applied`,
  'packageDomain',
);

/** The package, found by its primary domain; an extra domain of another package is refused (it would address that one). */
async function requirePrimary(ctx: ReconcileContext, spec: WebSettingsSpec): Promise<void> {
  const detail = await ctx.client.packages.get(spec.packageDomain);
  if (!detail) throw missingPackage(spec);
  if (detail.name.toLowerCase() !== spec.packageDomain) {
    throw new ReconcileError(`${spec.path}: ${spec.packageDomain} is an extra domain of package ${detail.name}, not a package of its own; name its primary domain`, 'packageDomain');
  }
}

async function setForceHttps(ctx: ReconcileContext, spec: Place & { path: string }, value: boolean): Promise<void> {
  await converge(ctx, {
    what: `${spec.path}: ${value ? 'force' : 'stop forcing'} HTTPS on ${spec.packageDomain}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await ctx.client.web.forceHttps(spec.packageDomain)) === value,
    write: () => writing(ctx, FORCE(spec.packageDomain), () => ctx.client.web.setForceHttps(spec.packageDomain, value)),
  });
}

async function setPhp(ctx: ReconcileContext, spec: WebSettingsSpec, version: string): Promise<void> {
  await converge(ctx, {
    what: `${spec.path}: set PHP ${version} on ${spec.packageDomain}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await ctx.client.web.phpVersion(spec.packageDomain)) === version,
    write: () => writing(ctx, PHP(spec.packageDomain), () => ctx.client.web.setPhpVersion(spec.packageDomain, version)),
  });
}

/** Deletes the free certificates of these names (read afresh), and reads back until they are gone. */
async function deleteFree(ctx: ReconcileContext, spec: Place & { path: string }, names: readonly string[]): Promise<void> {
  const ids = async () => (await ctx.client.web.certificates(spec.packageDomain)).filter((c) => c.free && names.includes(c.commonName)).map((c) => c.id);
  const first = await ids();
  if (first.length === 0) return;
  await converge(ctx, {
    what: `${spec.path}: delete the free certificate(s) of ${names.join(', ')}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await ids()).length === 0,
    write: async () => writing(ctx, CERTIFICATES(spec.packageDomain), async () => ctx.client.web.deleteCertificates(spec.packageDomain, await ids())),
  });
}

/**
 * Asks for a free certificate of each name that has none, then waits until all are
 * listed or the timeout passes, with a progress line at least every progress interval.
 * Returns the names still pending (then the spec's onCertificateTimeout decides).
 */
async function requestAndWait(ctx: ReconcileContext, spec: WebSettingsSpec, missing: readonly string[]): Promise<{ left: string[]; waitedMs: number }> {
  for (const name of missing) await askForCertificate(ctx, spec, name);
  ctx.info(`${spec.packageDomain}: asked for a free certificate for ${missing.join(', ')}; waiting for it to be issued (up to ${formatElapsed(spec.certificateTimeoutMinutes * 60_000)})`);
  const started = Date.now();
  const deadline = started + spec.certificateTimeoutMinutes * 60_000;
  let lastProgress = started;
  for (;;) {
    const listed = freeNames(await freshSettings(ctx, spec));
    const left = missing.filter((n) => !listed.includes(n));
    if (left.length === 0) {
      if (Date.now() - started > ctx.timing.pollIntervalMs) ctx.info(`${spec.packageDomain}: free certificate(s) issued after ${formatElapsed(Date.now() - started)}`);
      return { left, waitedMs: Date.now() - started };
    }
    const now = Date.now();
    if (now >= deadline) return { left, waitedMs: now - started };
    if (now - lastProgress >= ctx.timing.progressIntervalMs) {
      lastProgress = now;
      ctx.info(`waiting for the free certificate of ${left.join(', ')} (${spec.packageDomain}): asked for, not issued yet, ${formatElapsed(now - started)} elapsed`);
    }
    await sleep(Math.min(ctx.timing.pollIntervalMs, Math.max(0, deadline - now)), ctx.stop);
  }
}

/**
 * Asks for a free certificate of `name`. Asking again is harmless (a name that has one,
 * issued or being issued, is left as it is), and no read can tell "asked, being issued"
 * from "never asked": so a write whose outcome is unknown is answered by asking again.
 */
async function askForCertificate(ctx: ReconcileContext, spec: WebSettingsSpec, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await writing(ctx, CERTIFICATES(spec.packageDomain), () => ctx.client.web.requestFreeCertificate(spec.packageDomain, name));
      return;
    } catch (err) {
      if (!(err instanceof WriteOutcomeUnknownError) || attempt >= 3) throw err;
      ctx.warn(`${spec.path}: asking for a free certificate for ${name}: outcome unknown, asking again (a name that has one is left as it is)`);
    }
  }
}

/** What a certificate still pending at the end of the wait means, in words. */
function pendingMessage(spec: WebSettingsSpec, left: readonly string[], waitedMs: number): string {
  return `${spec.path}: the free certificate of ${left.join(', ')} was asked for but is not issued after ${formatElapsed(waitedMs)}. ` +
    `The service issues one only once the name's DNS points at it: check that ${left.join(', ')} resolve${left.length === 1 ? 's' : ''} to package ${spec.packageDomain}'s address`;
}

/** The changes an ensure made, in the definition's words (its fields' phrases), else as field diffs. */
function inWords(spec: WebSettingsSpec, diffs: readonly FieldDiff[]): string {
  const fields = definitionOf('web-settings').fields;
  const others = spec as unknown as Record<string, unknown>;
  const words = diffs.flatMap((d) => fields.find((f) => f.name === d.field)?.phrases?.describe({ key: spec.packageDomain, before: d.live, after: d.declared, others }) ?? []);
  return words.length ? words.join('; ') : describeDiffs(diffs);
}

export async function ensureWebSettings(ctx: ReconcileContext, spec: WebSettingsSpec): Promise<Observed> {
  await requirePrimary(ctx, spec);
  // The refresh's reads serve to decide what to write; every write is read back afresh.
  const first = await readSettings(ctx, spec.packageDomain);
  if (!first) throw missingPackage(spec);
  const changed = diffWebSettings(spec, { ...first, freeCertificates: freeNames(first) });
  if (spec.forceHttps !== first.forceHttps) await setForceHttps(ctx, spec, spec.forceHttps);
  if (spec.phpVersion !== undefined && spec.phpVersion !== first.phpVersion) await setPhp(ctx, spec, spec.phpVersion);
  const listed = freeNames(first);
  const extra = spec.deleteCertificates ? listed.filter((n) => !spec.freeCertificates.includes(n)) : [];
  if (extra.length) await deleteFree(ctx, spec, extra);
  const missing = spec.freeCertificates.filter((n) => !listed.includes(n));
  const { left: pending, waitedMs } = missing.length ? await requestAndWait(ctx, spec, missing) : { left: [], waitedMs: 0 };
  if (pending.length) {
    if (spec.onCertificateTimeout === 'fail') {
      throw new ReconcileError(`${pendingMessage(spec, pending, waitedMs)}. on_certificate_timeout is "fail"; apply again once DNS points here (the request stands)`, 'freeCertificates');
    }
    ctx.warn(`${pendingMessage(spec, pending, waitedMs)}. The apply goes on (on_certificate_timeout "warn"): the name stays pending, and a later plan shows it once it is issued or given up`);
  }
  ctx.info(changed.length ? `web settings of ${spec.packageDomain}: ${inWords(spec, changed)}` : `web settings of ${spec.packageDomain} are as declared`);
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(spec.packageDomain);
  const live = await freshSettings(ctx, spec);
  const id = definitionOf('web-settings').identity(spec);
  const summary = pkg ?? ({ id: 0, name: spec.packageDomain, names: [spec.packageDomain] } as unknown as PackageSummary);
  const result = settingsAsDeclared(observedSettings(summary, live, id), spec);
  return pending.length ? { ...result, pending: { freeCertificates: pending } } : result;
}

/**
 * Puts the settings back to the platform's defaults: HTTPS no longer forced; the PHP
 * version left as it is; the free certificates left in place unless the last declaration
 * asked for them to be deleted (`deleteCertificates`). Nothing to do when the package is gone.
 */
export async function restoreWebDefaults(ctx: ReconcileContext, id: Identity, declared?: WebSettingsSpec): Promise<void> {
  const place = { path: declared?.path ?? `web settings ${id.key}`, packageDomain: id.key };
  const live = await readSettings(ctx, id.key, ctx.lists.tick());
  if (!live) {
    ctx.info(`web settings of ${id.key}: the package is already gone`);
    return;
  }
  if (live.forceHttps) await setForceHttps(ctx, place, false);
  const free = freeNames(live);
  if (declared?.deleteCertificates && free.length) await deleteFree(ctx, place, free);
  const certificates = declared?.deleteCertificates ? (free.length ? `deleted the free certificate(s) of ${free.join(', ')}` : 'no free certificate to delete')
    : 'its certificates left in place';
  ctx.info(`web settings of ${id.key}: back to the platform's defaults (HTTPS not forced; PHP left as it is; ${certificates})`);
}

/**
 * Plan-time checks against the account: what the package's type refuses (limit codes
 * `freeSsl`, `switchPhpVersion` at 0), and a PHP version the service does not offer the
 * package (listing those it does). A package this plan creates is not listed yet: its
 * type is checked by the apply (the API refuses it).
 */
async function checkWebAccount(ctx: ReconcileContext, spec: WebSettingsSpec, checked: (field: string) => boolean): Promise<{ problems: AccountProblem[] }> {
  const problems: AccountProblem[] = [];
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(spec.packageDomain);
  if (!pkg) return { problems };
  const type = (await listPackageTypes(ctx)).find((t) => t.id === pkg.typeRef);
  const typeName = type ? `"${type.label}"` : `${pkg.typeRef}`;
  const refuses = (code: string) => type?.limits?.[code] === 0;
  if (checked('freeCertificates') && spec.freeCertificates.length && refuses('freeSsl')) {
    problems.push({ field: 'freeCertificates', rule: `cannot be set: package type ${typeName} of package ${spec.packageDomain} does not offer free SSL certificates (its limit freeSsl is 0)` });
  }
  if (checked('phpVersion') && spec.phpVersion !== undefined) {
    if (refuses('switchPhpVersion')) {
      problems.push({ field: 'phpVersion', rule: `cannot be set: package type ${typeName} of package ${spec.packageDomain} does not allow switching the PHP version (its limit switchPhpVersion is 0)` });
    } else {
      const available = await readAvailablePhpVersions(ctx, spec.packageDomain);
      if (available && !available.some((v) => v.version === spec.phpVersion)) {
        problems.push({ field: 'phpVersion', rule: `"${spec.phpVersion}" is not a PHP version available for package ${spec.packageDomain}; available: ${available.map((v) => v.version).join(', ') || 'none'}` });
      }
    }
  }
  return { problems };
}

export const webSettingsReconciler = {
  observe: observeSettings,
  asDeclared: settingsAsDeclared,
  list: listSettings,
  diff: async (_ctx, spec, live) => diffWebSettings(spec, liveOf(live)),
  ensure: ensureWebSettings,
  remove: restoreWebDefaults,
  whyMissing: async (ctx, id) => (packageIndex(await listedPackages(ctx)).byPrimary.has(id.key) ? undefined : `its package ${id.key} does not exist`),
  checkAccount: checkWebAccount,
  entries(o) {
    const names = (o.fields.freeCertificates as string[] | undefined) ?? [];
    const php = o.fields.phpVersion === undefined ? 'PHP unknown' : `PHP ${String(o.fields.phpVersion)}`;
    return [{ id: o.liveId, detail: `HTTPS ${o.fields.forceHttps ? 'forced' : 'not forced'}, ${php}, ${names.length ? `free certificates: ${names.join(', ')}` : 'no free certificate'}` }];
  },
  // Settings go with their package: they are a test's when every name of the package is.
  sweepNames: (o) => ({ shown: o.identity.key, names: (o.computed.names as string[] | undefined) ?? [o.identity.key] }),
} satisfies KindReconciler<'web-settings'>;
