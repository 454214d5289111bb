import { Annotations, TerraformProvider, TerraformStack } from './private/cdk';
import { NullProvider } from './private/null-provider';
import { Construct, IConstruct } from 'constructs';
import { CarrierResourceType } from './private/carrier';
import { DEFAULT_ENGINE, Engine, ENGINES } from './private/engines/engine';
import { providerPlatformsProblem } from './private/engines/provider-placement';
import { HostingSettings, registryOf } from './private/registry';
import { isToken } from './private/tokens';
import { addRules, describe } from './private/validation';

export type { CarrierResourceType, Engine };

/** Stack-wide settings of the reseller constructs. */
export interface ResellerHostingProps {
  /**
   * Base URL of the reseller API: the provider block's `api_url` (engine `provider`),
   * or `RESELLER_API_URL` of the handler (carriers). Must be a literal `http://` or
   * `https://` URL (no token: the carriers' destroy-time provisioners can only use
   * literals), without credentials.
   * @default - not set: the provider or handler uses `RESELLER_API_URL` from the
   * environment of `terraform`, else its built-in default.
   */
  readonly apiUrl?: string;
  /**
   * Reseller id used in `/reseller/{id}/...` paths: the provider block's `reseller_id`,
   * or `RESELLER_ID` of the handler. A literal.
   * @default - not set: the handler uses `RESELLER_ID` from the environment, else `*`
   * (the API key's own account).
   */
  readonly resellerId?: string;
  /**
   * The API key of this stack's account: the provider block's sensitive `api_key`
   * (engine `provider` only), for several accounts in one configuration. Give the value
   * of an ephemeral, sensitive TerraformVariable (Terraform >= 1.10;
   * `variable.addOverride('ephemeral', true)`) so that the key is in no file: neither
   * the synthesized JSON, nor state, nor plan files. A literal
   * string gets a synth warning: it would be written into cdk.tf.json.
   * @default - not set: the provider reads `RESELLER_API_KEY` from the environment of `terraform`.
   */
  readonly apiKey?: string;
  /**
   * How each construct becomes Terraform: `provider`, the native provider of
   * this package (one `reseller_*` resource per construct; drift shows in
   * `terraform plan`, removing a construct deletes its object; Terraform >= 1.11), or a
   * provisioner carrier for those who cannot run a plugin: the built-in `terraform_data`
   * (Terraform >= 1.4) or `null_resource` from the hashicorp/null provider (whose
   * provider block is then added to the stack). Declare ResellerHosting before the
   * other reseller constructs of the stack when it is not `provider`.
   * @default 'provider'
   */
  readonly engine?: Engine;
  /**
   * The carrier resource type: the same as `engine` for the two carriers.
   * @deprecated use `engine`.
   * @default - `engine`
   */
  readonly resourceType?: CarrierResourceType;
  /**
   * What synth places in the stack directory for `terraform init` to install the
   * provider from. Unset: the small Node launcher, which needs Node.js (>= 20) on the
   * machine that runs Terraform and runs on every platform Node does. A list of
   * platforms (`linux_amd64`, `linux_arm64`): the self-contained executables of those
   * platforms (about 41 MB each, zipped), with every platform's hashes in
   * `.terraform.lock.hcl`; no Node is needed where Terraform runs, and with the carriers
   * engines the provisioners run the executable's handler mode too. Pick it for a
   * runner that has Terraform alone (HCP Terraform remote runs, Atlantis, a CI job
   * without Node; Linux with glibc >= 2.28) or that gets the stack directory as an
   * artifact. Each platform's zip comes from its npm package, which the project adds at
   * the library's version (`npm install --save-dev
   * cdktf-reseller-hosting-provider-linux_amd64@<version>`; it installs on any machine);
   * `RESELLER_PROVIDER_EXECUTABLES` (a directory of release zips) takes precedence, and
   * in a checkout of the library `npm run build:executables` (`dist/executables`) serves
   * when no package is installed. macOS and Windows: no executables (the launcher
   * is the route there); synthesized on such a machine, the stack also holds the
   * launcher for it, so that `terraform init` there still works. docs/install.md.
   * @default - the Node launcher
   */
  readonly providerPlatforms?: readonly string[];
}

const RESELLER_ID = /^(\*|[A-Za-z0-9][A-Za-z0-9._-]*)$/;

/**
 * Optional stack-wide settings of the reseller constructs: at most one per stack. The
 * API key comes from `RESELLER_API_KEY` in the environment, or (engine `provider`,
 * several accounts) from `apiKey` given an ephemeral variable.
 */
export class ResellerHosting extends Construct implements HostingSettings {
  /** The ResellerHosting of the stack that holds `scope`, if one was declared. */
  public static of(scope: IConstruct): ResellerHosting | undefined {
    const hosting = registryOf(scope).hosting;
    return hosting instanceof ResellerHosting ? hosting : undefined;
  }

