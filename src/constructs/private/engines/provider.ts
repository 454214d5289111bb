import { Construct, IConstruct } from 'constructs';
import { AnyKindDefinition, attributeFieldsOf, definitionOf, FieldDefinition, FieldType, valuesOfSpec } from '../../../protocol';
import { anyToHclTerraform, ITerraformDependable, TerraformResource, TerraformStack } from '../cdk';
import { referenceReadOf } from '../data-source';
import { Claim, registryOf, StackRegistry } from '../registry';
import { containsToken } from '../tokens';
import { Problems } from '../validation';
import { logicalIdOf, validateCommon } from './common';
import type { EngineSynthesizer, ObjectRequest, SynthesizedObject } from './engine';
import { providerBlockOf } from './provider-block';

/** The resources of each managed construct of this engine, for the objects that refer to it. */
const synthesized = new WeakMap<IConstruct, ProviderObject>();

/**
 * The native provider engine (DESIGN §2.1): one `reseller_<kind>` resource per
 * construct, whose attributes are the kind definition's (src/protocol/kinds), so the
 * constructs and the provider's schema can never disagree on a name. The provider reads
 * the object back at every plan: drift shows in `terraform plan`, and removing the
 * construct deletes the object. The stack gets the provider's requirement and block
 * (provider-block.ts), and its directory the provider itself at synth.
 */
export const providerSynthesizer: EngineSynthesizer = {
  synthesize: (host, request) => new ProviderObject(host, request),
};

class ProviderObject implements SynthesizedObject {
  public readonly logicalId: string;
  public readonly objectId: string;
  public readonly objectResource: ITerraformDependable;
  public readonly settingsResource: ITerraformDependable;
  /** `reseller_package.shop`: what other resources refer to. */
  public readonly address: string;
  private readonly registry: StackRegistry;
  private readonly stack: TerraformStack;
  private readonly type: string;

  constructor(
    private readonly host: Construct,
    private readonly request: ObjectRequest,
  ) {
    this.registry = registryOf(host);
    this.stack = this.registry.stack;
    this.logicalId = logicalIdOf(host, this.stack);
    const definition = definitionOf(request.spec.kind);
    this.type = definition.resourceType;
    this.address = `${this.type}.${this.logicalId}`;
    this.objectId = `\${${this.address}.id}`;
    providerBlockOf(this.stack); // the stack's provider requirement, block and plugin

    const resource = new ResellerResource(host, 'Resource', {
      type: this.type,
      attributes: this.attributes(definition),
      types: Object.fromEntries(definition.fields.map((f) => [f.attribute, f.type])),
      count: request.absent ? 0 : undefined,
      lifecycle: this.lifecycle(),
    });
    resource.overrideLogicalId(this.logicalId);
    this.objectResource = resource;
    this.settingsResource = resource;

    synthesized.set(host, this);
    this.registry.register({ construct: host, claims: () => [...request.claims(), this.logicalIdClaim()] });
  }

  public validate(problems: Problems): void {
    validateCommon(problems, {
      host: this.host, stack: this.stack, logicalId: this.logicalId, request: this.request, registry: this.registry, engineClaims: [this.logicalIdClaim()],
    });
    const def = definitionOf(this.request.spec.kind);
    const facet = def.secret;
    if (facet && (this.request.spec as Record<string, unknown>)[facet.envField] !== undefined) {
      const attribute = def.fields.find((f) => f.name === facet.field)?.attribute;
      problems.field(
        facet.envField,
        `is for the provisioner carriers only: with engine 'provider' the ${facet.words} is the write-only attribute ${attribute}; ` +
          `give it as ${facet.field} (the value of a sensitive, ephemeral TerraformVariable)`,
      );
    }
  }

  /**
   * The resource's attributes: one per field the provider knows, in the protocol's
   * attribute codec (tokens pass as they are), parents and users as Terraform references.
   */
  private attributes(def: AnyKindDefinition): Record<string, unknown> {
    const { spec, secret } = this.request;
    const values = valuesOfSpec(def, spec, (f) => f.role !== 'computed' && f.role !== 'write-only', containsToken);
    const out: Record<string, unknown> = {};
    for (const field of attributeFieldsOf(def)) {
      if (field.role === 'computed') continue;
      const value = field.role === 'write-only' ? secret?.value : values[field.name];
      const attribute = this.referenceFor(def, field) ?? value;
      if (attribute !== undefined) out[field.attribute] = attribute;
    }
    const timeout = def.createTimeout;
    const minutes = timeout && (spec as Record<string, unknown>)[timeout.field];
    if (timeout && minutes !== timeout.defaultMinutes && minutes !== undefined && !containsToken(minutes)) out.timeouts = { create: `${minutes}m` };
    return out;
  }

