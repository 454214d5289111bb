import { canonicalJson } from '../canonical-json';
import { canonicalDomain, checkDomainName, checkHostName, checkStackUserRef, StackUserRef } from '../names';
import { checkBool, checkOptionalString, checkPackageTypeRef } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';

/**
 * A hosting package (spec 2.3, 4.2-4.6), found by its primary domain. Placed either
 * on the reseller account or on a managed cloud server (spec 4.6).
 */
export type PackageSpec = {
  readonly kind: 'package';
  /** Construct path (or resource address): named in every message about the object. */
  readonly path: string;
  readonly domainName: string;
  readonly extraDomainNames: readonly string[];
  /**
   * Package type name (e.g. "Linux Unlimited") or numeric id. Required on the reseller
   * account; a package on a cloud server takes none (spec 4.6: the server decides).
   */
  readonly packageType?: string | number;
  readonly label?: string;
  /** Applied when the package is created; the API has no operation to change them later. */
  readonly documentRoots: Readonly<Record<string, string>>;
  /** When set, the package's linked users become exactly this one user. */
  readonly stackUser?: StackUserRef;
  readonly enabled: boolean;
  /** Host name of the cloud server the package lives on (placement); absent: the reseller account. */
  readonly cloudServer?: string;
};

export const PACKAGE_FIELDS: readonly FieldDefinition[] = [
  { name: 'domainName', attribute: 'domain_name', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'primary domain',
    description: 'Primary domain of the package (its natural key); changing it replaces the package.' },
  { name: 'cloudServer', attribute: 'cloud_server', type: 'string', role: 'identity', presence: 'optional', readable: true, words: 'cloud server',
    description: 'Host name of the managed cloud server the package is placed on; absent: the reseller account. Packages cannot be moved.' },
  { name: 'extraDomainNames', attribute: 'extra_domain_names', type: 'list(string)', role: 'setting', presence: 'default', defaultValue: [], readable: true, words: 'extra domain names',
    description: 'Further domain names of the package, updated in place.' },
  { name: 'packageType', attribute: 'package_type', type: 'string', role: 'setting', presence: 'optional', readable: true, valueForm: 'type-ref', words: 'package type',
    description: 'Package type name (e.g. "Linux Unlimited") or numeric id; required on the reseller account, not on a cloud server.' },
  { name: 'label', attribute: 'label', type: 'string', role: 'setting', presence: 'optional', readable: true,
    description: 'Label shown in the control panel (at most 255 characters); absent: left as it is.' },
  { name: 'documentRoots', attribute: 'document_roots', type: 'map(string)', role: 'create-only', presence: 'optional', readable: false, words: 'document roots',
    description: 'Document root per domain, relative to the home directory; applied at creation only.' },
  { name: 'stackUser', attribute: 'stack_user', type: 'string', role: 'setting', presence: 'optional', readable: true, valueForm: 'user-ref', words: 'control-panel user',
    description: 'The control-panel user linked to the package ("stack-user:N" or an e-mail); absent: linked users are left as they are.' },
  { name: 'enabled', attribute: 'enabled', type: 'bool', role: 'setting', presence: 'default', defaultValue: true, readable: true,
    description: 'Whether the package is enabled.' },
  { name: 'packageId', attribute: 'package_id', type: 'number', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['domainName', 'cloudServer'],
    description: 'Numeric id of the package in the account.' },
  { name: 'packageTypeId', attribute: 'package_type_id', type: 'number', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageType', 'cloudServer'],
    description: 'Numeric id of the package\'s type.' },
];

/**
 * Canonical form and problems of a package spec. The same rules hold for literal props
 * at synth and for token values resolved at apply time.
 */
export function checkPackage(raw: PackageSpec, path: string = raw.path): Checked<PackageSpec> {
  const p = new ProblemList(path);
  p.add('domainName', checkDomainName(raw.domainName));
  const extra: unknown = raw.extraDomainNames ?? [];
  if (!Array.isArray(extra)) p.add('extraDomainNames', 'must be a list of domain names');
  else extra.forEach((d, i) => p.add(`extraDomainNames[${i}]`, checkDomainName(d)));
  if (raw.cloudServer !== undefined) p.add('cloudServer', checkHostName(raw.cloudServer));
  else p.add('packageType', checkPackageTypeRef(raw.packageType));
  if (raw.cloudServer !== undefined && raw.packageType !== undefined) p.add('packageType', checkPackageTypeRef(raw.packageType));
  p.add('label', checkOptionalString(raw.label, 255));
  if (raw.stackUser !== undefined) p.add('stackUser', checkStackUserRef(raw.stackUser));
  p.add('enabled', checkBool(raw.enabled));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const spec: PackageSpec = {
    ...raw,
    domainName: canonicalDomain(raw.domainName),
    extraDomainNames: (raw.extraDomainNames ?? []).map(canonicalDomain),
    documentRoots: Object.fromEntries(Object.entries(raw.documentRoots ?? {}).map(([d, root]) => [canonicalDomain(d), root])),
    enabled: raw.enabled ?? true,
    ...(raw.cloudServer !== undefined ? { cloudServer: canonicalDomain(raw.cloudServer) } : {}),
  };
  return { spec, problems: [] };
}

