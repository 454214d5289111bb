import { IResolvable } from './private/cdk';
import { Construct, IConstruct } from 'constructs';
import { canonicalDomain, checkHostName, CloudProvider, CloudServerSpec, DEFAULT_CLOUD_TIMEOUT_MINUTES, StackUserRef } from '../protocol';
import { canonDomain, canonStackUser, literal } from './private/names';
import { ManagedObject, ManagedObjectProps } from './managed-object';
import { ObjectReference } from './private/reference';
import { DataResellerCloudServer } from './data-sources';
import { StackUser, stackUserConstruct } from './stack-user';
import { checkPositiveNumber } from './private/validation';

/** A cloud server packages can be placed on: managed here or referenced. */
export interface ICloudServer extends IConstruct {
  /** Host name of the server, canonical (lowercase, IDNA) when known at synth. */
  readonly hostName: string;
  /**
   * Terraform id expression of the server's object resource (so that replacing the
   * server replaces the packages on it); undefined for a server not managed here.
   */
  readonly objectId?: string;
  /** True when the server is declared `absent: true`. */
  readonly isAbsent: boolean;
}

/** A managed cloud server ordered from the reseller account (charged at once; the API cannot cancel it). */
export interface ManagedCloudServerProps extends ManagedObjectProps {
  /** Host name of the server (`mvpsName`): its natural key, so changing it orders a new server. */
  readonly hostName: string;
  /** Where the server runs. Cannot be changed after ordering. */
  readonly provider: CloudProvider;
  /**
   * Size name, one of the provider's sizes, e.g. `medium` (native: 2 CPU, 4 GB RAM, 80 GB disk). Cannot be changed
   * after ordering. Every size with its CPU, RAM and disk: docs/provider.md, "Cloud server sizes and zones", or the
   * `DataResellerCloudServerSpecs` data source.
   */
  readonly spec: string;
  /**
   * Location code, one of the provider's zones: `dc_location-uk` or `dc_location-usa` for the native cloud, an AWS
   * region (`eu-west-2`) or a Google Cloud region (`europe-west2`); every zone: docs/provider.md, "Cloud server sizes
   * and zones". Cannot be changed after ordering.
   */
  readonly zone: string;
  /**
   * Billing period in months.
   * @default 1
   */
  readonly periodMonths?: number;
  /**
   * The control-panel user the server is for: a `StackUser` of this stack, `stack-user:<n>`
   * or `{ email }` of an existing user.
   * @default - none: the order names no user (the API makes it optional)
   */
  readonly forUser?: StackUserRef | StackUser;
  /**
   * Order the server under the reseller's own brand (native provider only).
   * @default false
   */
  readonly branded?: boolean | IResolvable;
  /**
   * How long `handler ensure` waits for a newly ordered server to be listed.
   * @default 30
   */
  readonly timeoutMinutes?: number;
}

/**
 * A managed cloud server. Ordering one charges the account: `ensure` adopts an existing
 * server with the same host name instead of ordering another.
 */
export class ManagedCloudServer extends ManagedObject implements ICloudServer {
  /**
   * A reference to an existing server not managed by this stack. With the provider
   * engine it is read through a `reseller_cloud_server` data source, so a missing
   * server fails `terraform plan`; with the carriers it synthesizes nothing (they
   * cannot read at plan time).
   */
  public static fromHostName(scope: Construct, id: string, hostName: string): ICloudServer {
    return new CloudServerReference(scope, id, hostName);
  }

  /** Host name, canonical (lowercase, IDNA) when known at synth. */
  public readonly hostName: string;

  constructor(scope: Construct, id: string, props: ManagedCloudServerProps) {
    super(scope, id, props);
    this.hostName = canonDomain(props.hostName);
    const user = stackUserConstruct(props.forUser);
    const spec: CloudServerSpec = {
      kind: 'cloud-server',
      path: this.node.path,
      hostName: this.hostName,
      provider: props.provider,
      spec: props.spec,
      zone: props.zone,
      periodMonths: props.periodMonths ?? 1,
      forUser: user ? { email: user.email } : canonStackUser(props.forUser as StackUserRef | undefined),
      branded: (props.branded ?? false) as boolean,
      timeoutMinutes: props.timeoutMinutes ?? DEFAULT_CLOUD_TIMEOUT_MINUTES,
    };
    const key = literal(props.hostName, canonicalDomain);
    this.manage({
      spec,
      after: user ? [{ field: 'forUser', construct: user }] : undefined,
      claims: () =>
        key && !checkHostName(props.hostName)
          ? [
              {
                key: `cloud-server:${key}`,
                field: 'hostName',
                conflict: (first) => `"${key}" is already declared by cloud server ${first} (each host name may be declared once)`,
              },
            ]
          : [],
    }, (p) => {
      p.definition(spec); // hostName, provider, spec, zone, periodMonths, forUser, branded
      p.check('timeoutMinutes', spec.timeoutMinutes, checkPositiveNumber);
    });
  }
}

class CloudServerReference extends ObjectReference implements ICloudServer {
  public readonly hostName: string;

  constructor(scope: Construct, id: string, hostName: string) {
    super(scope, id, 'hostName', hostName, checkHostName);
    this.hostName = canonDomain(hostName);
    this.checkAtPlan(() => new DataResellerCloudServer(this, 'Read', { hostName: this.hostName }), 'host_name', `cloud-server:${this.hostName}`);
  }
}
