import { canonicalDomain, checkDomainName } from '../../protocol';
import { list, Observed, ReconcileContext, readAvailablePhpVersions, readCertificates, readPhpVersion } from '../../reconcile';
import { computed, DataSource, ReadResult, required, stringArg, listOf } from './data-source';

/**
 * The web settings' data sources: `reseller_certificates` (what the service lists of a
 * package's certificates: never a PEM) and `reseller_php_versions` (the PHP versions it
 * offers the package). Each reads what the `reseller_web_settings` resources read (the
 * context's per-package lists), so a plan that has both costs one request per package
 * and list, not one more.
 */

const namesOf = (o: Observed): string[] => [String(o.fields.domainName), ...((o.fields.extraDomainNames as string[] | undefined) ?? [])];

const packageArgument = required('package', 'string', 'A domain name of the hosting package (its primary domain or an extra one).');

function checkPackage(args: Parameters<NonNullable<DataSource['check']>>[0]) {
  const value = stringArg(args, 'package');
  const problem = value === undefined ? undefined : checkDomainName(value);
  return problem ? [{ attribute: 'package', message: problem }] : [];
}

/** The package any of whose names is `package`, or the not-found answer listing the account's names. */
async function findPackage(ctx: ReconcileContext, value: string): Promise<{ primary: string } | { notFound: ReadResult }> {
  const packages = await list(ctx, 'package');
  const wanted = canonicalDomain(value);
  const pkg = packages.find((o) => namesOf(o).includes(wanted));
  if (pkg) return { primary: String(pkg.fields.domainName) };
  return { notFound: { notFound: { attribute: 'package', value, what: 'package', existing: packages.flatMap(namesOf) } } };
}

const certificateElement = [
  computed('id', 'string', 'The certificate\'s id in the API.'),
  computed('common_name', 'string', 'The host name it secures.'),
  computed('provider', 'string', 'Who issued it (`letsencrypt/standard` for a free one).'),
  computed('free', 'bool', 'Whether it is a free (Let\'s Encrypt) certificate, the kind `free_certificates` of `reseller_web_settings` asks for.'),
  computed('issued_at', 'string', 'When it was issued or installed, as the API gives it; null when it does not say.'),
];

function certificatesSource(): DataSource {
  return {
    typeName: 'reseller_certificates',
    description: 'Reads the certificates installed on a hosting package\'s site: common name, provider and when issued (never a PEM). ' +
      'A free certificate that was asked for but is not issued yet is not listed. A package that does not exist fails the plan.',
    attributes: [
      packageArgument,
      computed('package_domain', 'string', 'Primary domain of the package.'),
      computed('certificates', listOf(certificateElement), 'The certificates, by common name.'),
      computed('common_names', ['list', 'string'], 'The host names with a certificate, sorted.'),
      computed('free_common_names', ['list', 'string'], 'The host names with a free (Let\'s Encrypt) certificate, sorted.'),
    ],
    check: checkPackage,
    async read(args, ctx): Promise<ReadResult> {
      const value = String(stringArg(args, 'package'));
      const found = await findPackage(ctx(), value);
      if ('notFound' in found) return found.notFound;
      const certificates = await readCertificates(ctx(), found.primary);
      if (!certificates) return { notFound: { attribute: 'package', value, what: 'package', existing: [] } };
      const sorted = [...certificates].sort((a, b) => a.commonName.localeCompare(b.commonName) || a.id.localeCompare(b.id));
      const names = (free?: boolean) => [...new Set(sorted.filter((c) => free === undefined || c.free === free).map((c) => c.commonName))];
      return {
        values: {
          package_domain: found.primary,
          certificates: sorted.map((c) => ({ id: c.id, common_name: c.commonName, provider: c.provider, free: c.free, issued_at: c.createdAt ?? null })),
          common_names: names(),
          free_common_names: names(true),
        },
      };
    },
  };
}

const byVersion = (a: string, b: string) => {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
};

const versionElement = [
  computed('version', 'string', 'major.minor, as `php_version` of `reseller_web_settings` takes it ("8.2").'),
  computed('full_version', 'string', 'The full version the API lists (`FullVersion`).'),
  computed('handler', 'string', 'The API\'s handler name (`Handler`).'),
  computed('title', 'string', 'The API\'s title (`Title`).'),
];

function phpVersionsSource(): DataSource {
  return {
    typeName: 'reseller_php_versions',
    description: 'Reads the PHP versions the service offers a hosting package (the values `php_version` of `reseller_web_settings` takes) and the one it runs. ' +
      'A package that does not exist fails the plan.',
    attributes: [
      packageArgument,
      computed('package_domain', 'string', 'Primary domain of the package.'),
      computed('versions', ['list', 'string'], 'The available versions, major.minor, oldest first.'),
      computed('latest', 'string', 'The newest available version; null when none is offered.'),
      computed('current', 'string', 'The version the package runs now; null when the API gives none the provider can read.'),
      computed('available', listOf(versionElement), 'The available versions as the API lists them, oldest first.'),
    ],
    check: checkPackage,
    async read(args, ctx): Promise<ReadResult> {
      const value = String(stringArg(args, 'package'));
      const found = await findPackage(ctx(), value);
      if ('notFound' in found) return found.notFound;
      const [available, current] = await Promise.all([readAvailablePhpVersions(ctx(), found.primary), readPhpVersion(ctx(), found.primary)]);
      if (!available) return { notFound: { attribute: 'package', value, what: 'package', existing: [] } };
      const sorted = [...available].sort((a, b) => byVersion(a.version, b.version));
      return {
        values: {
          package_domain: found.primary,
          versions: sorted.map((v) => v.version),
          latest: sorted.length ? sorted[sorted.length - 1].version : null,
          current: current ?? null,
          available: sorted.map((v) => ({ version: v.version, full_version: v.fullVersion, handler: v.handler, title: v.title })),
        },
      };
    },
  };
}

export function webDataSources(): DataSource[] {
  return [certificatesSource(), phpVersionsSource()];
}
