import { Construct } from 'constructs';
import type { CloudProvider } from '../protocol/cloud';
import type { DnsRecordType } from '../protocol';
import { IResolvable, Token } from './private/cdk';
import { requireOneOf, ResellerDataSource } from './private/data-source';
import type { IHostingPackage } from './hosting-package';

/**
 * Data sources of the native provider: read what the stack does not manage (another
 * stack's package, a package type by name, a user by e-mail, a site's IP address for a
 * DNS record elsewhere). Named as cdktf names generated data sources (`DataAwsVpc`):
 * `Data` + the Terraform type in PascalCase. Each reads at plan time; an object that
 * does not exist fails the plan naming the key and the closest existing names. Plural
 * ones return empty lists for no match.
 *
 * They use the native provider whatever the stack's `engine` (a read needs no
 * provisioner); `RESELLER_API_KEY` must be set for `terraform plan`.
 */

/** Props of {@link DataResellerPackage}: exactly one look-up key. */
export interface DataResellerPackageProps {
  /** The package's primary domain. @default - none: give exactly one look-up key */
  readonly domainName?: string;
  /** Any domain name of the package (primary or extra). @default - none: give exactly one look-up key */
  readonly name?: string;
  /** The package's numeric id. @default - none: give exactly one look-up key */
  readonly packageId?: number;
  /**
   * Read the package's web IPv4 address ({@link DataResellerPackage.webIpv4}). The
   * package list has no address, so this reads the package itself: one more request
   * per package at every plan. Without it the look-up costs only the shared package list.
   * @default false - `webIpv4` is null
   */
  readonly readWebIpv4?: boolean;
}

/** `data "reseller_package"`: a hosting package found by a domain name or its id. */
export class DataResellerPackage extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerPackageProps) {
    requireOneOf(scope, id, props, ['domainName', 'name', 'packageId']);
    super(scope, id, 'reseller_package', { ...props });
  }

  /** Primary domain. */
  public get domainName(): string {
    return this.getStringAttribute('domain_name');
  }

  /** Numeric id of the package. */
  public get packageId(): number {
    return this.getNumberAttribute('package_id');
  }

  /** Every domain name, the primary first. */
  public get names(): string[] {
    return this.getListAttribute('names');
  }

  /** Extra domain names. */
  public get extraDomainNames(): string[] {
    return this.getListAttribute('extra_domain_names');
  }

  /** Name of the package type. */
  public get packageType(): string {
    return this.getStringAttribute('package_type');
  }

  /** Id of the package type. */
  public get packageTypeId(): number {
    return this.getNumberAttribute('package_type_id');
  }

  /** Label (null when the API does not return it). */
  public get label(): string {
    return this.getStringAttribute('label');
  }

  /** Whether the package is enabled. */
  public get enabled(): IResolvable {
    return this.getBooleanAttribute('enabled');
  }

  /** Linked control-panel users (`stack-user:N`). */
  public get stackUsers(): string[] {
    return this.getListAttribute('stack_users');
  }

  /** Host name of the cloud server the package is on; null on the reseller account. */
  public get cloudServer(): string {
    return this.getStringAttribute('cloud_server');
  }

  /** IPv4 address of the package's web server, when `readWebIpv4` is set and the API gives one; null otherwise. */
  public get webIpv4(): string {
    return this.getStringAttribute('web_ipv4');
  }
}

/** Props of {@link DataResellerPackages}: filters, all optional. */
export interface DataResellerPackagesProps {
  /** Only packages of this type (name or id). @default - no filter */
  readonly packageType?: string;
  /** Only packages linked to this user (`stack-user:N` or an e-mail). @default - no filter */
  readonly stackUser?: string;
  /** Only packages with a domain name ending in this suffix. @default - no filter */
  readonly nameSuffix?: string;
  /** Only packages on the cloud server with this host name. @default - no filter */
  readonly cloudServer?: string;
}

/** `data "reseller_packages"`: the account's packages, filtered. */
export class DataResellerPackages extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerPackagesProps = {}) {
    super(scope, id, 'reseller_packages', { ...props });
  }

  /** Primary domains of the matching packages, sorted. */
  public get domainNames(): string[] {
    return this.getListAttribute('domain_names');
  }

  /** The matching packages (objects with the attributes of `reseller_package`). */
  public get packages(): IResolvable {
    return this.interpolationForAttribute('packages');
  }
}

