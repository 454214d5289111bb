import { ITerraformDependable } from '../cdk';
import { Construct, IConstruct } from 'constructs';
import type { ObjectSpec } from '../../../protocol';
import type { Claim } from '../registry';
import type { Problems } from '../validation';

/**
 * How a construct becomes Terraform: the native provider's resource, or a
 * provisioner carrier (`terraform_data`, `null_resource`). Chosen once per stack by
 * ResellerHosting's `engine`; each engine is one small synthesizer (this folder).
 */
export type Engine = 'provider' | 'terraform_data' | 'null_resource';

export const ENGINES: readonly Engine[] = ['provider', 'terraform_data', 'null_resource'];

/** The engine of a stack without a ResellerHosting, or whose ResellerHosting names none. */
export const DEFAULT_ENGINE: Engine = 'provider';

/** The managed parent of an object: a mail object's package, a package's cloud server. */
export interface ParentLink {
  /** The prop that names the parent, for messages (`package`, `cloudServer`). */
  readonly field: string;
  /** What the parent is, for messages (`package`, `cloud server`). */
  readonly what: string;
  /** How another stack refers to the parent, for messages (`HostingPackage.fromDomainName`). */
  readonly referBy: string;
  readonly construct: IConstruct;
  /** Terraform id expression of the parent's object resource; undefined when unmanaged. */
  readonly objectId?: string;
  readonly isAbsent: boolean;
}

/** Everything an engine needs to synthesize one managed object. */
export interface ObjectRequest {
  /** The full desired state (names canonical unless tokens). */
  readonly spec: ObjectSpec;
  readonly parent?: ParentLink;
  readonly absent: boolean;
  readonly protect: boolean;
  /** Set for an object whose kind has a secret (its definition's secret facet) when one is declared (a value, or a variable's name). */
  readonly secret?: { readonly value?: string; readonly version: number };
  /** The natural keys this object claims in its stack (canonical, literal values only). */
  readonly claims: () => Claim[];
  /**
   * Managed objects this one refers to without being their child (a package's stack
   * user): ensured before it, deleted after it. `field` names the prop in messages.
   */
  readonly after?: readonly { readonly field: string; readonly construct: IConstruct & { readonly isAbsent: boolean } }[];
}

/** What an engine made of one object. */
export interface SynthesizedObject {
  /** Logical id of the object's (main) resource. */
  readonly logicalId: string;
  /** Terraform id expression of the object's resource (children hang their identity on it). */
  readonly objectId: string;
  /** The resource holding the object's identity. */
  readonly objectResource: ITerraformDependable;
  /** The resource that, once created, means the object is as declared (the carriers' settings resource). */
  readonly settingsResource: ITerraformDependable;
  /** The engine's own rules (resource names, handler path, parent in another stack...). */
  validate(problems: Problems): void;
}

/** One engine: turns a construct's request into Terraform resources of its stack. */
export interface EngineSynthesizer {
  synthesize(host: Construct, request: ObjectRequest): SynthesizedObject;
}
