import { canonicalJson } from '../canonical-json';
import { canonicalDomain, checkDomainName } from '../names';
import { checkBool, describeValue } from './checks';
import { Checked, FieldDefinition, KindDefinition, PhraseInput, ProblemList } from './definition';
import type { Identity } from './identity';

/**
 * The web settings of one hosting package (api-notes "Web: HTTPS and PHP version of a
 * package"): whether HTTPS is forced, the host names that get a free (Let's Encrypt)
 * certificate, and the PHP version. One object per package, found by the package's
 * primary domain: a plan then shows a site's HTTPS and PHP together, in one resource,
 * and review says what changes for that site in one line (docs/web-settings.md says why
 * not one resource per concern).
 *
 * The settings last as long as the package: removing the declaration deletes nothing,
 * it puts them back to the platform's defaults (HTTPS not forced; the PHP version and
 * the certificates stay, unless `deleteCertificates`).
 */
export type WebSettingsSpec = {
  readonly kind: 'web-settings';
  readonly path: string;
  /** Primary domain of the package the settings belong to. */
  readonly packageDomain: string;
  readonly forceHttps: boolean;
  /** Host names that must have a free certificate, lowercase (IDNA), sorted. */
  readonly freeCertificates: readonly string[];
  /** `major.minor` ("8.2"); absent: left as it is. */
  readonly phpVersion?: string;
  /**
   * true: `freeCertificates` is the whole list of the package's free certificates: one of
   * a name not in it is deleted (at apply, and every one when the settings are removed).
   * false: certificates of other names are left alone (and stay when removed).
   */
  readonly deleteCertificates: boolean;
  /** What an apply does when a requested certificate is not issued within the create timeout. */
  readonly onCertificateTimeout: CertificateTimeoutAction;
  /** How long an apply waits for requested certificates (the provider: `timeouts { create }`). */
  readonly certificateTimeoutMinutes: number;
};

/** `warn`: the apply succeeds with a warning and the name stays pending; `fail`: the apply fails. */
export type CertificateTimeoutAction = 'warn' | 'fail';
export const CERTIFICATE_TIMEOUT_ACTIONS: readonly CertificateTimeoutAction[] = ['warn', 'fail'];

/** How long an apply waits for free certificates unless told otherwise. */
export const DEFAULT_CERTIFICATE_TIMEOUT_MINUTES = 10;

/** A PHP version as a user writes it: major.minor, as `reseller_php_versions` lists them. */
const PHP_VERSION = /^[0-9]{1,2}\.[0-9]{1,2}$/;

export function checkPhpVersion(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' && PHP_VERSION.test(value.trim())
    ? undefined
    : `must be a PHP version written major.minor, such as "8.2" (reseller_php_versions lists a package's), not ${describeValue(value)}`;
}

function checkCertificateNames(value: unknown, p: ProblemList): void {
  if (!Array.isArray(value)) {
    p.add('freeCertificates', `must be a list of host names, not ${describeValue(value)}`);
    return;
  }
  value.forEach((name, i) => {
    const problem = typeof name === 'string' && name.trim().startsWith('*.')
      ? `"${name}" is a wildcard: a free certificate is issued for one host name at a time`
      : checkDomainName(name);
    p.add(`freeCertificates[${i}]`, problem);
  });
}

function checkTimeoutMinutes(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 24 * 60
    ? undefined : `must be a number of minutes above 0 and at most 1440, not ${describeValue(value)}`;
}

export function checkWebSettings(raw: WebSettingsSpec, path: string = raw.path): Checked<WebSettingsSpec> {
  const p = new ProblemList(path);
  p.add('packageDomain', checkDomainName(raw.packageDomain));
  p.add('forceHttps', checkBool(raw.forceHttps));
  checkCertificateNames(raw.freeCertificates ?? [], p);
  p.add('phpVersion', checkPhpVersion(raw.phpVersion));
  p.add('deleteCertificates', checkBool(raw.deleteCertificates));
  const action = raw.onCertificateTimeout ?? 'warn';
  if (!CERTIFICATE_TIMEOUT_ACTIONS.includes(action)) {
    p.add('onCertificateTimeout', `must be one of ${CERTIFICATE_TIMEOUT_ACTIONS.map((a) => `"${a}"`).join(', ')}, not ${describeValue(action)}`);
  }
  p.add('certificateTimeoutMinutes', checkTimeoutMinutes(raw.certificateTimeoutMinutes ?? DEFAULT_CERTIFICATE_TIMEOUT_MINUTES));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const spec: WebSettingsSpec = {
    kind: 'web-settings',
    path,
    packageDomain: canonicalDomain(raw.packageDomain),
    forceHttps: raw.forceHttps ?? false,
    freeCertificates: [...new Set((raw.freeCertificates ?? []).map((n) => canonicalDomain(n)))].sort(),
    ...(raw.phpVersion !== undefined ? { phpVersion: raw.phpVersion.trim() } : {}),
    deleteCertificates: raw.deleteCertificates ?? false,
    onCertificateTimeout: action,
    certificateTimeoutMinutes: raw.certificateTimeoutMinutes ?? DEFAULT_CERTIFICATE_TIMEOUT_MINUTES,
  };
  return { spec, problems: [] };
}

