/**
 * The shape of one kind's definition (DESIGN §6): everything about a kind of object
 * that does not need I/O. Each adapter (constructs, handler, provider, drift) reads its
 * facts from here instead of keeping its own table.
 */

import type { Identity } from './identity';
import type { ImportFacet } from './import-facet';
import type { Kind } from './index';

/** Value type of a field, as the provider schema declares it. */
/** `set(string)`: an unordered collection of distinct strings (Terraform compares it whatever the order). */
export type FieldType = 'string' | 'number' | 'bool' | 'list(string)' | 'set(string)' | 'map(string)';

/**
 * - `identity`: part of the natural key or placement; changing it replaces the object;
 * - `setting`: updated in place (or, with `fixedAfterCreate`, readable but not
 *   changeable through the API: a difference is reported, never "updated");
 * - `create-only`: applied at creation, neither readable nor changeable (documentRoots);
 * - `write-only`: a secret that is written and never read back (the mailbox password);
 * - `computed`: a read-only fact of the live object (ids, type ref).
 */
export type FieldRole = 'identity' | 'setting' | 'create-only' | 'write-only' | 'computed';

/**
 * How a field's value looks in the spec and as an attribute, when the two differ
 * (the attribute codec, codec.ts, converts them):
 * - `user-ref`: a control-panel user, `stack-user:N` or `{ email }` in the spec, the
 *   ref or the e-mail as an attribute;
 * - `type-ref`: a package type name or numeric id in the spec, a string as an attribute.
 */
export type ValueForm = 'user-ref' | 'type-ref';

export interface FieldDefinition {
  /** The camelCase name in the spec and in the construct's props. */
  readonly name: string;
  /** The snake_case attribute name of the provider resource. */
  readonly attribute: string;
  readonly type: FieldType;
  /** One line, for docs and provider schema descriptions. */
  readonly description: string;
  readonly role: FieldRole;
  /** `required`, `optional` (absent: left alone or the API decides) or `default` (see `defaultValue`). */
  readonly presence: 'required' | 'optional' | 'default';
  readonly defaultValue?: unknown;
  /** The API cannot change it after creation (cloud server size, a user's name): drift reports a change. */
  readonly fixedAfterCreate?: boolean;
  /** Whether observe() reads it back; false for create-only and write-only fields and some settings. */
  readonly readable: boolean;
  /**
   * A computed field: the fields (camelCase) its value follows. A plan keeps the last
   * value while all of them stay the same, and otherwise leaves it to the apply to read
   * back (so the state after an update is true). Absent: it may follow any other field.
   */
  readonly derivesFrom?: readonly string[];
  /** Only the provisioner carriers use it (how they pass a secret or wait); no provider attribute. */
  readonly carrierOnly?: boolean;
  /** The value's form, when the spec and the attribute write it differently (see ValueForm). */
  readonly valueForm?: ValueForm;
  /** With presence `default` and no `defaultValue`: absent, it takes the value of this other field (a mail domain, its package's). */
  readonly defaultFrom?: string;
  /** What review calls the field when its name alone would read oddly ('target', 'extra domain names'). */
  readonly words?: string;
  /**
   * Review's sentences for a change of the field in the domain's terms, where
   * "<words> changed from A to B" reads oddly ("HTTPS is forced on shop.example.com",
   * "PHP 8.1 -> 8.2"): see FieldPhrases. Absent: the generic wording.
   */
  readonly phrases?: FieldPhrases;
  /**
   * A set whose elements the service completes on its own time after they are asked
   * for (a free certificate is issued minutes later, and only once DNS points at the
   * service): see PendingFacet. Absent: an element not read back is a difference.
   */
  readonly pending?: PendingFacet;
  /**
   * A text that may run to pages (an autoresponder's body): messages about a change of it
   * (the core's, review's, drift's) show its start and its length, not the whole value
   * (see `shortText`). Optional: absent, values are shown whole.
   */
  readonly longText?: boolean;
}

/**
 * One change of a field as review (and drift) words it with a FieldPhrases facet.
 * Values are in spec form: a boolean, a string, a sorted string list; `undefined` is no
 * value (a create has no `before`, a removal no `after`).
 */
export interface PhraseInput {
  /** The object's natural key, what the sentences are about (`shop.example.com`). */
  readonly key: string;
  readonly before: unknown;
  readonly after: unknown;
  /**
   * The object's other settings after the change (before it, for a removal), in spec
   * form by field name: for sentences that depend on another field (whether a removed
   * certificate is deleted or left in place).
   */
  readonly others: Readonly<Record<string, unknown>>;
  /** True for a change found in the account (a refresh's drift): `before` is the state, `after` the account. */
  readonly drift?: boolean;
}

/**
 * Review wording of one field in domain terms (issue 39). How review uses it: for every
 * changed field (an update, a create with `before` undefined, a drift found by refresh
 * with `before` the state and `after` the account), when the field has `phrases`, the
 * sentences `describe(...)` returns replace the generic "<words> changed from A to B"
 * and are joined with "; ". An empty list says nothing about that field. Pure: no I/O.
 */
