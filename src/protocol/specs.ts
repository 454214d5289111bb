import { CloudProvider } from './cloud';
import { canonicalJson } from './canonical-json';
import { Identity, Kind } from './kinds';
import { StackUserRef } from './names';

/**
 * The desired state of one object, as the constructs write it into the provisioner
 * environment (`RESELLER_SPEC`) and the handler and drift read it back. Names are
 * canonical (lowercase, IDNA) unless they are unresolved Terraform tokens at synth.
 * `path` is the construct path, used in every message about the object.
 */
export interface PackageSpec {
  readonly kind: 'package';
  readonly path: string;
  readonly domainName: string;
  readonly extraDomainNames: readonly string[];
  /** Package type name (e.g. "Linux Unlimited") or numeric id. */
  readonly packageType: string | number;
  readonly label?: string;
  /** Applied when the package is created; the API has no operation to change them later. */
  readonly documentRoots: Readonly<Record<string, string>>;
  /** When set, the package's linked users become exactly this one user. */
  readonly stackUser?: StackUserRef;
  readonly enabled: boolean;
  /** Host name of the cloud server the package lives on (placement); absent: the reseller account. */
  readonly cloudServer?: string;
}

export interface MailboxSpec {
  readonly kind: 'mailbox';
  readonly path: string;
  /** Primary domain of the package the mail domain belongs to. */
  readonly packageDomain: string;
  readonly domain: string;
  readonly localPart: string;
  readonly send: boolean;
  readonly receive: boolean;
  /** Bumping it makes the handler set the password again (rotation). */
  readonly passwordVersion?: number;
  /** Name of an environment variable that holds the password, when not given as a value. */
  readonly passwordEnv?: string;
}

export interface ForwarderSpec {
  readonly kind: 'forwarder';
  readonly path: string;
  readonly packageDomain: string;
  readonly domain: string;
  readonly localPart: string;
  /** Destination e-mail address. */
  readonly remote: string;
}

export interface CloudServerSpec {
  readonly kind: 'cloud-server';
  readonly path: string;
  readonly hostName: string;
  readonly provider: CloudProvider;
  readonly spec: string;
  readonly zone: string;
  readonly periodMonths: number;
  readonly forUser: StackUserRef;
  readonly branded: boolean;
  /** How long `ensure` waits for a new server to be listed before failing. */
  readonly timeoutMinutes: number;
}

export type ObjectSpec = PackageSpec | MailboxSpec | ForwarderSpec | CloudServerSpec;

/** The identity (object replace-triggers, without the parent id) of a spec. */
export function identityOf(spec: ObjectSpec, parent = ''): Identity {
  switch (spec.kind) {
    case 'package':
      return { kind: 'package', key: spec.domainName, placement: spec.cloudServer ?? '', parent };
    case 'mailbox':
    case 'forwarder':
      return { kind: spec.kind, key: `${spec.localPart}@${spec.domain}`, placement: spec.packageDomain, parent };
    case 'cloud-server':
      return { kind: 'cloud-server', key: spec.hostName, placement: '', parent };
  }
}

/**
 * The mutable fields of a spec: what the settings resource's replace-triggers hold
 * (one trigger per field, each value a string: JSON for non-strings) and what
 * `handler update` reconciles. Identity and create-only fields are not here.
 */
export function settingsOf(spec: ObjectSpec): Record<string, string> {
  const json = (v: unknown) => canonicalJson(v ?? null);
  switch (spec.kind) {
    case 'package':
      return {
        extraDomainNames: json([...spec.extraDomainNames].sort()),
        packageType: String(spec.packageType),
        label: spec.label ?? '',
        stackUser: json(spec.stackUser ?? null),
        enabled: json(spec.enabled),
      };
    case 'mailbox':
      return { send: json(spec.send), receive: json(spec.receive) };
    case 'forwarder':
      return { remote: spec.remote };
    case 'cloud-server':
      // Not changeable through the API: `update` compares them and fails loudly when
      // the live server differs, instead of silently leaving it as it is.
      return { provider: spec.provider, spec: spec.spec, zone: spec.zone, branded: json(spec.branded) };
  }
}

export function kindLabel(kind: Kind): string {
  return kind === 'cloud-server' ? 'cloud server' : kind;
}

/** Human name of an object for one-line messages: `mailbox info@example.com`. */
export function describeObject(id: Pick<Identity, 'kind' | 'key'>): string {
  return `${kindLabel(id.kind)} ${id.key}`;
}