  /** Base URL of the API given to the handler, if set. */
  public readonly apiUrl?: string;
  /** Reseller id given to the handler, if set. */
  public readonly resellerId?: string;
  /** The provider block's API key (a token of an ephemeral variable), if set. */
  public readonly apiKey?: string;
  /** The engine of the stack's reseller constructs. */
  public readonly engine: Engine;
  /**
   * The carrier resource type of the stack's reseller constructs (`engine`, for the carriers).
   * @deprecated use `engine`.
   */
  public readonly resourceType: CarrierResourceType;
  /** The platforms whose provider executables synth places; undefined: the Node launcher. */
  public readonly providerPlatforms?: readonly string[];
  /** The hashicorp/null provider block, when `resourceType` is `null_resource`. */
  public readonly nullProvider?: TerraformProvider;

  constructor(scope: Construct, id: string, props: ResellerHostingProps = {}) {
    super(scope, id);
    this.apiUrl = props.apiUrl;
    this.resellerId = props.resellerId;
    this.apiKey = props.apiKey;
    this.engine = props.engine ?? props.resourceType ?? DEFAULT_ENGINE;
    this.providerPlatforms = props.providerPlatforms;
    this.resourceType = this.engine === 'null_resource' ? 'null_resource' : 'terraform_data';

    const registry = registryOf(this);
    const objectsBefore = registry.objects.length;
    const first = registry.hosting;
    registry.addHosting(this);

    if (this.engine === 'null_resource' && first === undefined) {
      const stack = TerraformStack.of(this);
      this.nullProvider =
        stack.node.findAll().find((c): c is TerraformProvider => c instanceof TerraformProvider && c.terraformResourceType === 'null') ??
        new NullProvider(this, 'null');
    }

    if (typeof props.apiKey === 'string' && !isToken(props.apiKey) && props.apiKey.trim() !== '') {
      Annotations.of(this).addWarning(
        `${this.node.path}: apiKey is a literal string in the code, so the key is stored in the synthesized cdk.tf.json; ` +
          'use the value of an ephemeral, sensitive TerraformVariable (Terraform >= 1.10), or leave it out and set RESELLER_API_KEY',
      );
    }

    addRules(this, (p) => {
      if (first !== undefined) {
        p.field('', `is a second ResellerHosting in stack ${registry.stack.node.path}; ${first.node.path} is the first: declare at most one per stack`);
      }
      // Named as the user named it: `resourceType` (the deprecated alias) or `engine`.
      const field = props.engine === undefined && props.resourceType !== undefined ? 'resourceType' : 'engine';
      if (field === 'resourceType' && this.engine !== 'terraform_data' && this.engine !== 'null_resource') {
        p.field('resourceType', `must be "terraform_data" or "null_resource", not ${describe(this.engine)}`);
      } else if (!ENGINES.includes(this.engine)) {
        p.field('engine', `must be one of ${ENGINES.map((e) => `"${e}"`).join(', ')}, not ${describe(this.engine)}`);
      } else if (props.engine !== undefined && props.resourceType !== undefined && props.engine !== props.resourceType) {
        p.field('resourceType', `(deprecated) says "${props.resourceType}" but engine says "${props.engine}": set engine only`);
      } else if (this.engine !== DEFAULT_ENGINE && objectsBefore > 0) {
        p.field(
          field,
          `"${this.engine}" comes too late: ${objectsBefore} reseller construct(s) of the stack were declared before this ResellerHosting and already use ${DEFAULT_ENGINE}; declare it first`,
        );
      }
      if (this.apiUrl !== undefined) p.field('apiUrl', checkApiUrl(this.apiUrl));
      if (this.providerPlatforms !== undefined) p.field('providerPlatforms', providerPlatformsProblem(this.providerPlatforms));
      if (this.apiKey !== undefined) {
        if (this.engine !== 'provider') {
          p.field('apiKey', `is for engine "provider" only: the ${this.engine} carriers' handler reads RESELLER_API_KEY from the environment`);
        } else if (typeof this.apiKey !== 'string' || (!isToken(this.apiKey) && this.apiKey.trim() === '')) {
          p.field('apiKey', `${typeof this.apiKey === 'string' ? 'must not be empty' : `must be a string, not ${describe(this.apiKey)}`}`);
        }
      }
      if (this.resellerId !== undefined) {
        if (isToken(this.resellerId)) {
          p.field('resellerId', 'must be a literal string, not a token: destroy-time provisioners may only reference self');
        } else if (typeof this.resellerId !== 'string' || !RESELLER_ID.test(this.resellerId)) {
          p.field('resellerId', `${describe(this.resellerId)} must be "*" or a reseller id (letters, digits, ".", "_", "-")`);
        }
      }
    });
  }
}

function checkApiUrl(value: unknown): string | undefined {
  if (isToken(value)) return 'must be a literal URL, not a token: destroy-time provisioners may only reference self';
  if (typeof value !== 'string') return `must be a URL string, not ${describe(value)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${describe(value)} is not a valid URL (expected e.g. https://api.example.com)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${describe(value)} must use http or https`;
  if (url.username || url.password) {
    return 'must not contain credentials: the API key comes from RESELLER_API_KEY in the environment (or apiKey)';
  }
  if (url.hash) return `${describe(value)} must not have a #fragment`;
  return undefined;
}