export interface FieldPhrases {
  describe(change: PhraseInput): readonly string[];
}

/**
 * A set field (`set(string)`) whose elements the service applies asynchronously after
 * the apply asked for them. How each engine reads it back:
 * - the provider records, in the resource's private state, each element the apply asked
 *   for and did not see applied, with the time it asked; on refresh such an element
 *   counts as present (pending, not drift) until it is read back, or until
 *   `pendingHours` have passed, when it counts as missing again (the next apply asks
 *   again). An element once read back and then gone (removed in the control panel) is a
 *   difference at once. Every plan warns about the elements still pending, with `why`.
 * - the carriers and drift keep no such record: an element not read back is a difference.
 */
export interface PendingFacet {
  /** How long an element asked for and never read back counts as pending. */
  readonly pendingHours: number;
  /** What an element waits for, in words: 'issuance of its free certificate'. */
  readonly waitsFor: string;
  /** Why it may wait forever, for the warning: 'DNS of the name does not point at this service yet'. */
  readonly why: string;
}

/** How many characters of a `longText` value a message shows. */
export const LONG_TEXT_SHOWN = 40;

/** A `longText` field's value for a message: `Thank you for your message. Please writ… (117 characters)`; other values as they are. */
export function shortText(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= LONG_TEXT_SHOWN) return value;
  return `${value.slice(0, LONG_TEXT_SHOWN)}\u2026 (${value.length} characters)`;
}

/**
 * What happens to the account when an object of the kind is created, deleted or
 * changed, where that is not the plain create / delete / update every adapter assumes.
 */
export interface Lifecycle {
  /** Creating one places an order: the account is charged (review says so). */
  readonly orderCharges?: boolean;
  /** The API cannot delete it: a delete only forgets it (it keeps running, and billing). */
  readonly cannotDelete?: boolean;
  /** No setting can be changed through the API once it exists: a difference is repaired by hand, never by an update. */
  readonly fixedAfterCreate?: boolean;
  /**
   * What deleting one takes with it ('its mail'): review says so, and a provider plan that
   * replaces one warns, since the objects declared in it may not be in that plan.
   */
  readonly deletes?: string;
  /**
   * With `deletes`: the computed field that every new object gets anew (a package's
   * `packageId`). The provider engine replaces the objects declared in one whenever it
   * changes (`replace_triggered_by`), so a plan that replaces the parent (a new cloud
   * server, `-replace`) shows them replaced too instead of leaving them to vanish.
   */
  readonly newIdField?: string;
  /**
   * The API replaces one in a single write (adds the new object and deletes the old in
   * one atomic request) as long as these fields (camelCase) stay the same: a DNS record
   * within its zone. An adapter that knows the previous identity (the provider's update)
   * hands it to the reconciler's `replace` instead of a delete and a create, between
   * which the account would hold neither.
   */
  readonly replacesInOneWrite?: { readonly keeping: readonly string[] };
  /**
   * Removing one deletes nothing: the object lasts as long as its parent (a package's
   * web settings), and removing it puts its settings back to the platform's defaults.
   * The sentence says what that does for this declaration (what stays, what goes back),
   * for the provider's plan (a warning on destroy) and review's line of the removal.
   * The core's `remove` restores them; `observe` still finds the object afterwards.
   */
  restoresDefaults?(spec: unknown): string;
  /**
   * A delete only forgets the object: the account keeps it as it is (a registration's
   * nameservers, its transfer lock: the kind adopts something it never creates, and
   * what was there before cannot be known). The words say what stays ('the registration
   * keeps the nameservers it has'). The provider warns in the plan of a destroy and the
   * core's remove writes nothing; review should say it instead of "DELETED" (optional
   * facet, read by adapters that know it).
   */
  readonly deleteForgets?: string;
  /**
   * A bool setting (camelCase field) that, when true, makes deleting one only forget it:
   * it stays in the account with what it holds (a MySQL database its data), unmanaged.
   * The provider's delete then removes it from state with a warning and writes nothing;
   * the carriers' destroy provisioner is told (a literal of the configuration), and
   * `handler delete` leaves the object; review says it is kept, not deleted.
   */
  readonly keepOnDestroy?: string;
}

/** The managed object an object lives on (a mail object's package, a package's cloud server). */
export interface ParentFacet {
  /** The spec field that names the parent by its natural key. */
  readonly field: string;
  /** The parent's kind (a string here, checked against `Kind` in index.ts: typing it `Kind` would make the list's type circular). */
  readonly kind: string;
  /**
   * The placement is part of the object's name: the same key under another parent is
   * another object (mail on another package's domain), not this one moved.
   */
  readonly placesKey?: boolean;
}

/**
 * A secret the API takes but never gives back (a mailbox's or a database's password).
 * Every adapter carries it from this facet alone, never by a field's name: the provider
 * as a write-only attribute with a version, the carriers through the provisioner's
 * environment (from a sensitive, ephemeral variable, or a variable the `envField` names),
 * review and fix in the facet's words. It never reaches triggers, state, plan or logs.
 */
