/**
 * One definition per kind of object (DESIGN §6): `src/protocol/kinds/<kind>.ts` holds its
 * spec type, label and order, fields (identity, settings, create-only, write-only,
 * computed; provider attribute names, types, value forms, descriptions), canonical form
 * and checks, identity and settings, its import id both ways, and the facets where it
 * differs from a plain object (lifecycle, parent, create timeout). Pure, no I/O. Each
 * file ends in `satisfies KindDefinition<...>`; `Kind` and `ObjectSpec` are derived from
 * the list below, so a new kind is one file and one entry here.
 *
 * Everything that lists or orders kinds (drift, review, fix, the handler's input, the
 * provider's schemas) reads `DEFINITIONS` / `definitionOf()` instead of its own table.
 *
 * ```ts
 * const def = definitionOf('mailbox');
 * def.resourceType;                        // 'reseller_mailbox'
 * def.fields.filter((f) => f.role === 'identity').map((f) => f.attribute);
 * const { spec, problems } = def.check(rawSpec, 'reseller_mailbox.info');
 * const identity = def.parseImportId('info@example.com');   // Identity | problem text
 * def.formatImportId(identity);                              // 'info@example.com'
 * ```
 */
import { cloudServerDefinition } from './cloud-server';
import type { CloudServerSpec } from './cloud-server';
import type { Checked, KindDefinition } from './definition';
import { dnsRecordDefinition } from './dns-record';
import type { DnsRecordSpec } from './dns-record';
import { forwarderDefinition } from './forwarder';
import type { ForwarderSpec } from './forwarder';
import { mailboxDefinition } from './mailbox';
import type { MailboxSpec } from './mailbox';
import { mysqlDatabaseDefinition } from './mysql-database';
import type { MysqlDatabaseSpec } from './mysql-database';
import { packageDefinition } from './package';
import type { PackageSpec } from './package';
import { stackUserDefinition } from './stack-user';
import type { StackUserSpec } from './stack-user';
import { webSettingsDefinition } from './web-settings';
import { domainNameserversDefinition } from './domain-nameservers';
import type { DomainNameserversSpec } from './domain-nameservers';
import { domainTransferLockDefinition } from './domain-transfer-lock';
import type { DomainTransferLockSpec } from './domain-transfer-lock';
import { autoresponderDefinition } from './autoresponder';

export * from './definition';
export { secretFields } from './secret-fields';
export type { SecretWords } from './secret-fields';
export * from './identity';
export * from './codec';
export * from './import-facet';
export type { PackageSpec, MailboxSpec, ForwarderSpec, CloudServerSpec, StackUserSpec, DnsRecordSpec };
export type { WebSettingsSpec, CertificateTimeoutAction } from './web-settings';
export { CERTIFICATE_TIMEOUT_ACTIONS, DEFAULT_CERTIFICATE_TIMEOUT_MINUTES, checkPhpVersion, checkWebSettings } from './web-settings';
export type { MysqlDatabaseSpec };
export { MYSQL_DATABASE_FIELDS, checkMysqlDatabase, checkDatabaseName } from './mysql-database';
export type { DnsRecordType } from './dns-record';
export { DNS_RECORD_FIELDS, DNS_RECORD_TYPES, REGISTRATION_ZONE, checkDnsRecord, canonicalRecordName, fullyQualified, keyValue, splitRecordKey, specOfKey } from './dns-record';
export type { MailPlacement } from './mail';
export { PACKAGE_FIELDS, checkPackage } from './package';
export { MAILBOX_FIELDS, checkMailbox } from './mailbox';
export { FORWARDER_FIELDS, checkForwarder, sameRemote } from './forwarder';
export { CLOUD_SERVER_FIELDS, checkCloudServer } from './cloud-server';
export { STACK_USER_FIELDS, checkStackUser, userKey } from './stack-user';
export type { AutoresponderSpec, AutoresponderContentType } from './autoresponder';
export { AUTORESPONDER_FIELDS, AUTORESPONDER_LIMITS, AUTORESPONDER_CONTENT_TYPES, checkAutoresponder, canonicalTimestamp } from './autoresponder';
export { checkBool, checkOptionalString, checkPackageTypeRef, checkPositiveInt, describeValue } from './checks';
export type { DomainNameserversSpec, DomainTransferLockSpec };
export { checkDomainNameservers, DOMAIN_NAMESERVERS_FIELDS } from './domain-nameservers';
export { checkDomainTransferLock, DOMAIN_TRANSFER_LOCK_FIELDS } from './domain-transfer-lock';
export { MAX_NAMESERVERS, nameserverProblems } from './domain';

