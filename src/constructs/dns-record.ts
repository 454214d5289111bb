import { Construct } from 'constructs';
import { checkDnsRecord, DnsRecordSpec, DnsRecordType, fullyQualified, keyValue } from '../protocol';
import { TerraformStack } from './private/cdk';
import type { IHostingPackage } from './hosting-package';
import { canonDomain } from './private/names';
import { containsToken } from './private/tokens';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/** A DNS record (A, AAAA, CNAME, MX, TXT or SRV) in a zone of a hosting package, or in a registered domain name's own zone; the API has no update: a change replaces it in one write. */
export interface DnsRecordProps extends ManagedObjectProps {
  /**
   * The package whose zone holds the record (managed, or `HostingPackage.fromDomainName`).
   * Give it or `domain`, not both.
   * @default - none: give `domain`
   */
  readonly package?: IHostingPackage;
  /**
   * A registered domain name (one the account holds) whose own zone holds the record:
   * for a registration no package holds (where a package holds the name, its zone is the
   * package's: give `package`). Its zone is the name itself. Give it or `package`, not both.
   * @default - none: give `package`
   */
  readonly domain?: string;
  /** Owner name relative to the zone: `@` for the apex, `www`, `_dmarc`, `*`, `_sip._tcp` (SRV). */
  readonly name: string;
  /** Record type: A, AAAA, CNAME, MX, TXT or SRV (NS and SOA are the service's). */
  readonly type: DnsRecordType;
  /** A: an IPv4 address; AAAA: an IPv6 address; CNAME, MX, SRV: the target host name; TXT: the text (e.g. an SPF policy). */
  readonly value: string;
  /**
   * Zone apex: one of the package's apex domain names (with `domain`: the domain itself).
   * @default - the package's domainName, or the registered domain
   */
  readonly zone?: string;
  /**
   * Priority (0-65535): required for MX and SRV records, not allowed on others.
   * @default - none
   */
  readonly priority?: number;
  /**
   * Weight (0-65535): required for SRV records, not allowed on others.
   * @default - none
   */
  readonly weight?: number;
  /**
   * Port (0-65535): required for SRV records, not allowed on others.
   * @default - none
   */
  readonly port?: number;
  /**
   * When the record is created, delete the records at its name that it cannot sit
   * beside (a CNAME and any other record) in the same write, instead of failing: how a
   * `www` CNAME takes the place of the zone's default `www` A record. Applied at
   * creation only.
   * @default false
   */
  readonly replaceConflicting?: boolean;
}

/**
 * A managed DNS record. The API has no update and no TTL: a change of a prop replaces
 * the record (with the provider, in one write when it stays in its zone). At synth, a CNAME that shares its name with another record of
 * the stack is an error (RFC 1034), as is a record declared twice.
 *
 * ```ts
 * new DnsRecord(stack, 'www', { package: site, name: 'www', type: 'CNAME', value: 'example.com' });
 * new DnsRecord(stack, 'mx', { package: site, name: '@', type: 'MX', value: 'mail.example.com', priority: 10 });
 * new DnsRecord(stack, 'verify', { domain: 'example.org', name: '@', type: 'TXT', value: 'site-verification=abc' }); // a registration's own zone
 * ```
 */
export class DnsRecord extends ManagedObject {
  /** The record's zone (canonical when literal). */
  public readonly zone: string;
  /** Owner name relative to the zone, canonical when literal (`@`, `www`). */
  public readonly name: string;
  /** Record type (upper case when literal). */
  public readonly type: DnsRecordType;

