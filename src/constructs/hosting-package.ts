import { IResolvable } from './private/cdk';
import { Construct, IConstruct } from 'constructs';
import { canonicalDomain, checkDomainName, PackageSpec, StackUserRef } from '../protocol';
import { StackUser, stackUserConstruct } from './stack-user';
import type { ICloudServer } from './managed-cloud-server';
import { canonDomain, canonStackUser, checkRelativePath, literal } from './private/names';
import { Claim } from './private/registry';
import { ManagedObject, ManagedObjectProps } from './managed-object';
import { ObjectReference } from './private/reference';
import { DataResellerPackage } from './data-sources';
import { containsToken, isToken } from './private/tokens';
import { describe, Problems } from './private/validation';

/** A hosting package mail objects can be created on: managed here or referenced. */
export interface IHostingPackage extends IConstruct {
  /** Primary domain name, canonical (lowercase, IDNA) when known at synth. */
  readonly domainName: string;
  /**
   * Every domain name of a managed package, primary first (canonical); undefined for
   * a reference, whose other domains are not known.
   */
  readonly domainNames?: readonly string[];
  /**
   * Terraform id expression of the package's object resource (so that replacing the
   * package replaces its mail objects); undefined for a package not managed here.
   */
  readonly objectId?: string;
  /** True when the package is declared `absent: true`. */
  readonly isAbsent: boolean;
}

/** A web hosting package, on the reseller account or on a managed cloud server. */
export interface HostingPackageProps extends ManagedObjectProps {
  /** Primary domain name (IDN allowed): the package's natural key, so changing it replaces the package. */
  readonly domainName: string;
  /**
   * Further domain names of the package; updated in place.
   * @default []
   */
  readonly extraDomainNames?: readonly string[];
  /**
   * Package type: its name (e.g. `Linux Unlimited`) or numeric id; updated in place.
   * Required on the reseller account; a package on a cloud server takes none (the server decides).
   * @default - none (only with `cloudServer`)
   */
  readonly packageType?: string | number;
  /**
   * Memorable name of the package (at most 255 characters); updated in place.
   * @default - no label
   */
  readonly label?: string;
  /**
   * Document root per domain of the package, relative to its home directory. Applied
   * when the package is created (the API cannot change them later).
   * @default - the API's defaults
   */
  readonly documentRoots?: Readonly<Record<string, string>>;
  /**
   * The control-panel user linked to the package: a `StackUser` of this stack (the package
   * then waits for it), or `stack-user:<n>` or `{ email }` of an existing user. When set,
   * the package's linked users become exactly this one.
   * @default - linked users are left as they are
   */
  readonly stackUser?: StackUserRef | StackUser;
  /**
   * Whether the package is enabled (a literal or a bool variable's value).
   * @default true
   */
  readonly enabled?: boolean | IResolvable;
  /**
   * Place the package on this cloud server instead of the reseller account. Part of
   * the identity: changing it replaces the package.
   * @default - on the reseller account
   */
  readonly cloudServer?: ICloudServer;
}

/** A managed hosting package. */
export class HostingPackage extends ManagedObject implements IHostingPackage {
  /**
   * A reference to an existing package not managed by this stack, by its primary
   * domain name: mail objects can be created on it. With the provider engine it is
   * read through a `reseller_package` data source, so a missing package fails
   * `terraform plan`; with the carriers it synthesizes nothing (they cannot read at
   * plan time) and a missing package fails the apply of the objects on it.
   */
  public static fromDomainName(scope: Construct, id: string, domainName: string): IHostingPackage {
    return new PackageReference(scope, id, domainName);
  }

  /** Primary domain name, canonical (lowercase, IDNA) when known at synth. */
  public readonly domainName: string;
  /** Extra domain names (canonical where known at synth). */
  public readonly extraDomainNames: readonly string[];
  /** Primary and extra domain names. */
  public readonly domainNames: readonly string[];

