import { Construct } from 'constructs';
import { readsThrough, ResellerDataSource } from './data-source';
import { engineOf } from './engines';
import { registryOf } from './registry';
import type { TerraformResource } from './cdk';
import { addRules } from './validation';

/**
 * An existing object named by its natural key and not managed by the stack
 * (`HostingPackage.fromDomainName`, `ManagedCloudServer.fromHostName`): synthesizes
 * nothing of its own; children hang no identity on it.
 *
 * With the provider engine it is read through a data source, and objects on it refer
 * to its key through that read: a typo or a deleted parent fails `terraform plan`.
 * The provisioner carriers keep an unchecked name: they exist for users who cannot run
 * the provider plugin, so nothing can read at plan time, and the child's apply reports
 * a missing parent (by name) instead.
 */
export abstract class ObjectReference extends Construct {
  public readonly objectId = undefined;
  public readonly isAbsent = false;

  protected constructor(scope: Construct, id: string, field: string, key: string, check: (value: unknown) => string | undefined) {
    super(scope, id);
    addRules(this, (p) => p.check(field, key, check));
  }

  /**
   * With the provider engine: read the object at plan time (`read()`), and name its key
   * through the read. When the same stack also manages the object (its construct claims
   * `claim`), the reference is that resource: no read, and children follow its changes.
   */
  protected checkAtPlan(read: () => ResellerDataSource, keyAttribute: string, claim: string): void {
    if (engineOf(this) !== 'provider') return;
    readsThrough(this, read(), keyAttribute, () => {
      const managed = registryOf(this).firstOwner(claim)?.construct as { objectResource?: unknown } | undefined;
      return managed?.objectResource as TerraformResource | undefined;
    });
  }
}
