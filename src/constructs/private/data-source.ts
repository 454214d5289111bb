import { Construct, IConstruct } from 'constructs';
import { snakeCase } from '../../protocol';
import { anyToHclTerraform, Lazy, TerraformDataSource, TerraformResource, TerraformStack } from './cdk';
import { providerBlockOf } from './engines/provider-block';

/**
 * One `data "reseller_*"` block of the native provider (whatever the stack's engine:
 * a data source needs no provisioner, and the provider is placed with the stack at
 * synth like the provider engine's). Arguments are given camelCase and written
 * snake_case; undefined ones are left out.
 */
export abstract class ResellerDataSource extends TerraformDataSource {
  readonly #args: Record<string, unknown>;
  #managed?: () => TerraformResource | undefined;

  protected constructor(scope: Construct, id: string, type: string, args: Record<string, unknown>) {
    super(scope, id, { terraformResourceType: type, terraformGeneratorMetadata: { providerName: 'reseller' } });
    providerBlockOf(TerraformStack.of(this));
    this.#args = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined).map(([k, v]) => [snakeCase(k), v]));
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return this.#args;
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.#args).map(([name, value]) => [name, {
      value: anyToHclTerraform(value), isBlock: false, type: 'simple', storageClassType: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string',
    }]));
  }

  /**
   * The same stack may also manage the object this read names (known only once the
   * whole stack is declared): the read is then left out (`count = 0`), and what refers
   * to it refers to that resource instead (referenceReadOf), whose changes it follows.
   */
  public skipWhenManaged(resource: () => TerraformResource | undefined): void {
    this.#managed = resource;
  }

  public override toTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (this.#managed?.()) this.count = 0;
    return super.toTerraform();
  }

  public override toHclTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (this.#managed?.()) this.count = 0;
    return super.toHclTerraform();
  }

  /** `${data.<type>.<id>.<attribute>}`: a Terraform expression of one result. */
  public expression(attribute: string): string {
    return `\${${this.fqn}.${attribute}}`;
  }
}

/**
 * The data source that checks an unmanaged reference (`HostingPackage.fromDomainName`
 * with the provider engine): objects that name the reference refer to its key through
 * it, so a missing parent fails the plan, before anything is applied.
 */
const referenceReads = new WeakMap<IConstruct, string>();

export function readsThrough(reference: IConstruct, read: ResellerDataSource, keyAttribute: string, managed: () => TerraformResource | undefined): void {
  read.skipWhenManaged(managed);
  // Resolved at synth, when the whole stack is declared: the managed resource's key, else the read's.
  referenceReads.set(reference, Lazy.stringValue({
    produce: () => {
      const resource = managed();
      return resource ? `\${${resource.terraformResourceType}.${resource.friendlyUniqueId}.${keyAttribute}}` : read.expression(keyAttribute);
    },
  }));
}

/** The key expression of a reference read through a data source, if it is one. */
export function referenceReadOf(construct: IConstruct): string | undefined {
  return referenceReads.get(construct);
}

/** Exactly one of these props must be given (a singular data source's look-up keys). */
export function requireOneOf(scope: Construct, id: string, props: object, keys: readonly string[]): void {
  const given = keys.filter((k) => (props as Record<string, unknown>)[k] !== undefined);
  if (given.length !== 1) {
    throw new Error(`${scope.node.path}/${id}: give exactly one of ${keys.join(', ')}${given.length ? ` (given: ${given.join(', ')})` : ''}`);
  }
}
