import { Construct } from 'constructs';
import { checkDomainNameservers, checkDomainTransferLock, DomainNameserversSpec, DomainTransferLockSpec } from '../protocol';
import { IResolvable } from './private/cdk';
import { ResellerDataSource } from './private/data-source';
import { canonDomain } from './private/names';
import { containsToken } from './private/tokens';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/** The nameservers of a registered domain name the account holds. */
export interface DomainNameserversProps extends ManagedObjectProps {
  /**
   * The registered domain name. It must be one the account holds: it is adopted, never
   * registered (a plan names the closest registrations otherwise).
   */
  readonly domain: string;
  /**
   * Host names of the nameservers the registry should delegate the domain to: 2 to 13,
   * each once. A set: their order does not matter (registries hold them unordered, and
   * the API's write is a difference that cannot express an order).
   */
  readonly nameservers: string[];
}

/**
 * The nameservers of a registered domain name: for a customer whose DNS is elsewhere
 * (Cloudflare, Route 53). The registration is adopted, never registered or renewed (that
 * charges the balance). Each apply writes the difference against what the registry
 * holds; a change made at the registry shows in the plan. Destroy (or removing the
 * construct) leaves the registration's nameservers as they are: the plan warns.
 *
 * ```ts
 * new DomainNameservers(stack, 'ns', { domain: 'example.com', nameservers: ['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'] });
 * ```
 */
export class DomainNameservers extends ManagedObject {
  /** The registered domain name (canonical when literal). */
  public readonly domain: string;

  constructor(scope: Construct, id: string, props: DomainNameserversProps) {
    super(scope, id, props);
    this.domain = canonDomain(props.domain);
    const raw: DomainNameserversSpec = { kind: 'domain-nameservers', path: this.node.path, domain: this.domain, nameservers: props.nameservers };
    const spec = canonical(raw, checkDomainNameservers);
    this.manage({ spec, claims: () => registrationClaim('domain-nameservers', this.domain, 'nameservers') }, (p) => p.definition(spec));
  }
}

/** The transfer lock of a registered domain name the account holds. */
export interface DomainTransferLockProps extends ManagedObjectProps {
  /** The registered domain name (one the account holds: adopted, never registered). */
  readonly domain: string;
  /**
   * Whether the transfer lock is on: a transfer to another registrar is refused. Set it
   * to false to move the domain away.
   * @default true
   */
  readonly locked?: boolean;
}

/**
 * The transfer lock of a registered domain name (`canTransfer`), read back at every plan:
 * unlocked at the registry, the plan shows it. Destroy leaves the lock as it is.
 *
 * ```ts
 * new DomainTransferLock(stack, 'lock', { domain: 'example.com' });   // locked
 * ```
 */
export class DomainTransferLock extends ManagedObject {
  /** The registered domain name (canonical when literal). */
  public readonly domain: string;

  constructor(scope: Construct, id: string, props: DomainTransferLockProps) {
    super(scope, id, props);
    this.domain = canonDomain(props.domain);
    const raw: DomainTransferLockSpec = { kind: 'domain-transfer-lock', path: this.node.path, domain: this.domain, locked: props.locked ?? true };
    const spec = canonical(raw, checkDomainTransferLock);
    this.manage({ spec, claims: () => registrationClaim('domain-transfer-lock', this.domain, 'transfer lock') }, (p) => p.definition(spec));
  }
}

/** The canonical spec when it is literal and valid (the nameservers sorted: a set), else as given (validation reports it). */
function canonical<S>(raw: S, check: (spec: S) => { spec: S; problems: readonly unknown[] }): S {
  if (containsToken(raw)) return raw;
  const checked = check(raw);
  return checked.problems.length ? raw : checked.spec;
}

/** One declaration per registration and kind in a stack. */
function registrationClaim(kind: string, domain: string, what: string) {
  if (typeof domain !== 'string' || containsToken(domain)) return [];
  return [{ key: `${kind}:${domain}`, field: 'domain', conflict: (first: string) => `the ${what} of "${domain}" are already declared by ${first} (declare them once)` }];
}

/** Props of {@link DataResellerDomain}. */
export interface DataResellerDomainProps {
  /** The registered domain name. */
  readonly name: string;
}

/**
 * `data "reseller_domain"`: one registered domain name, with its expiry, nameservers and
 * transfer lock. A name the account does not hold fails the plan, naming the closest.
 */
export class DataResellerDomain extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerDomainProps) {
    super(scope, id, 'reseller_domain', { ...props });
  }

  /** When the registration runs out (RFC 3339 UTC), or null when the API does not say. */
  public get expiryDate(): string {
    return this.getStringAttribute('expiry_date');
  }

  /** The nameservers, sorted. */
  public get nameservers(): string[] {
    return this.getListAttribute('nameservers');
  }

  /** Whether the transfer lock is on. */
  public get transferLocked(): IResolvable {
    return this.getBooleanAttribute('transfer_locked');
  }

  /** Whether a transfer to another registrar is under way. */
  public get pendingTransfer(): IResolvable {
    return this.getBooleanAttribute('pending_transfer');
  }
}

/**
 * `data "reseller_domains"`: every registered domain name of the account. Filter the
 * `domains` list with a Terraform expression, such as the registrations expiring within
 * 30 days (docs/data-sources/domains.md shows it).
 */
export class DataResellerDomains extends ResellerDataSource {
  constructor(scope: Construct, id: string) {
    super(scope, id, 'reseller_domains', {});
  }

  /** The names, sorted. */
  public get names(): string[] {
    return this.getListAttribute('names');
  }

  /** The list of registrations (objects with name, expiry_date, dead_date, has_privacy, pending_transfer, renewal_constraint, ...), for expressions. */
  public get domains(): IResolvable {
    return this.interpolationForAttribute('domains');
  }
}
