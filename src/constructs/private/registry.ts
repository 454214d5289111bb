import { App, DefaultTokenResolver, StringConcat, TerraformElement, TerraformStack, Token, Tokenization } from 'cdktf';
import { IConstruct } from 'constructs';
import { ENV } from '../../protocol';
import { CarrierSpec, carrierJson, materialize } from './carrier';
import { relativeHandlerPath } from './package-root';
import { templateSafe } from './tokens';

/** The Terraform resource type that carries each remote object. */
export type CarrierResourceType = 'terraform_data' | 'null_resource';

/** What the constructs read from the stack's ResellerHosting (avoids an import cycle). */
export interface HostingSettings {
  readonly node: IConstruct['node'];
  readonly apiUrl?: string;
  readonly resellerId?: string;
  readonly resourceType: CarrierResourceType;
}

/**
 * A natural key (or synthesized name) one construct claims in its stack. Two
 * constructs claiming the same key is a validation error of the later one.
 */
export interface Claim {
  /** e.g. `domain:example.com`, `mailbox:info@example.com`, `logical:site_settings`. */
  readonly key: string;
  /** The field the message names. */
  readonly field: string;
  /** The rule, given the path of the construct that claimed the key first. */
  readonly conflict: (firstOwnerPath: string) => string;
}

export interface RegisteredObject {
  readonly construct: IConstruct;
  claims(): Claim[];
}

/** Per-stack bookkeeping of the reseller constructs. */
export class StackRegistry {
  public readonly hostings: HostingSettings[] = [];
  public readonly objects: RegisteredObject[] = [];
  /** Provisioner environments waiting for the stack's ResellerHosting. */
  private pending: Array<Record<string, string>> = [];
  private readonly carriers: CarrierSpec[] = [];
  private materialized = false;
  private index?: Map<string, RegisteredObject>;
  private handler?: string;

  constructor(public readonly stack: TerraformStack) {
    this.hookSynthesis();
  }

  /** Declares a carrier resource of this stack. */
  public addCarrier(spec: CarrierSpec): void {
    this.carriers.push(spec);
  }