export interface SecretFacet {
  /** The write-only field (role `write-only`) that holds the secret. */
  readonly field: string;
  /** The setting whose change writes the secret again (rotation); its attribute is the write-only one's with `_version`. */
  readonly versionField: string;
  /** Carriers only: the field that names an environment variable holding the secret at apply time. */
  readonly envField: string;
  /** The provisioner environment variable the carriers pass the secret in. */
  readonly environment: string;
  /** What messages call it: 'password'. */
  readonly words: string;
  /** Whether a create needs it (a mailbox cannot be made without a password). */
  readonly requiredToCreate: boolean;
}

/**
 * The provider's data sources of a kind, derived from its definition: a singular one
 * (the resource type's name) that reads one object by its identity fields, and a plural
 * one listing every object of the kind (of one parent, when the kind has one).
 */
export interface DataSourcesFacet {
  /** The plural data source's type (`reseller_autoresponders`); its list attribute is the type without `reseller_`. */
  readonly plural: string;
}

/** How long a create may wait for the object, and where the spec says so (cloud servers provision for minutes). */
export interface CreateTimeout {
  /** The spec field (minutes). */
  readonly field: string;
  readonly defaultMinutes: number;
  /** What an apply waits for, when it is not the new object itself ('requested free certificates to be issued'). */
  readonly waitsFor?: string;
}

/**
 * Everything one kind's definition offers (see the files of this folder). `K` is its
 * kind name, `S` its spec type. Each `<kind>.ts` ends in `satisfies KindDefinition<...>`,
 * so the compiler checks it; the optional facets are what makes a kind differ from the
 * plain create / read / update / delete object every adapter handles without a branch.
 */
export interface KindDefinition<K extends string = Kind, S extends { readonly kind: K; readonly path: string } = any> {
  readonly kind: K;
  /** Human name: 'cloud server'. */
  readonly label: string;
  /** A shorter name for sentences that already said which kind it is ('server'). @default label */
  readonly shortLabel?: string;
  /**
   * The label's plural where adding "s" or "es" is wrong ('web settings', already plural):
   * what counts and lists of the kind say (import's summary, `6 web settings`). @default label + s/es
   */
  readonly plural?: string;
  /** One sentence about the kind: the provider schema's description, docs. */
  readonly description: string;
  /** Parents before children: create in ascending order, delete in descending. */
  readonly order: number;
  /** Terraform resource type of the native provider. */
  readonly resourceType: string;
  /** What the natural key is called in messages: 'primary domain', 'address', 'host name', 'e-mail'. */
  readonly keyName: string;
  readonly importIdHelp: string;
  readonly fields: readonly FieldDefinition[];
  /** Canonical form and problems (never throws); the same rules at synth and at apply time. */
  check(spec: S, path?: string): Checked<S>;
  /** The natural key (object replace-triggers, with the parent's id). */
  identity(spec: S, parent?: string): Identity;
  /** Settings triggers whose string is JSON (`settings()` encodes them so). */
  readonly jsonSettings: readonly string[];
  /** The mutable fields, one string each (settings replace-triggers). */
  settings(spec: S): Record<string, string>;
  /** Problems of an identity read back from a trigger map (each `field rule`). */
  checkIdentity(id: Identity): string[];
  canonicalIdentity(id: Identity): Identity;
  /** An import id (natural key) as an identity, or the problem with it. */
  parseImportId(text: string): Identity | string;
  /** The import id of an identity: `parseImportId(formatImportId(id))` gives `id` back (without its parent). */
  formatImportId(id: Identity): string;
  readonly lifecycle?: Lifecycle;
  readonly parent?: ParentFacet;
  readonly createTimeout?: CreateTimeout;
  readonly secret?: SecretFacet;
  readonly dataSources?: DataSourcesFacet;
  /**
   * Whether drift lists live objects of the kind that no stack declares as unmanaged.
   * @default true
   */
  readonly reportsUnmanaged?: boolean;
  /** How `reseller-hosting import` declares a live object of the kind (its construct): see import-facet.ts. */
  readonly import: ImportFacet<S>;
}

/** One broken rule: the field and the rule, and the message naming both (with the path). */
export interface Problem {
  readonly field: string;
  readonly rule: string;
  /** `<path>: <field> <rule>`. */
  readonly message: string;
}

/** The canonical form of a spec and the rules it breaks (empty: valid). */
export interface Checked<S> {
  readonly spec: S;
  readonly problems: readonly Problem[];
}

/** Collects problems of one object (see Problem). */
export class ProblemList {
  readonly problems: Problem[] = [];
  constructor(private readonly path: string) {}

  add(field: string, rule: string | undefined): void {
    if (rule) this.problems.push({ field, rule, message: field ? `${this.path}: ${field} ${rule}` : `${this.path}: ${rule}` });
  }
}

/** Turns camelCase into snake_case (provider attribute names). */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
