import { ITerraformDependable } from './private/cdk';
import { Construct } from 'constructs';
import { ObjectRequest, SynthesizedObject, synthesizerFor } from './private/engines';
import { addRules, checkBoolean, Problems } from './private/validation';

/** The fields every managed construct takes. */
export interface ManagedObjectProps {
  /**
   * Declare the object absent: its resources synthesize with `count = 0`, so Terraform
   * deletes it (cloud servers: the API cannot cancel them; a warning says so). With the
   * provider, removing the construct does the same; with the carriers, deploy once with
   * `absent: true` before removing the construct from the code.
   * @default false
   */
  readonly absent?: boolean;
  /**
   * Terraform `prevent_destroy` on the object's resource.
   * @default false
   */
  readonly protect?: boolean;
}

/**
 * What every managed construct shares: the object's Terraform resources, made by the
 * stack's engine (ResellerHosting `engine`), the shared fields `absent` and `protect`,
 * and their rules. A subclass builds its spec and calls `manage()` once, in its constructor.
 */
export abstract class ManagedObject extends Construct {
  /** True when declared `absent: true` (all its resources have count = 0). */
  public readonly isAbsent: boolean;
  private synthesized?: SynthesizedObject;

  protected constructor(scope: Construct, id: string, private readonly shared: ManagedObjectProps) {
    super(scope, id);
    this.isAbsent = shared.absent ?? false;
  }

  /**
   * Terraform id expression of the object resource (`${reseller_package.<logicalId>.id}`,
   * the natural key, with the provider; `${terraform_data.<logicalId>.id}` with the carriers).
   * Do not reference it from other resources while the construct is absent (count = 0).
   */
  public get objectId(): string {
    return this.object.objectId;
  }

  /** The object resource (identity; deleting it deletes the object), for `dependsOn`. */
  public get objectResource(): ITerraformDependable {
    return this.object.objectResource;
  }

  /**
   * The resource whose creation means the object is as declared: the provider's resource
   * itself, or the carriers' settings resource (whose create-time provisioner runs
   * `handler ensure`). Depend on it to run after the object exists.
   */
  public get settingsResource(): ITerraformDependable {
    return this.object.settingsResource;
  }

  /** Logical id of the object resource in the synthesized stack. */
  public get logicalId(): string {
    return this.object.logicalId;
  }

  /**
   * Synthesizes the object with the stack's engine and adds the construct's rules
   * (`rules` first, then the shared fields' and the engine's).
   */
  protected manage(request: Omit<ObjectRequest, 'absent' | 'protect'>, rules: (problems: Problems) => void): void {
    if (this.synthesized) throw new Error(`${this.node.path}: manage() may be called once`);
    const object = synthesizerFor(this).synthesize(this, { ...request, absent: this.isAbsent, protect: this.shared.protect ?? false });
    this.synthesized = object;
    addRules(this, (p) => {
      rules(p);
      p.check('absent', this.shared.absent, checkBoolean);
      p.check('protect', this.shared.protect, checkBoolean);
      object.validate(p);
    });
  }

  private get object(): SynthesizedObject {
    if (!this.synthesized) throw new Error(`${this.node.path}: the object is not synthesized yet (manage() not called)`);
    return this.synthesized;
  }
}
