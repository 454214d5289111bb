import { Annotations, IResolvable, ITerraformDependable } from './private/cdk';
import { Construct } from 'constructs';
import { ENV, MailboxSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { ENV_NAME } from './private/names';
import { RemoteObject } from './private/remote-object';
import { isToken } from './private/tokens';
import { addRules, checkBoolean, checkPositiveInteger, describe } from './private/validation';

/** A mailbox on a domain of a hosting package (spec 4.4). */
export interface MailboxProps {
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
   * The password, usually a sensitive `TerraformVariable`'s value. It reaches the
   * handler only through the provisioner environment (never triggers or state). A
   * literal string gets a synth warning. Set it again by bumping `passwordVersion`.
   * @default - none (see passwordEnv)
   */
  readonly password?: string;
  /**
   * Name of an environment variable that holds the password when `terraform apply`
   * runs (instead of `password`).
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
  /**
   * Declare the mailbox absent: it synthesizes with `count = 0`, so Terraform destroys
   * it and the handler deletes it remotely.
   * @default false
   */
  readonly absent?: boolean;
  /**
   * Terraform `prevent_destroy` on the mailbox's object resource.
   * @default false
   */
  readonly protect?: boolean;
}

/** Environment variable names the handler reads itself: never a password source. */
const RESERVED_ENV: readonly string[] = Object.values(ENV);

/** A managed mailbox. */
export class Mailbox extends Construct {
  /** Canonical local part. */
  public readonly localPart: string;
  /** Canonical domain of the address. */
  public readonly domain: string;
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
   * The settings resource (send/receive and password version triggers): its create-time provisioner runs `handler ensure`,
   * which creates, adopts or updates the object. Depend on it to run after the object exists.
   */
  public readonly settingsResource: ITerraformDependable;
  /** Logical id of the object resource in the synthesized stack. */
  public readonly logicalId: string;

  constructor(scope: Construct, id: string, props: MailboxProps) {
    super(scope, id);
    const address = new MailAddress('mailbox', props);
    this.localPart = address.localPart;
    this.domain = address.domain;
    this.isAbsent = props.absent ?? false;
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
    const wiring = new RemoteObject(this, {
      spec,
      parent: address.parent,
      absent: this.isAbsent,
      protect: props.protect ?? false,
      password: hasPassword ? { value: props.password, version: passwordVersion } : undefined,
      claims: () => address.claims(),
    });
    this.objectResource = wiring.objectResource;
    this.settingsResource = wiring.settingsResource;
    this.objectId = wiring.objectId;
    this.logicalId = wiring.logicalId;

    if (typeof props.password === 'string' && !isToken(props.password)) {
      Annotations.of(this).addWarning(
        `${this.node.path}: password is a literal string in the code, so it is stored in the synthesized cdk.tf.json; ` +
          'use the value of a sensitive TerraformVariable (or passwordEnv) instead',
      );
    }
    if (props.passwordVersion !== undefined && !hasPassword) {
      Annotations.of(this).addWarning(`${this.node.path}: passwordVersion has no effect without password or passwordEnv`);
    }

    addRules(this, (p) => {
      address.validate(p, this);
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
      wiring.validate(p);
    });
  }
}
