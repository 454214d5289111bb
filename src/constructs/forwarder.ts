import { ITerraformDependable } from './private/cdk';
import { Construct } from 'constructs';
import { canonicalEmail, checkEmailAddress, ForwarderSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { canonEmail, literal } from './private/names';
import { RemoteObject } from './private/remote-object';
import { addRules } from './private/validation';

/** A mail forwarder on a domain of a hosting package (spec 4.4). */
export interface ForwarderProps {
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
  /**
   * Declare the forwarder absent: it synthesizes with `count = 0`, so Terraform
   * destroys it and the handler deletes it remotely.
   * @default false
   */
  readonly absent?: boolean;
  /**
   * Terraform `prevent_destroy` on the forwarder's object resource.
   * @default false
   */
  readonly protect?: boolean;
}

/** A managed mail forwarder. A mailbox and a forwarder may share a local part. */
export class Forwarder extends Construct {
  /** Canonical local part. */
  public readonly localPart: string;
  /** Canonical domain of the forwarded address. */
  public readonly domain: string;
  /** Canonical destination address. */
  public readonly remote: string;
  /**
   * Terraform id expression of the object resource (`${terraform_data.<logicalId>.id}`).
   * Do not reference it from other resources while the construct is absent (count = 0).
   */
  public readonly objectId: string;
  /** True when declared `absent: true` (all its resources have count = 0). */
  public readonly isAbsent: boolean;
  /** The object resource (identity triggers; its destroy-time provisioner deletes the object), for `dependsOn`. */
  public readonly objectResource: ITerraformDependable;
  /**
   * The settings resource (remote trigger): its create-time provisioner runs `handler ensure`,
   * which creates, adopts or updates the object. Depend on it to run after the object exists.
   */
  public readonly settingsResource: ITerraformDependable;
  /** Logical id of the object resource in the synthesized stack. */
  public readonly logicalId: string;

  constructor(scope: Construct, id: string, props: ForwarderProps) {
    super(scope, id);
    const address = new MailAddress('forwarder', props);
    this.localPart = address.localPart;
    this.domain = address.domain;
    this.remote = canonEmail(props.remote);
    this.isAbsent = props.absent ?? false;

    const spec: ForwarderSpec = {
      kind: 'forwarder',
      path: this.node.path,
      packageDomain: address.packageDomain,
      domain: address.domain,
      localPart: address.localPart,
      remote: this.remote,
    };
    const wiring = new RemoteObject(this, {
      spec,
      parent: address.parent,
      absent: this.isAbsent,
      protect: props.protect ?? false,
      claims: () => address.claims(),
    });
    this.objectResource = wiring.objectResource;
    this.settingsResource = wiring.settingsResource;
    this.objectId = wiring.objectId;
    this.logicalId = wiring.logicalId;

    addRules(this, (p) => {
      address.validate(p, this);
      p.check('remote', props.remote, checkEmailAddress);
      const own = address.address;
      const remote = literal(props.remote, (r) => (checkEmailAddress(r) ? '' : canonicalEmail(r).toLowerCase()));
      if (own && remote && own === remote) {
        p.field('remote', `"${props.remote}" is the forwarder's own address (a forwarding loop)`);
      }
      wiring.validate(p);
    });
  }
}
