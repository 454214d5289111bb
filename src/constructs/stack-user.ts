import { Construct, IConstruct } from 'constructs';
import { StackUserSpec, userKey } from '../protocol';
import { canonEmail } from './private/names';
import { ManagedObject, ManagedObjectProps } from './managed-object';
import { containsToken } from './private/tokens';

/** A control-panel user (a `stack-user:N` of the account): customers sign in as one and see the packages linked to them. */
export interface StackUserProps extends ManagedObjectProps {
  /**
   * E-mail of the user's contact record: its natural key (case-insensitive), so changing
   * it replaces the user. An existing user with this e-mail is adopted, not duplicated.
   */
  readonly email: string;
  /**
   * Name of the person. Set when the user is created: the API has no operation to change
   * it later, so a difference is reported by `reseller-hosting drift`, never "updated".
   * @default - none
   */
  readonly personName?: string;
}

/**
 * A managed control-panel user. `HostingPackage.stackUser` and
 * `ManagedCloudServer.forUser` accept it: the package or server then waits for the user.
 */
export class StackUser extends ManagedObject {
  /** Whether `x` is a StackUser construct (also across copies of this library). */
  public static isStackUser(x: unknown): x is StackUser {
    return x !== null && typeof x === 'object' && STACK_USER in x;
  }

  /** E-mail of the contact record, canonical (domain lowercase, IDNA) when known at synth. */
  public readonly email: string;

  constructor(scope: Construct, id: string, props: StackUserProps) {
    super(scope, id, props);
    Object.defineProperty(this, STACK_USER, { value: true });
    this.email = canonEmail(props.email);
    const spec: StackUserSpec = { kind: 'stack-user', path: this.node.path, email: this.email, personName: props.personName };
    const key = typeof props.email === 'string' && !containsToken(props.email) ? userKey(props.email) : undefined;
    this.manage({
      spec,
      claims: () =>
        key
          ? [{ key: `stack-user:${key}`, field: 'email', conflict: (first) => `"${key}" is already declared by stack user ${first} (each e-mail may be declared once)` }]
          : [],
    }, (p) => {
      p.definition(spec);
    });
  }
}

const STACK_USER = Symbol.for('cdktf-reseller-hosting.StackUser');

/** A stack user, or a construct that may be one: for the props that accept either. */
export function stackUserConstruct(value: unknown): (IConstruct & StackUser) | undefined {
  return StackUser.isStackUser(value) ? value : undefined;
}
