import { TerraformStack } from './cdk';
import { IConstruct } from 'constructs';
import { AutoresponderSpec, canonicalDomain, canonicalLocalPart, checkDomainName, checkLocalPart, ForwarderSpec, Kind, MailboxSpec } from '../../protocol';
import type { IHostingPackage } from '../hosting-package';
import { canonDomain, canonLocalPart, literal } from './names';
import { Claim } from './registry';
import type { ParentLink } from './engines/engine';
import { containsToken } from './tokens';
import { Problems } from './validation';

/** What mailboxes, forwarders and autoresponders have in common: an address on a package's domain. */
export interface MailAddressProps {
  readonly package: IHostingPackage;
  readonly localPart: string;
  readonly domain?: string;
}

export class MailAddress {
  /** Canonical local part (as given when a token). */
  public readonly localPart: string;
  /** Canonical domain: the given one or the package's primary domain. */
  public readonly domain: string;
  public readonly packageDomain: string;
  public readonly parent: ParentLink;

  constructor(
    private readonly kind: Extract<Kind, 'mailbox' | 'forwarder' | 'autoresponder'>,
    private readonly props: MailAddressProps,
  ) {
    const pkg = props.package;
    this.localPart = canonLocalPart(props.localPart);
    this.domain = canonDomain(props.domain ?? pkg?.domainName);
    this.packageDomain = pkg?.domainName;
    this.parent = { field: 'package', what: 'package', referBy: 'HostingPackage.fromDomainName', construct: pkg, objectId: pkg?.objectId, isAbsent: pkg?.isAbsent ?? false };
  }

  /** `local@domain` when both parts are literal and valid, else undefined. */
  public get address(): string | undefined {
    const local = literal(this.props.localPart, canonicalLocalPart);
    const domain = literal(this.props.domain ?? this.props.package?.domainName, canonicalDomain);
    if (!local || !domain || checkLocalPart(local) || checkDomainName(domain)) return undefined;
    return `${local}@${domain}`;
  }

  public claims(): Claim[] {
    const address = this.address;
    if (!address) return [];
    return [
      {
        key: `${this.kind}:${address}`,
        field: 'localPart',
        conflict: (first) => `"${address}" is already declared by ${this.kind} ${first} (each ${this.kind} address may be declared once per stack)`,
      },
    ];
  }

  public validate(p: Problems, self: IConstruct, spec: MailboxSpec | ForwarderSpec | AutoresponderSpec): void {
    const pkg = this.props.package;
    if (!pkg || typeof pkg !== 'object' || !('domainName' in pkg)) {
      p.field('package', 'must be a HostingPackage or HostingPackage.fromDomainName(...)');
      return;
    }
    p.definition(spec, ['localPart']);
    if (this.props.domain !== undefined) p.check('domain', this.props.domain, checkDomainName);
    const domain = this.domain;
    const domains = pkg.domainNames;
    if (
      domains &&
      !containsToken(domains) &&
      !containsToken(domain) &&
      !checkDomainName(domain) &&
      !domains.includes(domain) &&
      TerraformStack.of(pkg) === TerraformStack.of(self)
    ) {
      p.field('domain', `"${domain}" is not a domain of package ${pkg.node.path} (${domains.join(', ')})`);
    }
  }
}
