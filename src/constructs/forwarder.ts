import { Construct } from 'constructs';
import { canonicalEmail, checkEmailAddress, ForwarderSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { canonEmail, literal } from './private/names';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/** A mail forwarder on a domain of a hosting package: mail to its local part goes to one remote address. */
export interface ForwarderProps extends ManagedObjectProps {
  /** The package the forwarder's domain belongs to (managed, or `HostingPackage.fromDomainName`). */
  readonly package: IHostingPackage;
  /** Local part that is forwarded; with the domain, the forwarder's natural key. */
  readonly localPart: string;
  /** Destination e-mail address; updated in place (the handler adds the new target, then removes the old). */
  readonly remote: string;
  /**
   * Domain of the forwarded address: the package's primary domain or one of its extra domains.
   * @default - the package's domainName
   */
  readonly domain?: string;
}

/** A managed mail forwarder. A mailbox and a forwarder may share a local part. */
export class Forwarder extends ManagedObject {
  /** Canonical local part. */
  public readonly localPart: string;
  /** Canonical domain of the forwarded address. */
  public readonly domain: string;
  /** Canonical destination address. */
  public readonly remote: string;

  constructor(scope: Construct, id: string, props: ForwarderProps) {
    super(scope, id, props);
    const address = new MailAddress('forwarder', props);
    this.localPart = address.localPart;
    this.domain = address.domain;
    this.remote = canonEmail(props.remote);

    const spec: ForwarderSpec = {
      kind: 'forwarder',
      path: this.node.path,
      packageDomain: address.packageDomain,
      domain: address.domain,
      localPart: address.localPart,
      remote: this.remote,
    };
    this.manage({
      spec,
      parent: address.parent,
      claims: () => address.claims(),
    }, (p) => {
      address.validate(p, this, spec);
      p.definition(spec, ['remote']);
      const own = address.address;
      const remote = literal(props.remote, (r) => (checkEmailAddress(r) ? '' : canonicalEmail(r).toLowerCase()));
      if (own && remote && own === remote) {
        p.field('remote', `"${props.remote}" is the forwarder's own address (a forwarding loop)`);
      }
    });
  }
}