/** The registration of every kind: one entry per definition. */
const LIST = [cloudServerDefinition, stackUserDefinition, packageDefinition, mailboxDefinition, forwarderDefinition, dnsRecordDefinition,
  webSettingsDefinition, domainNameserversDefinition, domainTransferLockDefinition, autoresponderDefinition, mysqlDatabaseDefinition] as const;

/** The kinds of remote object this library manages. */
export type Kind = (typeof LIST)[number]['kind'];

/** Compile-time check: every parent facet names a kind of the list. */
type ParentKinds = Extract<(typeof LIST)[number], { parent: unknown }>['parent']['kind'];
export const PARENTS_ARE_KINDS: ParentKinds extends Kind ? true : never = true;

/**
 * The desired state of one object, as an adapter hands it to the core: the constructs
 * write it into the provisioner environment (`RESELLER_SPEC`), the provider builds it
 * from the resource's attributes. Names are canonical (lowercase, IDNA) once checked.
 * `path` is the construct path (or resource address), used in every message about it.
 */
export type ObjectSpec = ReturnType<(typeof LIST)[number]['check']>['spec'];

export type SpecOf<K extends Kind> = Extract<ObjectSpec, { kind: K }>;

/** The definition of any kind, as the adapters hold it. */
export type AnyKindDefinition = KindDefinition<Kind, ObjectSpec>;

const definitions: AnyKindDefinition[] = [];
const kinds: Kind[] = [];

/** Every kind, parents first (`order`). */
export const DEFINITIONS: readonly AnyKindDefinition[] = definitions;

/** Every kind name, parents first. */
export const KINDS: readonly Kind[] = kinds;

/**
 * Registers a kind: its definition joins DEFINITIONS (in `order`), so every adapter that
 * reads the definitions serves it. The kinds of this package are registered from LIST
 * below; a kind defined elsewhere (the test-only kind of the contract suite, in test/)
 * registers the same way, before the adapters that read the list are loaded. Its name
 * and resource type must be new.
 */
export function registerKind(def: KindDefinition<string, any>): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (definitions.some((d) => d.kind === def.kind || d.resourceType === def.resourceType)) {
    throw new Error(`kind ${JSON.stringify(def.kind)} (${def.resourceType}) is registered already`);
  }
  definitions.push(def as AnyKindDefinition);
  definitions.sort((a, b) => a.order - b.order);
  kinds.splice(0, kinds.length, ...definitions.map((d) => d.kind));
}

for (const def of LIST) registerKind(def);

export function isKind(value: unknown): value is Kind {
  return typeof value === 'string' && (KINDS as readonly string[]).includes(value);
}

export function definitionOf<K extends Kind>(kind: K): KindDefinition<K, SpecOf<K>> {
  const def = DEFINITIONS.find((d) => d.kind === kind);
  if (!def) throw new Error(`unknown kind ${JSON.stringify(kind)}`);
  return def as KindDefinition<Kind, ObjectSpec> as KindDefinition<K, SpecOf<K>>;
}

/** The definition of a kind by its provider resource type (`reseller_mailbox`). */
export function definitionOfResourceType(type: string): AnyKindDefinition | undefined {
  return DEFINITIONS.find((d) => d.resourceType === type);
}

/** Compares kinds by `order` (parents first); unknown kinds last. */
export function kindOrder(kind: Kind | null | undefined): number {
  return kind ? definitionOf(kind).order : 9;
}

/** Checks a spec of any kind with its definition. */
export function checkSpec<S extends ObjectSpec>(spec: S, path?: string): Checked<S> {
  return definitionOf(spec.kind).check(spec as never, path) as Checked<S>;
}