// ---- review's words (FieldPhrases) ------------------------------------------------------

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

function forceHttpsPhrases({ key, before, after }: PhraseInput): string[] {
  if (after === true) return before === true ? [] : [`HTTPS is forced on ${key}`];
  if (after === false && before === true) return [`HTTPS is no longer forced on ${key}`];
  return [];
}

function certificatePhrases({ before, after, others, drift }: PhraseInput): string[] {
  const was = new Set(list(before));
  const now = new Set(list(after));
  if (after === undefined) return [];
  const added = [...now].filter((n) => !was.has(n)).sort();
  const removed = [...was].filter((n) => !now.has(n)).sort();
  if (drift) {
    return [...removed.map((n) => `the free certificate of ${n} is gone`), ...added.map((n) => `${n} has a free certificate`)];
  }
  const deletes = others.deleteCertificates === true;
  return [
    ...added.map((n) => `a free certificate is requested for ${n}`),
    ...removed.map((n) => (deletes ? `the free certificate of ${n} is deleted` : `the free certificate of ${n} is no longer managed (it stays in place)`)),
  ];
}

function phpPhrases({ before, after }: PhraseInput): string[] {
  if (after === undefined) return before === undefined ? [] : [`the PHP version is no longer managed (it stays at ${String(before)})`];
  if (before === undefined) return [`PHP ${String(after)}`];
  return before === after ? [] : [`PHP ${String(before)} -> ${String(after)}`];
}

function deleteCertificatesPhrases({ before, after }: PhraseInput): string[] {
  if (before === undefined && after !== true) return [];
  if (after === true) return ['free certificates of names not in free_certificates are deleted from now on'];
  return after === false && before === true ? ['free certificates of names not in free_certificates are left in place from now on'] : [];
}

function timeoutActionPhrases({ before, after }: PhraseInput): string[] {
  if (before === undefined && after !== 'fail') return [];
  if (after === 'fail') return ['an apply fails when a requested free certificate is not issued in time'];
  return after === 'warn' && before === 'fail' ? ['an apply warns, and succeeds, when a requested free certificate is not issued in time'] : [];
}

/** What removing the settings does (the plan's warning on destroy, review's line). */
function restoresDefaults(spec: WebSettingsSpec): string {
  const certificates = spec.deleteCertificates
    ? 'every free certificate of the package is deleted (delete_certificates = true)'
    : 'its free certificates stay in place (delete_certificates = true would delete them)';
  const php = spec.phpVersion !== undefined ? `the PHP version stays at ${spec.phpVersion}` : 'the PHP version stays as it is';
  return `nothing is deleted: the settings go back to the platform's defaults: HTTPS is no longer forced on ${spec.packageDomain}; ${php}; ${certificates}`;
}

// ---- fields and definition --------------------------------------------------------------