export const packageDefinition = {
  kind: 'package',
  label: 'package',
  description: 'A hosting package, found by its primary domain.',
  /** After cloud servers and users (it may be placed on a server and linked to a user). */
  order: 2,
  resourceType: 'reseller_package',
  keyName: 'primary domain',
  importIdHelp: 'the primary domain, e.g. example.com',
  fields: PACKAGE_FIELDS,
  check: checkPackage,
  identity(spec: PackageSpec, parent = ''): Identity {
    return { kind: 'package', key: spec.domainName, placement: spec.cloudServer ?? '', parent };
  },
  /** Settings triggers that hold JSON (the others hold the string itself). */
  jsonSettings: ['extraDomainNames', 'stackUser', 'enabled'],
  /** The mutable fields (settings triggers: one string each). */
  settings(spec: PackageSpec): Record<string, string> {
    return {
      extraDomainNames: canonicalJson([...spec.extraDomainNames].sort()),
      packageType: spec.packageType === undefined ? '' : String(spec.packageType),
      label: spec.label ?? '',
      stackUser: canonicalJson(spec.stackUser ?? null),
      enabled: canonicalJson(spec.enabled),
    };
  },
  /** Problems of an identity (a name that does not survive canonicalisation must never address another object). */
  checkIdentity(id: Identity): string[] {
    const out: string[] = [];
    const problem = checkDomainName(id.key);
    if (problem) out.push(`domainName ${problem}`);
    const placement = id.placement !== '' ? checkHostName(id.placement) : undefined;
    if (placement) out.push(`cloudServer ${placement}`);
    return out;
  },
  canonicalIdentity(id: Identity): Identity {
    return { ...id, key: canonicalDomain(id.key), placement: id.placement ? canonicalDomain(id.placement) : '' };
  },
  /** `terraform import` id: the primary domain. */
  parseImportId(text: string): Identity | string {
    const problem = checkDomainName(text);
    return problem ? `import id ${problem} (expected ${packageDefinition.importIdHelp})` : { kind: 'package', key: canonicalDomain(text), placement: '', parent: '' };
  },
  formatImportId: (id: Identity): string => id.key,
  /** Optionally placed on a managed cloud server. */
  parent: { field: 'cloudServer', kind: 'cloud-server' } as const,
  /** Deleting a package deletes its mail (review says so). */
  lifecycle: { deletes: 'its mail, DNS records and MySQL databases', newIdField: 'packageId' },
  import: {
    construct: 'HostingPackage',
    idPrefix: 'pkg',
    multiline: true,
    section: ['---- Hosting packages ----', 'Document roots are applied at creation and cannot be read back: they are not declared.'],
    // The type by its name when the name finds exactly this type, else by id (the core's `declarable` decides).
    props: ['domainName', 'extraDomainNames', 'packageType', 'label', 'stackUser', 'enabled', 'cloudServer'],
    refersTo: { stackUser: 'stack-user' },
    notes(live, spec: PackageSpec) {
      const users = (live.computed.stackUsers as readonly string[] | undefined) ?? [];
      return {
        above: [
          `Package id ${live.liveId}${spec.cloudServer ? ` on cloud server ${spec.cloudServer}` : ''}`,
          // The observed package names a user only when exactly one is linked.
          ...(users.length > 1
            ? [`Linked to ${users.length} control-panel users (${users.join(', ')}): stackUser is not declared,`, 'because declaring one would unlink the others. The links are left as they are.']
            : []),
        ],
        props: live.computed.packageTypeListed === false ? { packageType: 'a type id the account does not list' } : undefined,
      };
    },
    // Found by any of its domain names.
    reference: { method: 'fromDomainName', names: (live) => (live.computed.names as readonly string[] | undefined) ?? [] },
  },
} satisfies KindDefinition<'package', PackageSpec>;