  /**
   * The carrier resources are written into the stack's Terraform JSON after cdktf has
   * resolved it, instead of being cdktf TerraformResources. cdktf resolves every
   * value of every element three times over (prepare, element, whole document), and
   * each construct's two resources with their provisioners are ~25 values: for 1,000
   * constructs that was most of a 3 s synth (BENCHMARKS.md). Only the values that hold
   * tokens (a password variable, a label from a variable) are resolved, with cdktf's
   * own resolver, and they are prepared with the rest of the stack so cross-stack
   * references work. `stack.toTerraform()` is what `app.synth()`, `cdktf synth` and
   * `Testing.synth` write. HCL output is rendered by cdktf only: there the carriers
   * become real TerraformResources first.
   */
  private hookSynthesis(): void {
    const stack = this.stack;
    const toTerraform = stack.toTerraform.bind(stack);
    const toHclTerraform = stack.toHclTerraform.bind(stack);
    stack.toTerraform = () => this.writeCarriers(toTerraform());
    stack.toHclTerraform = () => {
      this.materializeCarriers();
      return toHclTerraform();
    };
    new TokenPreparation(stack, 'ResellerHostingTokens', () => this.tokenValues());
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private writeCarriers(tf: any): any {
    if (this.materialized) return tf;
    const resources = (tf.resource ??= {});
    for (const spec of this.attachedCarriers()) {
      const byName = (resources[spec.type] ??= {});
      const body = resolveTokens(this.stack, carrierJson(spec));
      byName[spec.logicalId] = byName[spec.logicalId] === undefined ? body : mergeUnder(byName[spec.logicalId], body);
    }
    return tf;
  }

  private materializeCarriers(): void {
    if (this.materialized) return;
    this.materialized = true;
    for (const spec of this.attachedCarriers()) materialize(spec);
  }

  /**
   * The carriers whose construct is still in the tree: one removed with
   * `node.tryRemoveChild` (by an aspect, or a test) synthesizes nothing, as a cdktf
   * resource would not.
   */
  private attachedCarriers(): CarrierSpec[] {
    const attached = new Map<IConstruct, boolean>();
    const isAttached = (c: IConstruct): boolean => {
      let known = attached.get(c);
      if (known === undefined) {
        const parent = c.node.scope;
        known = c === this.stack || (parent !== undefined && parent.node.tryFindChild(c.node.id) === c && isAttached(parent));
        attached.set(c, known);
      }
      return known;
    };
    return this.carriers.filter((spec) => isAttached(spec.host));
  }

  private tokenValues(): string[] {
    const found: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') {
        if (Token.isUnresolved(value)) found.push(value);
      } else if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    };
    if (!this.materialized) for (const spec of this.attachedCarriers()) walk([spec.triggers, spec.provisioners]);
    return found;
  }

  public register(object: RegisteredObject): void {
    this.objects.push(object);
    this.index = undefined;
  }

  /** Records a ResellerHosting; the first one connects every provisioner declared so far. */
  public addHosting(hosting: HostingSettings): void {
    this.hostings.push(hosting);
    if (this.hostings.length === 1) {
      for (const environment of this.pending) connect(environment, hosting);
      this.pending = [];
    }
  }

  /**
   * Adds the connection settings (RESELLER_API_URL, RESELLER_ID) of the stack's
   * ResellerHosting to a provisioner environment: now, or when it is declared.
   */
  public connectTo(environment: Record<string, string>): void {
    if (this.hosting) connect(environment, this.hosting);
    else this.pending.push(environment);
  }

  /** The stack's ResellerHosting (the first one, if several were declared). */
  public get hosting(): HostingSettings | undefined {
    return this.hostings[0];
  }

  /** The object that claimed `key` first (in declaration order). */
  public firstOwner(key: string): RegisteredObject | undefined {
    if (!this.index) {
      const index = new Map<string, RegisteredObject>();
      for (const object of this.objects) {
        for (const claim of object.claims()) if (!index.has(claim.key)) index.set(claim.key, object);
      }
      this.index = index;
    }
    return this.index.get(key);
  }

  /** `bin/reseller-hosting.js` relative to this stack's Terraform working directory. */
  public get handlerPath(): string {
    this.handler ??= relativeHandlerPath(App.of(this.stack).outdir, this.stack.node.id);
    return this.handler;
  }
}

const TOKEN_RESOLVER = new DefaultTokenResolver(new StringConcat());

/** Resolves the strings that hold tokens, as cdktf would; the rest is left as it is. */
function resolveTokens<T>(stack: TerraformStack, value: T): T {
  if (typeof value === 'string') {
    return (Token.isUnresolved(value) ? Tokenization.resolve(value, { scope: stack, preparing: false, resolver: TOKEN_RESOLVER }) : value) as T;
  }
  if (Array.isArray(value)) return value.map((v) => resolveTokens(stack, v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveTokens(stack, v);
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
    Tokenization.resolve(this.values(), { scope: this, preparing: true, resolver: TOKEN_RESOLVER });
    return {};
  }

  public override toHclTerraform(): Record<string, unknown> {
    return {};
  }
}

function connect(environment: Record<string, string>, hosting: HostingSettings): void {
  if (hosting.apiUrl !== undefined) environment[ENV.apiUrl] = templateSafe(hosting.apiUrl);
  if (hosting.resellerId !== undefined) environment[ENV.resellerId] = templateSafe(hosting.resellerId);
}

const registries = new WeakMap<TerraformStack, StackRegistry>();

export function registryOf(scope: IConstruct): StackRegistry {
  const stack = TerraformStack.of(scope);
  let registry = registries.get(stack);
  if (!registry) {
    registry = new StackRegistry(stack);
    registries.set(stack, registry);
  }
  return registry;
}