  /**
   * `prevent_destroy` for a protected object; and, for an object whose parent takes it
   * along when deleted (a package its mail and DNS records), replacement whenever the
   * parent is created anew: the plan then shows what the parent's replacement deletes.
   */
  private lifecycle(): ResellerResourceConfig['lifecycle'] {
    const { parent, protect, absent } = this.request;
    const replacedWith = absent || !parent || parent.isAbsent ? undefined : this.newIdReferenceOf(parent.construct);
    if (!protect && !replacedWith) return undefined;
    return {
      ...(protect ? { preventDestroy: true } : {}),
      ...(replacedWith ? { replaceTriggeredBy: [replacedWith] } : {}),
    };
  }

  /**
   * `reseller_package.shop.package_id`: the attribute that a new object of a parent managed
   * in this stack gets anew, when deleting that parent takes what is declared in it along.
   */
  private newIdReferenceOf(construct: IConstruct): string | undefined {
    const target = synthesized.get(construct);
    if (!target || target.stack !== this.stack) return undefined;
    const def = definitionOf(target.request.spec.kind);
    const field = def.lifecycle?.deletes ? def.fields.find((f) => f.name === def.lifecycle?.newIdField) : undefined;
    return field && `${target.address}.${field.attribute}`;
  }

  /**
   * A Terraform reference to the managed object this field names (a mail object's
   * package, a package's cloud server, a StackUser), when it is managed in this stack
   * and present: the dependency is then explicit, and Terraform orders the writes.
   */
  private referenceFor(def: AnyKindDefinition, field: FieldDefinition): string | undefined {
    if (this.request.absent) return undefined; // nothing is written; a counted resource cannot be referenced without an index
    const { parent, after } = this.request;
    if (parent && def.parent?.field === field.name) return this.referenceTo(parent.construct, parent.isAbsent);
    const user = field.valueForm === 'user-ref' ? after?.find((a) => a.field === field.name) : undefined;
    return user && this.referenceTo(user.construct, user.construct.isAbsent);
  }

  private referenceTo(construct: IConstruct, isAbsent: boolean): string | undefined {
    const target = synthesized.get(construct);
    // An unmanaged reference read through a data source of this stack (ObjectReference.checkAtPlan).
    if (!target) return TerraformStack.of(construct) === this.stack ? referenceReadOf(construct) : undefined;
    if (isAbsent || target.stack !== this.stack) return undefined;
    const key = definitionOf(target.request.spec.kind).fields.find((f) => f.role === 'identity' && f.presence === 'required');
    return key && `\${${target.address}.${key.attribute}}`;
  }

  private logicalIdClaim(): Claim {
    return {
      key: `logical:${this.address}`,
      field: 'id',
      conflict: (first) => `gives the Terraform resource name "${this.address}", which ${first} already uses; rename one of the constructs`,
    };
  }
}

interface ResellerResourceConfig {
  readonly type: string;
  readonly attributes: Record<string, unknown>;
  readonly types: Record<string, FieldType>;
  readonly count?: number;
  readonly lifecycle?: { readonly preventDestroy?: boolean; readonly replaceTriggeredBy?: string[] };
}

/**
 * One `reseller_*` resource. The provider ships no generated cdktf bindings (it is
 * this package), so the attributes are written as given: snake_case already, values
 * that may hold tokens (cdktf resolves them, so variables and cross-stack references work).
 */
class ResellerResource extends TerraformResource {
  private readonly attributes: Record<string, unknown>;
  private readonly types: Record<string, FieldType>;

  constructor(scope: Construct, id: string, config: ResellerResourceConfig) {
    super(scope, id, {
      terraformResourceType: config.type,
      terraformGeneratorMetadata: { providerName: 'reseller' },
      count: config.count,
      lifecycle: config.lifecycle,
    });
    this.attributes = config.attributes;
    this.types = config.types;
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return this.attributes;
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this.attributes)) {
      if (name === 'timeouts') {
        out[name] = { value: anyToHclTerraform(value), isBlock: true, type: 'struct', storageClassType: 'ResourceTimeouts' };
        continue;
      }
      const [type, storageClassType] = HCL_TYPES[this.types[name] ?? 'string'];
      out[name] = { value: anyToHclTerraform(value), isBlock: false, type, storageClassType };
    }
    return out;
  }
}

const HCL_TYPES: Record<FieldType, [string, string]> = {
  string: ['simple', 'string'],
  number: ['simple', 'number'],
  bool: ['simple', 'boolean'],
  'list(string)': ['list', 'stringList'],
  'set(string)': ['set', 'stringList'],
  'map(string)': ['map', 'stringMap'],
};
