import { Construct } from 'constructs';
import type { IHostingPackage } from '../../../src';
import { ManagedObject, ManagedObjectProps } from '../../../src/constructs/managed-object';
import { declaredSecret } from '../../../src/constructs/private/secret';
import type { Kind, ObjectSpec } from '../../../src/protocol';
import type { LockerSpec } from './definition';

/** The construct of the contract suite's test-only kind (never shipped): a locker of a hosting package. */
export interface LockerProps extends ManagedObjectProps {
  /** The package the locker belongs to. */
  readonly package: IHostingPackage;
  /** Name of the locker (its key within the package). */
  readonly name: string;
  /** Label shown in the control panel. @default - left as it is */
  readonly label?: string;
  /** The passcode, from a sensitive and ephemeral variable. @default - none */
  readonly passcode?: string;
  /** Environment variable holding the passcode at apply time (carriers only). @default - none */
  readonly passcodeEnv?: string;
  /** Raise it to set the passcode again. @default 1 */
  readonly passcodeVersion?: number;
}

export class Locker extends ManagedObject {
  constructor(scope: Construct, id: string, props: LockerProps) {
    super(scope, id, props);
    const pkg = props.package;
    const secret = declaredSecret(this, 'locker' as Kind, props);
    const spec: LockerSpec = { kind: 'locker', path: this.node.path, packageDomain: pkg.domainName, name: props.name, label: props.label, ...secret.specFields };
    this.manage({
      spec: spec as unknown as ObjectSpec,
      parent: { field: 'package', what: 'package', referBy: 'HostingPackage.fromDomainName', construct: pkg, objectId: pkg.objectId, isAbsent: pkg.isAbsent ?? false },
      secret: secret.request,
      claims: () => [],
    }, (p) => {
      p.definition(spec as unknown as ObjectSpec);
      secret.validate(p);
    });
  }
}