export const WEB_SETTINGS_FIELDS: readonly FieldDefinition[] = [
  { name: 'packageDomain', attribute: 'package', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'package',
    description: 'Primary domain of the hosting package whose web settings these are (one resource per package).' },
  { name: 'forceHttps', attribute: 'force_https', type: 'bool', role: 'setting', presence: 'default', defaultValue: false, readable: true, words: 'force HTTPS',
    phrases: { describe: forceHttpsPhrases },
    description: 'Whether the site redirects every HTTP request to HTTPS. Default false, the platform\'s default.' },
  { name: 'freeCertificates', attribute: 'free_certificates', type: 'set(string)', role: 'setting', presence: 'default', defaultValue: [], readable: true, words: 'free certificates',
    phrases: { describe: certificatePhrases },
    pending: {
      pendingHours: 24,
      waitsFor: 'issuance of its free certificate',
      why: 'the service issues a free certificate only once the name\'s DNS points at it',
    },
    description: 'Host names of the package that get a free (Let\'s Encrypt) certificate. A name counts as secured when a certificate for it is listed; ' +
      'one asked for and not yet issued is pending, not a difference, for up to 24 hours. Free certificates of other names are left alone unless `delete_certificates`.' },
  { name: 'phpVersion', attribute: 'php_version', type: 'string', role: 'setting', presence: 'optional', readable: true, words: 'PHP version',
    phrases: { describe: phpPhrases },
    description: 'PHP version of the site, major.minor ("8.2"): one the service lists for the package (`reseller_php_versions`). Absent: left as it is.' },
  { name: 'deleteCertificates', attribute: 'delete_certificates', type: 'bool', role: 'setting', presence: 'default', defaultValue: false, readable: false,
    words: 'delete certificates', phrases: { describe: deleteCertificatesPhrases },
    description: 'true: `free_certificates` is the whole list: a free certificate of a name not in it is deleted, and every one when the resource is removed. ' +
      'Default false: certificates of other names, and all of them on removal, stay in place.' },
  { name: 'onCertificateTimeout', attribute: 'on_certificate_timeout', type: 'string', role: 'setting', presence: 'default', defaultValue: 'warn', readable: false,
    words: 'on certificate timeout', phrases: { describe: timeoutActionPhrases },
    description: 'What an apply does when a requested free certificate is not issued within the create timeout (default 10m): "warn" (default) succeeds ' +
      'with a warning and the name stays pending; "fail" fails the apply.' },
  { name: 'certificateTimeoutMinutes', attribute: 'certificate_timeout_minutes', type: 'number', role: 'setting', presence: 'default',
    defaultValue: DEFAULT_CERTIFICATE_TIMEOUT_MINUTES, readable: false, carrierOnly: true,
    description: 'How long an apply waits for requested free certificates to be issued, in minutes.' },
];

export const webSettingsDefinition = {
  kind: 'web-settings',
  label: 'web settings',
  plural: 'web settings',
  description: 'The web settings of a hosting package: force HTTPS, free (Let\'s Encrypt) certificates per host name, and the PHP version. ' +
    'One resource per package. Removing it deletes nothing: HTTPS is no longer forced, the PHP version stays, and the certificates stay unless `delete_certificates`.',
  /** After the package (its parent). */
  order: 6,
  resourceType: 'reseller_web_settings',
  keyName: 'package',
  importIdHelp: 'the package\'s primary domain, e.g. example.com',
  fields: WEB_SETTINGS_FIELDS,
  check: checkWebSettings,
  identity: (spec: WebSettingsSpec, parent = ''): Identity => ({ kind: 'web-settings', key: spec.packageDomain, placement: spec.packageDomain, parent }),
  jsonSettings: ['forceHttps', 'freeCertificates', 'deleteCertificates'],
  settings: (spec: WebSettingsSpec): Record<string, string> => ({
    forceHttps: canonicalJson(spec.forceHttps),
    freeCertificates: canonicalJson([...spec.freeCertificates].sort()),
    phpVersion: spec.phpVersion ?? '',
    deleteCertificates: canonicalJson(spec.deleteCertificates),
    onCertificateTimeout: spec.onCertificateTimeout,
  }),
  checkIdentity(id: Identity): string[] {
    const problem = checkDomainName(id.key);
    return problem ? [`packageDomain ${problem}`] : [];
  },
  canonicalIdentity: (id: Identity): Identity => ({ ...id, key: canonicalDomain(id.key), placement: canonicalDomain(id.key) }),
  parseImportId(text: string): Identity | string {
    const problem = checkDomainName(text);
    if (problem) return `import id ${problem} (expected ${webSettingsDefinition.importIdHelp})`;
    const key = canonicalDomain(text);
    return { kind: 'web-settings', key, placement: key, parent: '' };
  },
  formatImportId: (id: Identity): string => id.key,
  parent: { field: 'packageDomain', kind: 'package', placesKey: true } as const,
  lifecycle: { restoresDefaults },
  /** Requested certificates are issued minutes later (and only once DNS points here): an apply waits for them. */
  createTimeout: { field: 'certificateTimeoutMinutes', defaultMinutes: DEFAULT_CERTIFICATE_TIMEOUT_MINUTES, waitsFor: 'the free certificates an apply asks for to be issued (then on_certificate_timeout decides)' },
  // Every package has web settings: one the stacks do not declare is not "unmanaged".
  reportsUnmanaged: false,
  import: {
    construct: 'WebSettings',
    idPrefix: 'web',
    // Three reads per package: declared on request only (--kinds web-settings).
    byDefault: false,
    section: [
      '---- Web settings (HTTPS, free certificates, PHP) ----',
      'Each package\'s settings as they are now: deploying them writes nothing. Free certificates',
      'of other names stay as they are (deleteCertificates is false).',
    ],
    props: [{ field: 'packageDomain', prop: 'package' }, 'forceHttps', 'freeCertificates', 'phpVersion'],
  },
} satisfies KindDefinition<'web-settings', WebSettingsSpec>;