/** Props of {@link DataResellerPackageTypes}. */
export interface DataResellerPackageTypesProps {
  /** Only types of this platform. @default - no filter */
  readonly platform?: 'linux' | 'windows';
}

/** `data "reseller_package_types"`: the account's package types and their limits (unlimited: null). */
export class DataResellerPackageTypes extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerPackageTypesProps = {}) {
    super(scope, id, 'reseller_package_types', { ...props });
  }

  /** The id of the type with this name (fails the plan if there is none). */
  public idOf(name: string): number {
    return Token.asNumber(this.interpolationForAttribute(`ids_by_name[${JSON.stringify(name)}]`));
  }

  /** The types: `id`, `name`, `platform`, `limits` (null: unlimited), `unlimited`. */
  public get packageTypes(): IResolvable {
    return this.interpolationForAttribute('package_types');
  }
}

/** Props of {@link DataResellerStackUser}: exactly one look-up key. */
export interface DataResellerStackUserProps {
  /** The e-mail of the user's contact record (case-insensitive). @default - none: give exactly one look-up key */
  readonly email?: string;
  /** The user's reference, `stack-user:N`. @default - none: give exactly one look-up key */
  readonly userRef?: string;
}

/** `data "reseller_stack_user"`: a control-panel user. */
export class DataResellerStackUser extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerStackUserProps) {
    requireOneOf(scope, id, props, ['email', 'userRef']);
    super(scope, id, 'reseller_stack_user', { ...props });
  }

  /** The user's reference, `stack-user:N` (what `stackUser` of a package takes). */
  public get userRef(): string {
    return this.getStringAttribute('user_ref');
  }

  /** The contact e-mail. */
  public get email(): string {
    return this.getStringAttribute('email');
  }

  /** The person's name. */
  public get personName(): string {
    return this.getStringAttribute('person_name');
  }
}

/** Props of {@link DataResellerStackUsers}. */
export interface DataResellerStackUsersProps {
  /** Only users whose e-mail ends in this suffix. @default - no filter */
  readonly emailSuffix?: string;
}

/** `data "reseller_stack_users"`: the account's control-panel users. */
export class DataResellerStackUsers extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerStackUsersProps = {}) {
    super(scope, id, 'reseller_stack_users', { ...props });
  }

  /** E-mails of the matching users. */
  public get emails(): string[] {
    return this.getListAttribute('emails');
  }

  /** The matching users: `email`, `person_name`, `user_ref`. */
  public get users(): IResolvable {
    return this.interpolationForAttribute('users');
  }
}

/** Props of {@link DataResellerMailDomain}. */
export interface DataResellerMailDomainProps {
  /** The package: a domain name of it, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
  /** The mail domain. @default the package's primary domain */
  readonly domain?: string;
}

/** `data "reseller_mail_domain"`: the mailboxes (never their passwords) and forwarders of a mail domain. */
export class DataResellerMailDomain extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerMailDomainProps) {
    super(scope, id, 'reseller_mail_domain', { package: typeof props.package === 'string' ? props.package : props.package.domainName, domain: props.domain });
  }

  /** Every address of the domain, sorted. */
  public get addresses(): string[] {
    return this.getListAttribute('addresses');
  }

  /** Mailboxes: `local_part`, `address`, `send`, `receive`, `enabled`, `mailbox_id`. */
  public get mailboxes(): IResolvable {
    return this.interpolationForAttribute('mailboxes');
  }

  /** Forwarders: `local_part`, `address`, `remote`, `forwarder_id`. */
  public get forwarders(): IResolvable {
    return this.interpolationForAttribute('forwarders');
  }
}

/** Props of {@link DataResellerCloudServer}. */
export interface DataResellerCloudServerProps {
  /** The server's host name. */
  readonly hostName: string;
  /**
   * Read the reseller brand the server was ordered under ({@link DataResellerCloudServer.brandName}).
   * The API gives it only on a read of the server itself: one more request per server at every plan.
   * @default false - `brandName` is null
   */
  readonly readBrand?: boolean;
}

