import { anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl, TerraformMetaArguments, TerraformResource } from './cdk';
import { Construct } from 'constructs';

export interface TerraformDataConfig extends TerraformMetaArguments {
  /** Stored in state; a change forces replacement (and re-runs create-time provisioners). */
  readonly triggersReplace?: Record<string, string>;
}

/** The Terraform meta-arguments of a resource config (what every resource class passes on to cdktf). */
export function metaArgumentsOf(config: TerraformMetaArguments): TerraformMetaArguments {
  const { provider, dependsOn, count, lifecycle, provisioners, connection, forEach } = config;
  return { provider, dependsOn, count, lifecycle, provisioners, connection, forEach };
}

/**
 * Terraform's built-in `terraform_data` resource (Terraform >= 1.4, OpenTofu), with
 * only what the constructs use. cdktf's own `DataResource` adds a validation to every
 * instance that runs `terraform version` in a child process at synth: about 0.1 s
 * per resource (minutes for a large account) and a synth failure on machines without
 * a `terraform` binary (OpenTofu users, synth-only CI steps). Same synthesized JSON.
 */
export class TerraformData extends TerraformResource {
  public static readonly tfResourceType = 'terraform_data';
  private readonly triggersReplace?: Record<string, string>;

  constructor(scope: Construct, id: string, config: TerraformDataConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'terraform_data',
      terraformGeneratorMetadata: { providerName: 'terraform' },
      ...metaArgumentsOf(config),
    });
    this.triggersReplace = config.triggersReplace;
  }

  /** The resource's id (a random UUID chosen by Terraform at create). */
  public get id(): string {
    return this.getStringAttribute('id');
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { triggers_replace: hashMapper(anyToTerraform)(this.triggersReplace) };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    return {
      triggers_replace: {
        value: hashMapperHcl(anyToHclTerraform)(this.triggersReplace),
        isBlock: false,
        type: 'map',
        storageClassType: 'stringMap',
      },
    };
  }
}