  constructor(scope: Construct, id: string, props: HostingPackageProps) {
    super(scope, id, props);
    this.domainName = canonDomain(props.domainName);
    const extra = props.extraDomainNames ?? [];
    this.extraDomainNames = isToken(extra) || !Array.isArray(extra) ? extra : extra.map(canonDomain);
    this.domainNames = isToken(extra) || !Array.isArray(extra) ? [this.domainName] : [this.domainName, ...this.extraDomainNames];
    const roots = props.documentRoots ?? {};
    const server = props.cloudServer;
    const user = stackUserConstruct(props.stackUser);

    const spec: PackageSpec = {
      kind: 'package',
      path: this.node.path,
      domainName: this.domainName,
      extraDomainNames: this.extraDomainNames,
      packageType: props.packageType,
      label: props.label,
      documentRoots:
        isToken(roots) || typeof roots !== 'object' || roots === null
          ? roots
          : Object.fromEntries(Object.entries(roots).map(([k, v]) => [canonDomain(k), v])),
      stackUser: user ? { email: user.email } : canonStackUser(props.stackUser as StackUserRef | undefined),
      enabled: (props.enabled ?? true) as boolean, // a token stays a token: jsonencode renders it
      cloudServer: server?.hostName,
    };
    this.manage({
      spec,
      parent: server && { field: 'cloudServer', what: 'cloud server', referBy: 'ManagedCloudServer.fromHostName', construct: server, objectId: server.objectId, isAbsent: server.isAbsent },
      claims: () => this.claims(props),
      after: user ? [{ field: 'stackUser', construct: user }] : undefined,
    }, (p) => {
      // The definition's rules; extra names and document roots have the construct's own, finer ones.
      p.definition(spec, ['domainName', 'packageType', 'label', 'stackUser', 'enabled']);
      validatePackage(p, props);
    });
  }

  private claims(props: HostingPackageProps): Claim[] {
    const claims: Claim[] = [];
    const claim = (field: string, value: unknown) => {
      const d = literal(value, canonicalDomain);
      if (!d || checkDomainName(value)) return;
      claims.push({
        key: `domain:${d}`,
        field,
        conflict: (first) => `"${d}" is already a domain of package ${first} (a domain name may belong to one package only)`,
      });
    };
    claim('domainName', props.domainName);
    const extra = props.extraDomainNames;
    if (Array.isArray(extra) && !isToken(extra)) extra.forEach((d, i) => claim(`extraDomainNames[${i}]`, d));
    return claims;
  }
}

function validatePackage(p: Problems, props: HostingPackageProps): void {
  const primary = literal(props.domainName, canonicalDomain);
  const known = new Set<string>(primary ? [primary] : []);
  // documentRoots keys are checked against the domains only when all are known and valid
  let allKnown = primary !== undefined && !checkDomainName(props.domainName);

  const extra: unknown = props.extraDomainNames;
  if (extra !== undefined && isToken(extra)) {
    allKnown = false;
  } else if (extra !== undefined && !Array.isArray(extra)) {
    p.field('extraDomainNames', `must be a list of domain names, not ${describe(extra)}`);
  } else if (Array.isArray(extra)) {
    extra.forEach((d: unknown, i: number) => {
      const field = `extraDomainNames[${i}]`;
      if (containsToken(d)) {
        allKnown = false;
        return;
      }
      const problem = checkDomainName(d);
      if (problem) {
        allKnown = false;
        return p.field(field, problem);
      }
      const c = canonicalDomain(d as string);
      if (c === primary) p.field(field, `"${String(d)}" is the primary domainName; list it only once`);
      else if (known.has(c)) p.field(field, `"${String(d)}" is listed twice (extra domain names must be distinct)`);
      known.add(c);
    });
  }

  const roots: unknown = props.documentRoots;
  if (roots !== undefined && !isToken(roots)) {
    if (typeof roots !== 'object' || roots === null || Array.isArray(roots)) {
      p.field('documentRoots', `must be a map from domain name to relative path, not ${describe(roots)}`);
    } else {
      for (const [k, v] of Object.entries(roots)) {
        const field = `documentRoots[${JSON.stringify(k)}]`;
        const c = literal(k, canonicalDomain);
        if (allKnown && c !== undefined && !known.has(c)) {
          p.field(field, `names a domain that is not a domain of this package (${[...known].join(', ')})`);
        }
        p.check(field, v, checkRelativePath);
      }
    }
  }
}

class PackageReference extends ObjectReference implements IHostingPackage {
  public readonly domainName: string;
  public readonly domainNames = undefined;

  constructor(scope: Construct, id: string, domainName: string) {
    super(scope, id, 'domainName', domainName, checkDomainName);
    this.domainName = canonDomain(domainName);
    this.checkAtPlan(() => new DataResellerPackage(this, 'Read', { domainName: this.domainName }), 'domain_name', `domain:${this.domainName}`);
  }
}