/** `data "reseller_cloud_server"`: a managed cloud server. */
export class DataResellerCloudServer extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerCloudServerProps) {
    super(scope, id, 'reseller_cloud_server', { ...props });
  }

  /** Host name. */
  public get hostName(): string {
    return this.getStringAttribute('host_name');
  }

  /** Provider: native, aws or gcp. */
  public get cloudProvider(): string {
    return this.getStringAttribute('cloud_provider');
  }

  /** Size name. */
  public get spec(): string {
    return this.getStringAttribute('spec');
  }

  /** Zone. */
  public get zone(): string {
    return this.getStringAttribute('zone');
  }

  /** Primary domains of the packages on the server. */
  public get packages(): string[] {
    return this.getListAttribute('packages');
  }

  /** The reseller brand it was ordered under, when `readBrand` is set; null when not branded or not read. */
  public get brandName(): string {
    return this.getStringAttribute('brand_name');
  }
}

/** Props of {@link DataResellerCloudServers}. */
export interface DataResellerCloudServersProps {
  /** Only servers of this provider. @default - no filter */
  readonly cloudProvider?: CloudProvider;
  /** Only servers in this zone. @default - no filter */
  readonly zone?: string;
}

/** `data "reseller_cloud_servers"`: the account's managed cloud servers. */
export class DataResellerCloudServers extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerCloudServersProps = {}) {
    super(scope, id, 'reseller_cloud_servers', { ...props });
  }

  /** Host names of the matching servers, sorted. */
  public get hostNames(): string[] {
    return this.getListAttribute('host_names');
  }

  /** The matching servers (attributes of `reseller_cloud_server`). */
  public get cloudServers(): IResolvable {
    return this.interpolationForAttribute('cloud_servers');
  }
}

/** Props of {@link DataResellerDnsRecords}. */
export interface DataResellerDnsRecordsProps {
  /** The package: a domain name of it, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
  /** The zone apex: one of the package's apex names. @default the package's primary domain */
  readonly zone?: string;
  /** Only records at this owner name, relative to the zone (`@`, `www`) or fully qualified. @default - no filter */
  readonly name?: string;
  /** Only records of this type. @default - no filter (every A, AAAA, CNAME, MX, TXT and SRV record) */
  readonly type?: DnsRecordType;
}

/**
 * `data "reseller_dns_records"`: the records of one zone of a package (the types a
 * `DnsRecord` can declare; the service's SOA and NS records are left out). It reads the
 * zone the `DnsRecord` resources read: one DNS request per package per plan.
 */
export class DataResellerDnsRecords extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerDnsRecordsProps) {
    const pkg = typeof props.package === 'string' ? props.package : props.package.domainName;
    super(scope, id, 'reseller_dns_records', { package: pkg, zone: props.zone, name: props.name, type: props.type });
  }

  /** The zone read (the primary domain when `zone` is not given). */
  public get zone(): string {
    return this.getStringAttribute('zone');
  }

  /** The values of the matching records, sorted by name, type and value. */
  public get values(): string[] {
    return this.getListAttribute('values');
  }

  /** The matching records: `name`, `fqdn`, `type`, `value`, `priority`, `weight`, `port` (null where the type has none), `ref`. */
  public get records(): IResolvable {
    return this.interpolationForAttribute('records');
  }
}

/** Props of {@link DataResellerCloudServerSpecs}: filters, all optional. */
export interface DataResellerCloudServerSpecsProps {
  /** Only sizes of this provider. @default - no filter */
  readonly cloudProvider?: CloudProvider;
  /** At least this many CPUs. @default - no filter */
  readonly minCpu?: number;
  /** At least this much RAM (GB). @default - no filter */
  readonly minRamGb?: number;
  /** At least this much disk (GB). @default - no filter */
  readonly minDiskGb?: number;
}

/** `data "reseller_cloud_server_specs"`: the size table of each provider (name, CPU, RAM, disk, bandwidth), smallest first, as docs/provider.md "Cloud server sizes and zones" lists it. Reads no API. */
export class DataResellerCloudServerSpecs extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerCloudServerSpecsProps = {}) {
    super(scope, id, 'reseller_cloud_server_specs', { ...props });
  }

  /** The smallest matching size's name (with `cloudProvider` set: a `spec` for a ManagedCloudServer). */
  public get smallest(): string {
    return Token.asString(this.interpolationForAttribute('specs[0].spec'));
  }

  /** The matching sizes: `cloud_provider`, `spec`, `cpu`, `ram_gb`, `disk_gb`, `bandwidth`. */
  public get specs(): IResolvable {
    return this.interpolationForAttribute('specs');
  }
}
