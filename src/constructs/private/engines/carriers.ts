import * as path from 'node:path';
import { ITerraformDependable, LocalExecProvisioner, TerraformStack } from '../cdk';
import { Construct, IConstruct } from 'constructs';
import { definitionOf, ENV, HandlerCommand, identityOf, settingsOf } from '../../../protocol';
import { CarrierResourceType } from '../carrier';
import { logicalIdOf, validateCommon } from './common';
import type { EngineSynthesizer, ObjectRequest, SynthesizedObject } from './engine';
import { Claim, registryOf, StackRegistry } from '../registry';
import { containsToken, escapeTemplate, jsonencodeString, templateSafe, terraformView, tokenSafeString } from '../tokens';
import { Problems } from '../validation';
import { handlerCommandOf } from './provider-placement';

/** What the carriers need of an object: the engine-independent request. */
export type RemoteObjectProps = ObjectRequest;

/**
 * The provisioner carriers (`terraform_data`, `null_resource`): an object resource,
 * a settings resource and local-exec provisioners running `reseller-hosting handler`
 * (see RemoteObject). The resource type comes from the stack's ResellerHosting.
 */
export const carrierSynthesizer: EngineSynthesizer = {
  // eslint-disable-next-line @typescript-eslint/no-use-before-define
  synthesize: (host, request) => new RemoteObject(host, request),
};

/** The wiring of each managed construct, for its children. */
const wirings = new WeakMap<IConstruct, RemoteObject>();

/**
 * The shared wiring of every managed construct (DESIGN section 2): an object resource
 * whose replace-triggers are the identity, and a settings resource whose
 * replace-triggers are the mutable fields and the secret's version. Each runs
 * `node <handler> handler <command>` through local-exec provisioners.
 *
 * One handler process per object on create: the object resource only mints the
 * Terraform id the identity hangs on (and deletes on destroy); its settings resource
 * runs `ensure` with the full desired state, which creates, adopts or updates. A
 * change of a mutable field replaces only the settings resource, so `ensure` runs
 * again and updates in place; a change of identity replaces the object, whose destroy
 * provisioner deletes the old one before the new settings resource creates the new.
 * Every provisioner process costs a Node start-up, which is what `terraform apply`
 * spends most of its time on (BENCHMARKS.md).
 *
 * Synthesis creates no cdktf tokens here (each captures a stack trace, the larger part
 * of synth time): references are written as Terraform expressions, and the
 * connection settings of a ResellerHosting declared later are filled in by the
 * registry when it is declared.
 */
export class RemoteObject implements SynthesizedObject {
  /** Logical id of the object resource: the construct's id path below the stack, joined with `_`. */
  public readonly logicalId: string;
  public readonly resourceType: CarrierResourceType;
  public readonly objectResource: ITerraformDependable;
  public readonly settingsResource: ITerraformDependable;
  /** `${<type>.<logicalId>.id}`. */
  public readonly objectId: string;
  private readonly registry: StackRegistry;
  private readonly stack: TerraformStack;

  constructor(
    private readonly host: Construct,
    private readonly props: RemoteObjectProps,
  ) {
    this.registry = registryOf(host);
    this.stack = this.registry.stack;
    this.logicalId = logicalIdOf(host, this.stack);
    const engine = this.registry.hosting?.engine;
    this.resourceType = engine === 'null_resource' ? 'null_resource' : 'terraform_data';
    this.objectId = `\${${this.resourceType}.${this.logicalId}.id}`;

    const { spec, absent, protect, secret } = props;
    const facet = definitionOf(spec.kind).secret;
    const handler = handlerCommandOf(this.registry, escapeTemplate);
    const specJson = containsToken(spec) ? jsonencodeString(spec) : escapeTemplate(JSON.stringify(spec));
    const view = terraformView(spec);
    const self = `self.${this.resourceType === 'null_resource' ? 'triggers' : 'triggers_replace'}`;
    // A counted (absent) object may only be referenced with an index: its siblings
    // have count = 0 too and never run, so they reference nothing.
    const objectRef = absent ? '' : this.objectId;

    // 1. object: identity triggers; delete (from `self` only) on destroy.
    this.objectResource = this.carrier(
      'Object',
      this.logicalId,
      { ...identityOf(view, this.parentId()) },
      [{
        ...this.provisioner(handler, 'delete', {
          [ENV.spec]: `\${jsonencode(${self})}`, [ENV.successor]: this.successor(), [ENV.declared]: this.declared(), [ENV.keep]: this.keep(),
        }, true),
        when: 'destroy',
      }],
      // Objects it refers to (a package's stack user) are deleted after it: destroy runs in reverse.
      { protect, dependsOn: this.afterObjects() },
    );

    // 2. settings: one trigger per mutable field (and the secret's version); ensure on create.
    const settings: Record<string, string> = { object: objectRef, ...settingsOf(view) };
    if (secret && facet) settings[facet.versionField] = tokenSafeString(secret.version);
    const provisioners: LocalExecProvisioner[] = [
      this.provisioner(handler, 'ensure', {
        [ENV.spec]: specJson,
        [ENV.objectId]: objectRef,
        ...(facet && secret?.value !== undefined ? { [facet.environment]: templateSafe(secret.value) } : {}),
      }),
    ];
    // The outgoing settings tell `ensure` what it replaces: whether the secret's
    // version changed (a customer's own password is kept otherwise), and for a kind whose
    // create is a charged order (a cloud server) that it exists already (so a missing one
    // is reported, not ordered again).
    if (secret || definitionOf(spec.kind).lifecycle?.orderCharges) {
      provisioners.push({ ...this.provisioner(handler, 'retire-settings', { [ENV.spec]: `\${jsonencode(${self})}` }, false), when: 'destroy' });
    }
    this.settingsResource = this.carrier('Settings', `${this.logicalId}_settings`, settings, provisioners, {
      dependsOn: this.parentSettings(),
    });

    wirings.set(host, this);
    this.registry.register({ construct: host, claims: () => [...props.claims(), ...this.logicalIdClaims()] });
  }

