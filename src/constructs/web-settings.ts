import { Construct } from 'constructs';
import { canonicalDomain, checkDomainName, DEFAULT_CERTIFICATE_TIMEOUT_MINUTES, WebSettingsSpec } from '../protocol';
import type { CertificateTimeoutAction } from '../protocol';
import { IResolvable, TerraformStack } from './private/cdk';
import type { IHostingPackage } from './hosting-package';
import { canonDomain, literal } from './private/names';
import { ResellerDataSource } from './private/data-source';
import { containsToken, isToken } from './private/tokens';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/** The web settings of a hosting package: HTTPS, free certificates, PHP version. */
export interface WebSettingsProps extends ManagedObjectProps {
  /** The package whose site these settings are (managed, or `HostingPackage.fromDomainName`); one `WebSettings` per package. */
  readonly package: IHostingPackage;
  /**
   * Redirect every HTTP request of the site to HTTPS.
   * @default false - the platform's default
   */
  readonly forceHttps?: boolean | IResolvable;
  /**
   * Host names of the package that get a free (Let's Encrypt) certificate, such as the
   * primary domain and its `www.` name. The service issues one minutes after it is asked
   * for, and only once the name's DNS points at it: the apply waits up to
   * `certificateTimeoutMinutes` (with the provider, `timeouts { create }`).
   * @default [] - none asked for; existing certificates are left alone
   */
  readonly freeCertificates?: readonly string[];
  /**
   * PHP version of the site, major.minor ("8.2"): one the service lists for the package
   * (`DataResellerPhpVersions`). Another is a plan-time error listing the available ones.
   * @default - left as it is
   */
  readonly phpVersion?: string;
  /**
   * Make `freeCertificates` the whole list: a free certificate of a name not in it is
   * deleted, and every free certificate when these settings are removed.
   * @default false - certificates of other names, and all of them on removal, stay in place
   */
  readonly deleteCertificates?: boolean;
  /**
   * What an apply does when a requested certificate is still not issued after the wait:
   * `'warn'` succeeds with a warning (the name stays pending, not drift, for up to 24
   * hours), `'fail'` fails the apply.
   * @default 'warn'
   */
  readonly onCertificateTimeout?: CertificateTimeoutAction;
  /**
   * How long an apply waits for requested certificates to be issued, in minutes
   * (the provider engine writes it as `timeouts { create }`).
   * @default 10
   */
  readonly certificateTimeoutMinutes?: number;
}

/**
 * The web settings of one hosting package: force HTTPS, free certificates and the PHP
 * version. Removing the construct deletes nothing: it puts the settings back to the
 * platform's defaults (HTTPS no longer forced; the PHP version and the certificates stay,
 * unless `deleteCertificates`), and the plan says so.
 *
 * ```ts
 * new WebSettings(stack, 'shop_web', {
 *   package: shop, forceHttps: true, freeCertificates: ['shop.example.com', 'www.shop.example.com'], phpVersion: '8.2',
 * });
 * ```
 */
export class WebSettings extends ManagedObject {
  /** Primary domain of the package (canonical when literal). */
  public readonly packageDomain: string;

  constructor(scope: Construct, id: string, props: WebSettingsProps) {
    super(scope, id, props);
    const pkg = props.package;
    this.packageDomain = canonDomain(pkg?.domainName);
    const names = props.freeCertificates;
    const spec: WebSettingsSpec = {
      kind: 'web-settings',
      path: this.node.path,
      packageDomain: this.packageDomain,
      forceHttps: (props.forceHttps ?? false) as boolean,
      freeCertificates: Array.isArray(names) && !containsToken(names) ? [...new Set(names.map((n) => canonDomain(n)))].sort() : (names ?? []),
      ...(props.phpVersion !== undefined ? { phpVersion: props.phpVersion } : {}),
      deleteCertificates: props.deleteCertificates ?? false,
      onCertificateTimeout: props.onCertificateTimeout ?? 'warn',
      certificateTimeoutMinutes: props.certificateTimeoutMinutes ?? DEFAULT_CERTIFICATE_TIMEOUT_MINUTES,
    };
    const key = literal(pkg?.domainName, canonicalDomain);
    this.manage({
      spec,
      parent: { field: 'package', what: 'package', referBy: 'HostingPackage.fromDomainName', construct: pkg, objectId: pkg?.objectId, isAbsent: pkg?.isAbsent ?? false },
      claims: () => key && !checkDomainName(key) ? [{
        key: `web-settings:${key}`,
        field: 'package',
        conflict: (first) => `"${key}" already has its web settings declared by ${first} (one WebSettings per package)`,
      }] : [],
    }, (p) => {
      if (!pkg || typeof pkg !== 'object' || !('domainName' in pkg)) {
        p.field('package', 'must be a HostingPackage or HostingPackage.fromDomainName(...)');
        return;
      }
      p.definition(spec);
      const domains = pkg.domainNames;
      if (domains && !containsToken(domains) && TerraformStack.of(pkg) === TerraformStack.of(this) && Array.isArray(names) && !containsToken(names)) {
        // A name the package does not hold can never point at its site: it would stay pending for ever.
        const foreign = names.map((n) => canonicalDomain(n)).filter((n) => n && !checkDomainName(n) && !domains.some((d) => n === d || n.endsWith(`.${d}`)));
        if (foreign.length) {
          p.field('freeCertificates', `${foreign.map((n) => `"${n}"`).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} neither a domain of package ${pkg.node.path} (${domains.join(', ')}) nor a name under one`);
        }
      }
    });
  }
}

/** Props of {@link DataResellerCertificates}. */
export interface DataResellerCertificatesProps {
  /** The package: a domain name of it, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
}

/**
 * `data "reseller_certificates"`: the certificates installed on a package's site, with
 * their common name, provider and issue time (never a PEM). It reads the list the
 * `WebSettings` resources read: one request per package per plan.
 */
export class DataResellerCertificates extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerCertificatesProps) {
    super(scope, id, 'reseller_certificates', { package: packageName(props.package) });
  }

  /** The host names with a certificate, sorted. */
  public get commonNames(): string[] {
    return this.getListAttribute('common_names');
  }

  /** The host names with a free (Let's Encrypt) certificate, sorted. */
  public get freeCommonNames(): string[] {
    return this.getListAttribute('free_common_names');
  }

  /** The certificates: `id`, `common_name`, `provider`, `free`, `issued_at`. */
  public get certificates(): IResolvable {
    return this.interpolationForAttribute('certificates');
  }
}

/** Props of {@link DataResellerPhpVersions}. */
export interface DataResellerPhpVersionsProps {
  /** The package: a domain name of it, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
}

/** `data "reseller_php_versions"`: the PHP versions the service offers a package, and the one it runs. */
export class DataResellerPhpVersions extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerPhpVersionsProps) {
    super(scope, id, 'reseller_php_versions', { package: packageName(props.package) });
  }

  /** The available versions, major.minor, oldest first: what `WebSettings.phpVersion` takes. */
  public get versions(): string[] {
    return this.getListAttribute('versions');
  }

  /** The newest available version. */
  public get latest(): string {
    return this.getStringAttribute('latest');
  }

  /** The version the package runs now. */
  public get current(): string {
    return this.getStringAttribute('current');
  }
}

function packageName(pkg: string | IHostingPackage): string {
  return typeof pkg === 'string' ? (isToken(pkg) ? pkg : canonDomain(pkg)) : pkg.domainName;
}
