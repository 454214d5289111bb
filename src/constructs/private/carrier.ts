import {
  DefaultTokenResolver,
  ITerraformDependable,
  LocalExecProvisioner,
  StringConcat,
  TerraformElement,
  TerraformResource,
  TerraformStack,
  Token,
  Tokenization,
} from './cdk';
import { NullResource } from './null-provider';
import { Construct, IConstruct } from 'constructs';
import { TerraformData } from './terraform-data';

/** The Terraform resource type that carries each remote object. */
export type CarrierResourceType = 'terraform_data' | 'null_resource';

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
function materialize(spec: CarrierSpec): TerraformResource {
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

/**
 * The carrier resources of one stack. They are written into the stack's Terraform
 * JSON after cdktf has resolved it, instead of being cdktf TerraformResources. cdktf
 * resolves every value of every element three times over (prepare, element, whole
 * document), and each construct's two resources with their provisioners are ~25
 * values: for 1,000 constructs that was most of a 3 s synth (BENCHMARKS.md). Only the
 * values that hold tokens (a password variable, a label from a variable) are
 * resolved, with cdktf's own resolver, and they are prepared with the rest of the
 * stack so cross-stack references work. `stack.toTerraform()` is what `app.synth()`,
 * `cdktf synth` and `Testing.synth` write. HCL output is rendered by cdktf only: there
 * the carriers become real TerraformResources first.
 */
export class StackCarriers {
  private readonly specs: CarrierSpec[] = [];
  private materialized = false;

  constructor(private readonly stack: TerraformStack) {
    const toTerraform = stack.toTerraform.bind(stack);
    const toHclTerraform = stack.toHclTerraform.bind(stack);
    stack.toTerraform = () => this.write(toTerraform());
    stack.toHclTerraform = () => {
      this.materialize();
      return toHclTerraform();
    };
    new TokenPreparation(stack, 'ResellerHostingTokens', () => this.tokenValues());
  }

  /** Declares a carrier resource of this stack; returns what `dependsOn` needs. */
  public add(spec: CarrierSpec): ITerraformDependable {
    this.specs.push(spec);
    return { fqn: `${spec.type}.${spec.logicalId}` };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private write(tf: any): any {
    if (this.materialized) return tf;
    const resources = (tf.resource ??= {});
    for (const spec of this.attached()) {
      const byName = (resources[spec.type] ??= {});
      const body = mapStrings(carrierJson(spec), (s) => (Token.isUnresolved(s) ? resolveToken(this.stack, s, false) : s));
      byName[spec.logicalId] = byName[spec.logicalId] === undefined ? body : mergeUnder(byName[spec.logicalId], body);
    }
    return tf;
  }

  private materialize(): void {
    if (this.materialized) return;
    this.materialized = true;
    for (const spec of this.attached()) materialize(spec);
  }

  /**
   * The carriers whose construct is still in the tree: one removed with
   * `node.tryRemoveChild` (by an aspect, or a test) synthesizes nothing, as a cdktf
   * resource would not.
   */
  private attached(): CarrierSpec[] {
    const known = new Map<IConstruct, boolean>();
    const isAttached = (c: IConstruct): boolean => {
      let attached = known.get(c);
      if (attached === undefined) {
        const parent = c.node.scope;
        attached = c === this.stack || (parent !== undefined && parent.node.tryFindChild(c.node.id) === c && isAttached(parent));
        known.set(c, attached);
      }
      return attached;
    };
    return this.specs.filter((spec) => isAttached(spec.host));
  }

  private tokenValues(): string[] {
    const found: string[] = [];
    if (!this.materialized) {
      for (const spec of this.attached()) {
        mapStrings([spec.triggers, spec.provisioners], (s) => (Token.isUnresolved(s) ? (found.push(s), s) : s));
      }
    }
    return found;
  }
}

const TOKEN_RESOLVER = new DefaultTokenResolver(new StringConcat());

function resolveToken(scope: IConstruct, value: unknown, preparing: boolean): unknown {
  return Tokenization.resolve(value, { scope, preparing, resolver: TOKEN_RESOLVER });
}

/** A copy of `value` with every string replaced by `f(string)`. */
function mapStrings<T>(value: T, f: (s: string) => unknown): T {
  if (typeof value === 'string') return f(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, f);
    return out as T;
  }
  return value;
}

/** `ours` merged into `theirs` without overwriting anything there (a user's `addOverride`). */
function mergeUnder(theirs: unknown, ours: unknown): unknown {
  if (!isPlainObject(theirs) || !isPlainObject(ours)) return theirs;
  const out: Record<string, unknown> = { ...ours };
  for (const [k, v] of Object.entries(theirs)) out[k] = k in ours ? mergeUnder(v, ours[k]) : v;
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Takes part in cdktf's preparing pass (which registers cross-stack references) with
 * the carriers' token values; writes nothing itself.
 */
class TokenPreparation extends TerraformElement {
  constructor(
    scope: TerraformStack,
    id: string,
    private readonly values: () => string[],
  ) {
    super(scope, id);
  }

  public override toTerraform(): Record<string, unknown> {
    resolveToken(this, this.values(), true);
    return {};
  }

  public override toHclTerraform(): Record<string, unknown> {
    return {};
  }
}
