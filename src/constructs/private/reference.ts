import { Construct } from 'constructs';
import { addRules } from './validation';

/**
 * An existing object named by its natural key and not managed by the stack
 * (`HostingPackage.fromDomainName`, `ManagedCloudServer.fromHostName`): synthesizes
 * nothing; children hang no identity on it.
 */
export abstract class ObjectReference extends Construct {
  public readonly objectId = undefined;
  public readonly isAbsent = false;

  protected constructor(scope: Construct, id: string, field: string, key: string, check: (value: unknown) => string | undefined) {
    super(scope, id);
    addRules(this, (p) => p.check(field, key, check));
  }
}