  constructor(scope: Construct, id: string, props: DnsRecordProps) {
    super(scope, id, props);
    const pkg = props.package;
    const domain = props.domain === undefined ? undefined : canonDomain(props.domain);
    const raw: DnsRecordSpec = {
      kind: 'dns-record',
      path: this.node.path,
      ...(domain !== undefined ? { domain } : {}),
      ...(pkg !== undefined || domain === undefined ? { packageDomain: pkg?.domainName } : {}),
      zone: canonDomain(props.zone ?? (domain !== undefined && pkg === undefined ? domain : pkg?.domainName)) as string,
      name: props.name,
      type: props.type,
      value: props.value,
      ...(props.priority !== undefined ? { priority: props.priority } : {}),
      ...(props.weight !== undefined ? { weight: props.weight } : {}),
      ...(props.port !== undefined ? { port: props.port } : {}),
      ...(props.replaceConflicting !== undefined ? { replaceConflicting: props.replaceConflicting } : {}),
    };
    const checked = containsToken(raw) ? undefined : checkDnsRecord(raw);
    const spec = checked && checked.problems.length === 0 ? checked.spec : raw;
    this.zone = spec.zone;
    this.name = spec.name;
    this.type = spec.type;
    const key = checked && checked.problems.length === 0 ? `${spec.zone}/${fullyQualified(spec.name, spec.zone)}/${spec.type}/${keyValue(spec)}` : undefined;

    const parent = pkg && typeof pkg === 'object' && 'domainName' in pkg
      ? { field: 'package', what: 'package', referBy: 'HostingPackage.fromDomainName', construct: pkg, objectId: pkg.objectId, isAbsent: pkg.isAbsent ?? false }
      : undefined;
    this.manage({
      spec,
      parent,
      claims: () => key ? [{
        key: `dns-record:${key}`,
        field: 'value',
        conflict: (first) => `${spec.type} ${fullyQualified(spec.name, spec.zone)} ${keyValue(spec)} is already declared by DNS record ${first} (each record may be declared once per stack)`,
      }] : [],
    }, (p) => {
      if (domain !== undefined && pkg !== undefined) {
        p.field('domain', 'cannot be given with package: a record is in a package\'s zone or in a registered domain\'s own zone, not both');
        return;
      }
      if (domain !== undefined) {
        p.definition(spec, ['domain', 'zone', 'name', 'type', 'value', 'priority', 'weight', 'port', 'replaceConflicting']);
        if (key) p.field('name', this.cnameConflict());
        return;
      }
      if (!pkg || typeof pkg !== 'object' || !('domainName' in pkg)) {
        p.field('package', 'must be a HostingPackage or HostingPackage.fromDomainName(...) (or give domain: a registered domain name whose own zone holds the record)');
        return;
      }
      p.definition(spec, ['zone', 'name', 'type', 'value', 'priority', 'weight', 'port', 'replaceConflicting']);
      const domains = pkg.domainNames;
      if (domains && !containsToken(domains) && !containsToken(spec.zone) && checked?.problems.length === 0
        && !domains.includes(spec.zone) && TerraformStack.of(pkg) === TerraformStack.of(this)) {
        p.field('zone', `"${spec.zone}" is not a domain of package ${pkg.node.path} (${domains.join(', ')})`);
      }
      if (key) p.field('name', this.cnameConflict());
    });
  }

  /** RFC 1034: a CNAME is the only record at its name. Names the other records of the stack at this CNAME's name. */
  private cnameConflict(): string | undefined {
    const owner = fullyQualified(this.name, this.zone);
    const here = TerraformStack.of(this).node.findAll()
      .filter((c): c is DnsRecord => c instanceof DnsRecord && c !== this && !c.isAbsent && !containsToken([c.zone, c.name]))
      .filter((c) => fullyQualified(c.name, c.zone) === owner);
    if (this.isAbsent || here.length === 0) return undefined;
    if (this.type === 'CNAME') {
      return `"${this.name}" holds a CNAME, which must be the only record at ${owner}, but ${here.map((c) => `${c.node.path} (${c.type})`).join(', ')} ${here.length === 1 ? 'is' : 'are'} declared there too`;
    }
    const cname = here.find((c) => c.type === 'CNAME');
    return cname ? `"${this.name}" is also the name of CNAME ${cname.node.path}, which must be the only record at ${owner}` : undefined;
  }
}
