/**
 * One definition per kind of object (DESIGN §6): `src/protocol/kinds/<kind>.ts` holds its
 * spec type, label and order, fields (identity, settings, create-only, write-only,
 * computed; provider attribute names, types, descriptions), canonical form and checks,
 * identity and settings, and the parsing of an import id. Pure, no I/O.
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
 * ```
 */
import { cloudServerDefinition } from './cloud-server';
import type { CloudServerSpec } from './cloud-server';
import type { Checked, FieldDefinition } from './definition';
import { forwarderDefinition } from './forwarder';
import type { ForwarderSpec } from './forwarder';
import type { Identity, Kind } from './identity';
import { mailboxDefinition } from './mailbox';
import type { MailboxSpec } from './mailbox';
import { packageDefinition } from './package';
import type { PackageSpec } from './package';
import { stackUserDefinition } from './stack-user';
import type { StackUserSpec } from './stack-user';

export * from './definition';
export * from './identity';
export type { PackageSpec, MailboxSpec, ForwarderSpec, CloudServerSpec, StackUserSpec };
export type { MailPlacement } from './mail';
export { PACKAGE_FIELDS, checkPackage } from './package';
export { MAILBOX_FIELDS, checkMailbox } from './mailbox';
export { FORWARDER_FIELDS, checkForwarder, sameRemote } from './forwarder';
export { CLOUD_SERVER_FIELDS, checkCloudServer } from './cloud-server';
export { STACK_USER_FIELDS, checkStackUser, userKey } from './stack-user';
export { checkBool, checkOptionalString, checkPackageTypeRef, checkPositiveInt, describeValue } from './checks';

/**
 * The desired state of one object, as an adapter hands it to the core: the constructs
 * write it into the provisioner environment (`RESELLER_SPEC`), the provider builds it
 * from the resource's attributes. Names are canonical (lowercase, IDNA) once checked.
 * `path` is the construct path (or resource address), used in every message about it.
 */
export type ObjectSpec = PackageSpec | MailboxSpec | ForwarderSpec | CloudServerSpec | StackUserSpec;

export type SpecOf<K extends Kind> = Extract<ObjectSpec, { kind: K }>;

/** What every kind's definition offers (see the files of this folder). */
export interface KindDefinition<K extends Kind = Kind> {
  readonly kind: K;
  /** Human name: 'cloud server'. */
  readonly label: string;
  /** Parents before children: create in ascending order, delete in descending. */
  readonly order: number;
  /** Terraform resource type of the native provider. */
  readonly resourceType: string;
  /** What the natural key is called in messages: 'primary domain', 'address', 'host name', 'e-mail'. */
  readonly keyName: string;
  readonly importIdHelp: string;
  readonly fields: readonly FieldDefinition[];
  /** Canonical form and problems (never throws); the same rules at synth and at apply time. */
  check(spec: SpecOf<K>, path?: string): Checked<SpecOf<K>>;
  /** The natural key (object replace-triggers, with the parent's id). */
  identity(spec: SpecOf<K>, parent?: string): Identity;
  /** Settings triggers whose string is JSON (`settings()` encodes them so). */
  readonly jsonSettings: readonly string[];
  /** The mutable fields, one string each (settings replace-triggers). */
  settings(spec: SpecOf<K>): Record<string, string>;
  /** Problems of an identity read back from a trigger map (each `field rule`). */
  checkIdentity(id: Identity): string[];
  canonicalIdentity(id: Identity): Identity;
  /** An import id (natural key) as an identity, or the problem with it. */
  parseImportId(text: string): Identity | string;
}

/** Every kind, parents first (`order`). */
export const DEFINITIONS: readonly KindDefinition[] = (
  [cloudServerDefinition, stackUserDefinition, packageDefinition, mailboxDefinition, forwarderDefinition] as unknown as KindDefinition[]
).sort((a, b) => a.order - b.order);

/** Every kind name, parents first. */
export const KINDS: readonly Kind[] = DEFINITIONS.map((d) => d.kind);

export function isKind(value: unknown): value is Kind {
  return typeof value === 'string' && (KINDS as readonly string[]).includes(value);
}

export function definitionOf<K extends Kind>(kind: K): KindDefinition<K> {
  const def = DEFINITIONS.find((d) => d.kind === kind);
  if (!def) throw new Error(`unknown kind ${JSON.stringify(kind)}`);
  return def as unknown as KindDefinition<K>;
}

/** The definition of a kind by its provider resource type (`reseller_mailbox`). */
export function definitionOfResourceType(type: string): KindDefinition | undefined {
  return DEFINITIONS.find((d) => d.resourceType === type);
}

/** Compares kinds by `order` (parents first); unknown kinds last. */
export function kindOrder(kind: Kind | null | undefined): number {
  return kind ? definitionOf(kind).order : 9;
}

/** Checks a spec of any kind with its definition. */
export function checkSpec<S extends ObjectSpec>(spec: S, path?: string): Checked<S> {
  return definitionOf(spec.kind).check(spec as never, path) as unknown as Checked<S>;
}
