import {
  hashMapper, hashMapperHcl, stringToHclTerraform, stringToTerraform, TerraformMetaArguments, TerraformProvider, TerraformResource,
} from './cdk';
import { Construct } from 'constructs';
import { metaArgumentsOf } from './terraform-data';

/**
 * The hashicorp/null provider and its `null_resource`, with only what the constructs
 * use (`resourceType: 'null_resource'`). They replace the prebuilt
 * `@cdktf/provider-null` package, which is built on cdktf alone (its classes extend
 * cdktf's, so they cannot join a cdktn app) and would pull cdktf into every cdktn
 * project. Same synthesized JSON and HCL as that package's version 11 (which pins the
 * null provider to 3.2.4 in `required_providers`), so existing stacks plan no change.
 */
const GENERATOR_METADATA = { providerName: 'null', providerVersion: '3.2.4', providerVersionConstraint: '~> 3.0' };

/** The `provider "null"` block (and its `required_providers` entry). */
export class NullProvider extends TerraformProvider {
  public static readonly tfResourceType = 'null';

  constructor(scope: Construct, id: string) {
    super(scope, id, {
      terraformResourceType: 'null',
      terraformGeneratorMetadata: GENERATOR_METADATA,
      terraformProviderSource: 'null',
    });
  }
  // No attributes: the constructs never give it an alias (cdktf's base class synthesizes `{}`).
}

export interface NullResourceConfig extends TerraformMetaArguments {
  /** Stored in state; a change forces replacement (and re-runs create-time provisioners). */
  readonly triggers?: Record<string, string>;
}

/** A `null_resource` of the hashicorp/null provider. */
export class NullResource extends TerraformResource {
  public static readonly tfResourceType = 'null_resource';
  private readonly triggers?: Record<string, string>;

  constructor(scope: Construct, id: string, config: NullResourceConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'null_resource',
      terraformGeneratorMetadata: GENERATOR_METADATA,
      ...metaArgumentsOf(config),
    });
    this.triggers = config.triggers;
  }

  /** The resource's id (a random number chosen by the provider at create). */
  public get id(): string {
    return this.getStringAttribute('id');
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { triggers: hashMapper(stringToTerraform)(this.triggers) };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    return this.triggers === undefined
      ? {}
      : { triggers: { value: hashMapperHcl(stringToHclTerraform)(this.triggers), isBlock: false, type: 'map', storageClassType: 'stringMap' } };
  }
}
