import { App, TerraformStack } from './cdk';
import { IConstruct } from 'constructs';
import { ENV } from '../../protocol';
import { StackCarriers } from './carrier';
import type { Engine } from './engines/engine';
import { relativeHandlerPath } from './package-root';
import { templateSafe } from './tokens';


/** What the constructs read from the stack's ResellerHosting (avoids an import cycle). */
export interface HostingSettings {
  readonly node: IConstruct['node'];
  readonly apiUrl?: string;
  readonly resellerId?: string;
  /** The provider block's `api_key` (engine `provider`): a token of an ephemeral variable. */
  readonly apiKey?: string;
  readonly engine: Engine;
  /** The platforms whose provider executables synth places (engines/provider-placement.ts); undefined: the Node launcher. */
  readonly providerPlatforms?: readonly string[];
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
  /** The carrier resources of the stack's constructs, written at synthesis. */
  public readonly carriers: StackCarriers;
  /** Provisioner environments waiting for the stack's ResellerHosting. */
  private pending: Array<Record<string, string>> = [];
  private index?: Map<string, RegisteredObject>;
  private handler?: string;

  constructor(public readonly stack: TerraformStack) {
    this.carriers = new StackCarriers(stack);
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