  /** The common rules of every managed construct, and the carriers' own (the handler's path). */
  public validate(problems: Problems): void {
    validateCommon(problems, {
      host: this.host, stack: this.stack, logicalId: this.logicalId, request: this.props, registry: this.registry, engineClaims: this.logicalIdClaims(),
    });
    const keep = definitionOf(this.props.spec.kind).lifecycle?.keepOnDestroy;
    const kept = keep && (this.props.spec as Record<string, unknown>)[keep];
    if (kept !== undefined && containsToken(kept)) {
      problems.field(keep!, 'must be true or false in the code with the provisioner carriers: their destroy-time provisioner can read nothing but literals and self');
    }
    if (path.isAbsolute(this.registry.handlerPath)) {
      problems.field('handler', `script ${this.registry.handlerPath} has no path relative to the stack output directory (another drive?)`);
    }
  }

  /**
   * For a kind the API replaces in one write: the identity this construct declares, as
   * a literal for the destroy provisioner (which runs with this configuration and the
   * old object's `self`), so that a delete of the identity it replaces is left to the
   * new identity's `ensure` (ENV.successor). None for an absent object (no `ensure`
   * follows) or an identity known only at apply time (a destroy provisioner may refer
   * to nothing but `self`).
   */
  private successor(): string | undefined {
    const { spec, absent } = this.props;
    if (absent || !definitionOf(spec.kind).lifecycle?.replacesInOneWrite) return undefined;
    const { kind, key, placement } = identityOf(spec);
    return containsToken([key, placement]) ? undefined : escapeTemplate(JSON.stringify({ kind, key, placement }));
  }

  /**
   * For a kind whose removal restores defaults: the declared spec, as a literal for the
   * destroy provisioner (which may refer to nothing but `self`), so that the removal
   * honours what the declaration asks of it (ENV.declared). None when it holds a token.
   */
  private declared(): string | undefined {
    const { spec } = this.props;
    if (!definitionOf(spec.kind).lifecycle?.restoresDefaults || containsToken(spec)) return undefined;
    return escapeTemplate(JSON.stringify(spec));
  }

  /**
   * For a kind kept on destroy when asked (`lifecycle.keepOnDestroy`): `true` when the
   * construct declares it, a literal for the destroy provisioner (which runs with this
   * configuration), so that `handler delete` leaves the object in the account.
   */
  private keep(): string | undefined {
    const field = definitionOf(this.props.spec.kind).lifecycle?.keepOnDestroy;
    return field && (this.props.spec as Record<string, unknown>)[field] === true ? 'true' : undefined;
  }

  /** The parent's object id when it is managed in this stack (an identity trigger). */
  private parentId(): string {
    const parent = this.props.parent;
    if (!parent || parent.objectId === undefined || parent.isAbsent) return '';
    return TerraformStack.of(parent.construct) === this.stack ? parent.objectId : '';
  }

  /**
   * The parent's settings resource, when it is managed in this stack: the parent's
   * `ensure` (which creates it) must have run before this object's. Ordering only: a
   * settings change of the parent does not replace anything here.
   */
  private sameStackAfter(): IConstruct[] {
    return (this.props.after ?? []).map((a) => a.construct).filter((c) => TerraformStack.of(c) === this.stack);
  }

  private afterObjects(): string[] | undefined {
    const addresses = this.sameStackAfter()
      .map((c) => wirings.get(c)?.objectResource.fqn)
      .filter((a): a is string => a !== undefined);
    return addresses.length ? addresses : undefined;
  }

  private parentSettings(): string[] | undefined {
    const parent = this.parentId() ? this.props.parent : undefined;
    const before = [...(parent ? [parent.construct] : []), ...this.sameStackAfter()];
    const addresses = before.map((c) => wirings.get(c)?.settingsResource.fqn).filter((a): a is string => a !== undefined);
    return addresses.length ? addresses : undefined;
  }

  private logicalIdClaims(): Claim[] {
    return [this.logicalId, `${this.logicalId}_settings`].map((id) => ({
      key: `logical:${id}`,
      field: 'id',
      conflict: (first: string) => `gives the Terraform resource name "${id}", which ${first} already uses; rename one of the constructs`,
    }));
  }

  private carrier(
    id: string,
    logicalId: string,
    triggers: Record<string, string>,
    provisioners: LocalExecProvisioner[],
    options: { protect?: boolean; dependsOn?: string[] },
  ): ITerraformDependable {
    return this.registry.carriers.add({
      host: this.host,
      id,
      type: this.resourceType,
      logicalId,
      triggers,
      provisioners,
      absent: this.props.absent,
      protect: options.protect ?? false,
      dependsOn: options.dependsOn,
    });
  }

  /**
   * A local-exec provisioner running `node <handler> handler <command>`. With
   * `connection`, the registry adds RESELLER_API_URL / RESELLER_ID from the stack's
   * ResellerHosting, also when it is declared after this construct (literals only: a
   * destroy provisioner may reference nothing but `self`).
   */
  private provisioner(
    interpreter: string[],
    command: HandlerCommand,
    base: Record<string, string | undefined>,
    connection = true,
  ): LocalExecProvisioner {
    const environment: Record<string, string> = {};
    for (const [key, value] of Object.entries(base)) if (value !== undefined) environment[key] = value;
    if (connection) this.registry.connectTo(environment);
    return { type: 'local-exec', interpreter, command, environment };
  }
}
