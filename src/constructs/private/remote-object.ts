import * as path from 'node:path';
import {
  Fn,
  Lazy,
  LocalExecProvisioner,
  TerraformResource,
  TerraformSelf,
  TerraformStack,
} from 'cdktf';
import { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { Construct, IConstruct } from 'constructs';
import { ENV, HandlerCommand, identityOf, ObjectSpec, settingsOf } from '../../protocol';
import { CarrierResourceType, Claim, registryOf, StackRegistry } from './registry';
import { containsToken, escapeTemplate, jsonencodeString, templateSafe, terraformView, tokenSafeString } from './tokens';
import { TerraformData } from './terraform-data';
import { Problems } from './validation';

/** The managed parent of an object: a mail object's package, a package's cloud server. */
export interface ParentLink {
  /** The prop that names the parent, for messages (`package`, `cloudServer`). */
  readonly field: string;
  /** What the parent is, for messages (`package`, `cloud server`). */
  readonly what: string;
  readonly construct: IConstruct;
  /** Terraform id expression of the parent's object resource; undefined when unmanaged. */
  readonly objectId?: string;
  readonly isAbsent: boolean;
}

export interface RemoteObjectProps {
  /** The full desired state (names canonical unless tokens). */
  readonly spec: ObjectSpec;
  readonly parent?: ParentLink;
  readonly absent: boolean;
  readonly protect: boolean;
  /** Set for a mailbox with `password` or `passwordEnv`: adds the password resource. */
  readonly password?: { readonly value?: string; readonly version: number };
  /** The natural keys this object claims in its stack (canonical, literal values only). */
  readonly claims: () => Claim[];
}

/** Terraform identifiers: a letter or underscore, then letters, digits, `_` or `-`. */
const TERRAFORM_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The shared wiring of every managed construct (DESIGN section 2): an object resource
 * whose replace-triggers are the identity, a settings resource whose replace-triggers
 * are the mutable fields, and for a mailbox with a password a password resource. Each
 * runs `node <handler> handler <command>` through a local-exec provisioner.
 */
export class RemoteObject {
  /** Logical id of the object resource: the construct's id path below the stack, joined with `_`. */
  public readonly logicalId: string;
  public readonly resourceType: CarrierResourceType;
  public readonly objectResource: TerraformResource;
  public readonly settingsResource: TerraformResource;
  public readonly passwordResource?: TerraformResource;
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
    const scopes = host.node.scopes;
    this.logicalId = scopes
      .slice(scopes.indexOf(this.stack) + 1)
      .map((s) => s.node.id)
      .join('_');
    this.resourceType = this.registry.hosting?.resourceType ?? 'terraform_data';

    const { spec, absent, protect } = props;
    const handler = ['node', escapeTemplate(this.registry.handlerPath), 'handler'];
    const specJson = containsToken(spec) ? jsonencodeString(spec) : escapeTemplate(JSON.stringify(spec));
    const view = terraformView(spec);
    const password = props.password?.value === undefined ? undefined : templateSafe(props.password.value);
    const triggersAttribute = this.resourceType === 'null_resource' ? 'triggers' : 'triggers_replace';

    // 1. object: identity triggers; ensure on create, delete (from `self` only) on destroy.
    this.objectResource = this.carrier('Object', this.logicalId, { ...identityOf(view, this.parentId()) }, [
      this.provisioner(handler, 'ensure', {
        [ENV.spec]: specJson,
        [ENV.objectId]: TerraformSelf.getString('id'),
        [ENV.password]: password,
      }),
      {
        ...this.provisioner(handler, 'delete', {
          [ENV.spec]: Fn.jsonencode(TerraformSelf.getAny(triggersAttribute)),
        }),
        when: 'destroy',
      },
    ], protect);
    this.objectId = (this.objectResource as TerraformData | NullResource).id;
    // A counted (absent) object may only be referenced with an index: its siblings
    // have count = 0 too and never run, so they reference nothing.
    const objectRef = absent ? '' : this.objectId;

    // 2. settings: one trigger per mutable field; update on create.
    this.settingsResource = this.carrier(
      'Settings',
      `${this.logicalId}_settings`,
      { object: objectRef, ...settingsOf(view) },
      [this.provisioner(handler, 'update', { [ENV.spec]: specJson, [ENV.objectId]: objectRef })],
    );

    // 3. password: written only when its version changes.
    if (props.password) {
      this.passwordResource = this.carrier(
        'Password',
        `${this.logicalId}_password`,
        { object: objectRef, passwordVersion: tokenSafeString(props.password.version) },
        [
          this.provisioner(handler, 'set-password', {
            [ENV.spec]: specJson,
            [ENV.objectId]: objectRef,
            [ENV.password]: password,
          }),
        ],
      );
    }

    this.registry.register({ construct: host, claims: () => [...props.claims(), ...this.logicalIdClaims()] });
  }

  /** The common rules of every managed construct. */
  public validate(problems: Problems): void {
    const { absent, protect, parent } = this.props;
    if (!TERRAFORM_NAME.test(this.logicalId)) {
      problems.field(
        'id',
        `gives the Terraform resource name "${this.logicalId}", which is not valid: construct ids must start with a letter or "_" and contain only letters, digits, "_" and "-"`,
      );
    }
    if (path.isAbsolute(this.registry.handlerPath)) {
      problems.field('handler', `script ${this.registry.handlerPath} has no path relative to the stack output directory (another drive?)`);
    }
    if (absent && protect) {
      problems.field('protect', 'must not be true while absent is true: prevent_destroy would block the deletion; remove protect first');
    }
    if (parent) {
      if (parent.objectId !== undefined && TerraformStack.of(parent.construct) !== this.stack) {
        problems.field(
          parent.field,
          `${parent.construct.node.path} is managed in another stack; refer to it with ${parent.what === 'package' ? 'HostingPackage.fromDomainName' : 'ManagedCloudServer.fromHostName'} instead`,
        );
      }
      if (parent.isAbsent && !absent) {
        problems.field(
          parent.field,
          `${parent.construct.node.path} is absent, so this object must be absent too (set absent: true): deleting a ${parent.what} deletes what is on it`,
        );
      }
    }
    for (const claim of [...this.props.claims(), ...this.logicalIdClaims()]) {
      const owner = this.registry.firstOwner(claim.key);
      if (owner && owner.construct !== this.host) problems.field(claim.field, claim.conflict(owner.construct.node.path));
    }
  }

  private parentId(): string {
    const parent = this.props.parent;
    if (!parent || parent.objectId === undefined || parent.isAbsent) return '';
    return TerraformStack.of(parent.construct) === this.stack ? parent.objectId : '';
  }

  private logicalIdClaims(): Claim[] {
    const ids = [this.logicalId, `${this.logicalId}_settings`];
    if (this.props.password) ids.push(`${this.logicalId}_password`);
    return ids.map((id) => ({
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
    protect = false,
  ): TerraformResource {
    const meta = {
      count: this.props.absent ? 0 : undefined,
      lifecycle: protect ? { preventDestroy: true } : undefined,
      provisioners,
    };
    const resource =
      this.resourceType === 'null_resource'
        ? new NullResource(this.host, id, { triggers, ...meta })
        : new TerraformData(this.host, id, { triggersReplace: triggers, ...meta });
    resource.overrideLogicalId(logicalId);
    return resource;
  }

  /**
   * A local-exec provisioner running `node <handler> handler <command>`. The
   * environment is resolved at synth, so a ResellerHosting declared after this
   * construct still sets RESELLER_API_URL / RESELLER_ID (literals only: the destroy
   * provisioner may reference nothing but `self`).
   */
  private provisioner(
    interpreter: string[],
    command: HandlerCommand,
    base: Record<string, string | undefined>,
  ): LocalExecProvisioner {
    const environment = Lazy.anyValue({
      produce: () => {
        const env: Record<string, string> = {};
        const hosting = this.registry.hosting;
        const entries: Array<[string, string | undefined]> = [
          [ENV.spec, base[ENV.spec]],
          [ENV.objectId, base[ENV.objectId]],
          [ENV.apiUrl, hosting?.apiUrl === undefined ? undefined : templateSafe(hosting.apiUrl)],
          [ENV.resellerId, hosting?.resellerId === undefined ? undefined : templateSafe(hosting.resellerId)],
          [ENV.password, base[ENV.password]],
        ];
        for (const [key, value] of entries) if (value !== undefined) env[key] = value;
        return env;
      },
    }) as unknown as Record<string, string>;
    return { type: 'local-exec', interpreter, command, environment };
  }
}
