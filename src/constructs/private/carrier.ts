import { ITerraformDependable, LocalExecProvisioner, TerraformResource } from 'cdktf';
import { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { Construct } from 'constructs';
import type { CarrierResourceType } from './registry';
import { TerraformData } from './terraform-data';

/** One synthesized carrier resource (an object or settings resource), as plain data. */
export interface CarrierSpec {
  readonly host: Construct;
  /** The construct id a materialized resource gets under its host (`Object`, `Settings`). */
  readonly id: string;
  readonly type: CarrierResourceType;
  readonly logicalId: string;
  readonly triggers: Record<string, string>;
  readonly provisioners: LocalExecProvisioner[];
  readonly absent: boolean;
  readonly protect: boolean;
  /** Addresses (`terraform_data.x_settings`) this resource depends on. */
  readonly dependsOn?: string[];
}

/** What `dependsOn` of another cdktf resource needs: its Terraform address. */
export function dependableOf(spec: CarrierSpec): ITerraformDependable {
  return { fqn: `${spec.type}.${spec.logicalId}` };
}

/**
 * The resource's Terraform JSON body, as cdktf would write it for a TerraformResource
 * (including its `//` metadata); values may still hold tokens.
 */
export function carrierJson(spec: CarrierSpec): Record<string, unknown> {
  const body: Record<string, unknown> = {
    '//': { metadata: { path: `${spec.host.node.path}/${spec.id}`, uniqueId: spec.logicalId } },
    [spec.type === 'null_resource' ? 'triggers' : 'triggers_replace']: spec.triggers,
    provisioner: spec.provisioners.map(({ type, ...props }) => ({ [type]: props })),
  };
  if (spec.absent) body.count = 0;
  if (spec.protect) body.lifecycle = { prevent_destroy: true };
  if (spec.dependsOn) body.depends_on = spec.dependsOn;
  return body;
}

/**
 * The same resource as a cdktf TerraformResource, for HCL output (which only cdktf
 * renders). JSON output does not create these: see StackRegistry.
 */
export function materialize(spec: CarrierSpec): TerraformResource {
  const meta = {
    count: spec.absent ? 0 : undefined,
    lifecycle: spec.protect ? { preventDestroy: true } : undefined,
    provisioners: spec.provisioners,
  };
  const resource =
    spec.type === 'null_resource'
      ? new NullResource(spec.host, spec.id, { triggers: spec.triggers, ...meta })
      : new TerraformData(spec.host, spec.id, { triggersReplace: spec.triggers, ...meta });
  resource.overrideLogicalId(spec.logicalId);
  if (spec.dependsOn) resource.addOverride('depends_on', spec.dependsOn);
  return resource;
}
