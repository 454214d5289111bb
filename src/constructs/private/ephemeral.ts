import { Construct } from 'constructs';
import { TerraformElement, TerraformStack } from './cdk';
import { logicalIdOf } from './engines/common';
import { providerBlockOf } from './engines/provider-block';

/**
 * One `ephemeral "reseller_*"` block of the native provider (Terraform >= 1.10), whatever
 * the stack's engine, like a data source. CDK Terrain has its own class for such blocks
 * and CDK for Terraform 0.21 has none, so this element writes the block itself: the
 * stack's synthesized JSON merges every element's `ephemeral` member, under both CDKs.
 * Values are referred to as `${ephemeral.<type>.<name>.<attribute>}` (no token), and
 * Terraform accepts them only where ephemeral values may go: provisioner and connection
 * blocks, write-only attributes, provider configuration, locals and other ephemeral
 * blocks. The block's name is the construct's id path below the stack, joined with `_`.
 */
export abstract class ResellerEphemeralResource extends TerraformElement {
  readonly #type: string;
  readonly #args: Record<string, unknown>;
  readonly #dependsOn?: readonly { readonly fqn: string }[];

  protected constructor(scope: Construct, id: string, type: string, args: Record<string, unknown>, dependsOn?: readonly { readonly fqn: string }[]) {
    super(scope, id, `ephemeral.${type}`);
    const stack = TerraformStack.of(this);
    this.overrideLogicalId(logicalIdOf(this, stack));
    providerBlockOf(stack);
    this.#type = type;
    this.#args = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
    this.#dependsOn = dependsOn;
  }

  /** `${ephemeral.<type>.<name>.<attribute>}`: a Terraform expression of one result (ephemeral). */
  public expression(attribute: string): string {
    return `\${ephemeral.${this.#type}.${this.friendlyUniqueId}.${attribute}}`;
  }

  public override toTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    const block: Record<string, unknown> = { ...this.#args, ...this.rawOverrides };
    if (this.#dependsOn?.length) block.depends_on = this.#dependsOn.map((d) => d.fqn);
    return { ephemeral: { [this.#type]: { [this.friendlyUniqueId]: block } } };
  }

  public override toHclTerraform(): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    throw new Error(`${this.node.path}: ephemeral ${this.#type} blocks are synthesized as JSON only (the default of cdktf/cdktn synth), not HCL`);
  }
}
