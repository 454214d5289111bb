import { Construct, IConstruct } from 'constructs';
import { snakeCase } from '../../protocol';
import { anyToHclTerraform, TerraformDataSource, TerraformResource, TerraformStack } from './cdk';
import { providerBlockOf } from './engines/provider-block';

/**
 * One `data "reseller_*"` block of the native provider (whatever the stack's engine:
 * a data source needs no provisioner, and the provider is placed with the stack at
 * synth like the provider engine's). Arguments are given camelCase and written
 * snake_case; undefined ones are left out.
 */
export abstract class ResellerDataSource extends TerraformDataSource {
  readonly #args: Record<string, unknown>;
  #later?: () => TerraformResource | undefined;

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
      value: anyToHclTerraform(value), isBlock: false, type: 'simple', storageClassType: typeof value === 'number' ? 'number' : 'string',
    }]));
  }

  /**
   * A resource this read waits for, known only once the whole stack is declared (the
   * same stack may also manage the object it reads): with pending changes there,
   * Terraform reads at apply, after them.
   */
  public dependsOnAtSynth(resource: () => TerraformResource | undefined): void {
    this.#later = resource;
  }

  public override toTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    this.#addLateDependency();
    return super.toTerraform();
  }

  public override toHclTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    this.#addLateDependency();
    return super.toHclTerraform();
  }

  #addLateDependency(): void {
    const resource = this.#later?.();
    // The plain address (`reseller_package.site`): depends_on takes a static reference.
    const address = resource && `${resource.terraformResourceType}.${resource.friendlyUniqueId}`;
    if (address && !(this.dependsOn ?? []).includes(address)) this.dependsOn = [...(this.dependsOn ?? []), address];
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

export function readsThrough(reference: IConstruct, expression: string): void {
  referenceReads.set(reference, expression);
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
