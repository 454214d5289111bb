import { IResolvable } from './private/cdk';
import { Construct } from 'constructs';
import type { MailboxSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { ManagedObject, ManagedObjectProps } from './managed-object';
import { declaredSecret } from './private/secret';
import { checkBoolean } from './private/validation';

/** A mailbox on a domain of a hosting package. */
export interface MailboxProps extends ManagedObjectProps {
  /** The package the mailbox's domain belongs to (managed, or `HostingPackage.fromDomainName`). */
  readonly package: IHostingPackage;
  /** Local part of the address (before the `@`); with the domain, the mailbox's natural key. */
  readonly localPart: string;
  /**
   * Domain of the address: the package's primary domain or one of its extra domains.
   * @default - the package's domainName
   */
  readonly domain?: string;
  /**
   * The password, usually the value of a sensitive and ephemeral `TerraformVariable`.
   * With the provider it is the write-only attribute `password_wo` (never in state or
   * plan); with the carriers it reaches the handler only through the provisioner
   * environment. A literal string gets a synth warning. Set it again by bumping
   * `passwordVersion`.
   * @default - none (see passwordEnv)
   */
  readonly password?: string;
  /**
   * Name of an environment variable that holds the password when `terraform apply`
   * runs (instead of `password`). Carriers only: the provider takes `password`.
   * @default - none
   */
  readonly passwordEnv?: string;
  /**
   * Version of the password: bumping it sets the password again (rotation). Only the
   * version is in the plan, never the password.
   * @default 1
   */
  readonly passwordVersion?: number;
  /**
   * Whether the mailbox may send; updated in place.
   * @default true
   */
  readonly send?: boolean | IResolvable;
  /**
   * Whether the mailbox may receive; updated in place.
   * @default true
   */
  readonly receive?: boolean | IResolvable;
}

/** A managed mailbox. */
export class Mailbox extends ManagedObject {
  /** Canonical local part. */
  public readonly localPart: string;
  /** Canonical domain of the address. */
  public readonly domain: string;

  constructor(scope: Construct, id: string, props: MailboxProps) {
    super(scope, id, props);
    const address = new MailAddress('mailbox', props);
    this.localPart = address.localPart;
    this.domain = address.domain;
    const secret = declaredSecret(this, 'mailbox', props);

    const spec: MailboxSpec = {
      kind: 'mailbox',
      path: this.node.path,
      packageDomain: address.packageDomain,
      domain: address.domain,
      localPart: address.localPart,
      send: (props.send ?? true) as boolean,
      receive: (props.receive ?? true) as boolean,
      ...secret.specFields,
    };
    this.manage({
      spec,
      parent: address.parent,
      secret: secret.request,
      claims: () => address.claims(),
    }, (p) => {
      address.validate(p, this, spec);
      secret.validate(p);
      p.check('send', props.send, checkBoolean);
      p.check('receive', props.receive, checkBoolean);
    });
  }
}
