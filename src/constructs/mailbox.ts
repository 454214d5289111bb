import { Annotations, IResolvable } from './private/cdk';
import { Construct } from 'constructs';
import { ENV, MailboxSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { ENV_NAME } from './private/names';
import { ManagedObject, ManagedObjectProps } from './managed-object';
import { isToken } from './private/tokens';
import { checkBoolean, checkPositiveInteger, describe } from './private/validation';

/** A mailbox on a domain of a hosting package (spec 4.4). */
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

/** Environment variable names the handler reads itself: never a password source. */
const RESERVED_ENV: readonly string[] = Object.values(ENV);

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
    const hasPassword = props.password !== undefined || props.passwordEnv !== undefined;
    const passwordVersion = props.passwordVersion ?? 1;

    const spec: MailboxSpec = {
      kind: 'mailbox',
      path: this.node.path,
      packageDomain: address.packageDomain,
      domain: address.domain,
      localPart: address.localPart,
      send: (props.send ?? true) as boolean,
      receive: (props.receive ?? true) as boolean,
      passwordVersion: hasPassword ? passwordVersion : undefined,
      passwordEnv: props.passwordEnv,
    };
    this.manage({
      spec,
      parent: address.parent,
      password: hasPassword ? { value: props.password, version: passwordVersion } : undefined,
      claims: () => address.claims(),
    }, (p) => {
      address.validate(p, this, spec);
      if (props.password !== undefined && props.passwordEnv !== undefined) {
        p.field('password', 'and passwordEnv must not both be set: give the password one way');
      }
      if (props.password !== undefined && !isToken(props.password)) {
        // Never echo the value: it is a secret.
        if (typeof props.password !== 'string') p.field('password', 'must be a string');
        else if (props.password === '') p.field('password', 'must not be empty');
      }
      p.check('passwordEnv', props.passwordEnv, (v) => {
        if (v === undefined) return undefined;
        if (typeof v !== 'string' || !ENV_NAME.test(v)) return `${describe(v)} is not a valid environment variable name (letters, digits, "_", not starting with a digit)`;
        if (RESERVED_ENV.includes(v)) return `"${v}" is reserved for the handler's own settings; use a dedicated variable`;
        return undefined;
      });
      p.check('passwordVersion', passwordVersion, checkPositiveInteger);
      p.check('send', props.send, checkBoolean);
      p.check('receive', props.receive, checkBoolean);
    });

    if (typeof props.password === 'string' && !isToken(props.password)) {
      Annotations.of(this).addWarning(
        `${this.node.path}: password is a literal string in the code, so it is stored in the synthesized cdk.tf.json; ` +
          'use the value of a sensitive TerraformVariable (or passwordEnv) instead',
      );
    }
    if (props.passwordVersion !== undefined && !hasPassword) {
      Annotations.of(this).addWarning(`${this.node.path}: passwordVersion has no effect without password or passwordEnv`);
    }
  }
}
