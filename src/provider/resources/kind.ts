/**
 * What the generic resource layer needs from one kind of object. The core's kind
 * definitions (src/protocol/kinds) and reconcile entry (src/reconcile) fill it in
 * (see kind-resources.ts); the layer itself knows nothing about packages or mailboxes.
 */

/** A field's value type as its definition states it. */
export type FieldType = 'string' | 'number' | 'bool' | 'list(string)' | 'set(string)' | 'map(string)';

export interface ResourceField {
  /** camelCase name in the spec. */
  readonly name: string;
  /** snake_case attribute name. */
  readonly attribute: string;
  readonly type: FieldType;
  readonly description: string;
  /**
   * identity: changing it replaces the object; setting: updated in place; create-only:
   * applied at creation, not read back; write-only: sent, never stored; computed: a
   * read-only fact of the live object.
   */
  readonly role: 'identity' | 'setting' | 'create-only' | 'write-only' | 'computed';
  readonly presence: 'required' | 'optional' | 'default';
  readonly defaultValue?: unknown;
  /** Whether a read returns it. */
  readonly readable: boolean;
  /** A setting the API cannot change once the object exists (a cloud server's size): a change is shown, and warned about. */
  readonly fixedAfterCreate?: boolean;
  /** A computed field: the fields (camelCase) whose change makes its value unknown until the apply reads it back. */
  readonly derivesFrom?: readonly string[];
  /** A secret: never logged, never in plan output. */
  readonly sensitive?: boolean;
  /**
   * An identity field whose change the API makes in one write (adds the new object,
   * deletes the old): planned as an update, applied by `ensure` with `replacing`.
   */
  readonly replacedInOneWrite?: boolean;
  /**
   * A set whose elements the service applies after the apply asked for them (a free
   * certificate): an element asked for and not yet read back is pending, not drift, for
   * `pendingHours` (remembered in the resource's private state: private-state.ts).
   */
  readonly pending?: { readonly pendingHours: number; readonly waitsFor: string; readonly why: string };
}

/** One broken rule of a spec. `field` is the camelCase field, possibly with an index (`extraDomainNames[1]`). */
export interface FieldProblem {
  readonly field: string;
  readonly rule: string;
  readonly message: string;
}

/** An object as read back: attribute-form values by camelCase field name (readable and computed fields). */
export interface ObservedValues {
  readonly values: Readonly<Record<string, unknown>>;
  /** Fields (camelCase) whose declared value equals the live one although the forms differ (kept as declared). */
  readonly sameAsDeclared?: ReadonlySet<string>;
  /** After an ensure: elements of `pending` fields asked for and not applied yet, by camelCase field. */
  readonly pending?: Readonly<Record<string, readonly string[]>>;
}

/** Options of one ensure (create or update). */
export interface EnsureOptions {
  /** Create vs update: an update sets the secret only when `rotateSecret`. */
  readonly creating: boolean;
  /** The write-only secret from the configuration (the kind's `secret`), if any. */
  readonly secret?: string;
  /** The secret's version changed (or the object is new): write the secret. */
  readonly rotateSecret: boolean;
  /** Absolute deadline for long waits (from `timeouts`), epoch ms. */
  readonly deadline?: number;
  /** Progress lines of long waits (logged; visible with TF_LOG=info). */
  readonly progress: (line: string) => void;
  /** Warnings for the user (become warning diagnostics). */
  readonly warn: (line: string) => void;
  /** The object's identity before an update that changed `replacedInOneWrite` fields: replaced in one write. */
  readonly replacing?: unknown;
}

export interface ResourceKind<Spec = unknown, Id = unknown> {
  readonly typeName: string;
  /** The kind's name, as the carriers' identity triggers hold it (`cloud-server`): what a moved block may move from. */
  readonly kindName: string;
  /** Human name: 'cloud server'. */
  readonly label: string;
  readonly description: string;
  readonly fields: readonly ResourceField[];
  /** What an import id looks like, for messages. */
  readonly importIdHelp: string;
  /** Long waits that honour a `timeouts` block (cloud servers). */
  readonly timeouts?: { readonly create: string; readonly waitsFor?: string };
  /** The API can delete it; when false, destroy removes it from state with a warning. */
  readonly deletable: boolean;
  /**
   * What deleting one takes with it ('its mail, DNS records and MySQL databases'), and whether objects
   * declared in it are among that: a plan that replaces one warns.
   */
  readonly deletesWithIt?: { readonly what: string; readonly declaredObjects: boolean };
  /**
   * Removing one deletes nothing (its settings go back to the platform's defaults): the
   * sentence saying what that does for this object, for a warning when a plan removes it.
   */
  removal?(spec: Spec): string;
  /**
   * A destroy only removes it from the state and leaves the account as it is (a
   * registration's nameservers): what stays, in words. The plan of a destroy says so.
   */
  readonly forgetsOnDelete?: string;
  /**
   * A bool attribute that, true in the state, makes a delete only forget the object (it
   * stays in the account with what it holds): destroy removes it from state with a
   * warning, and a plan that replaces it says the old one is kept.
   */
  readonly keepOnDestroy?: string;
  /**
   * A secret the API never gives back (a mailbox's password): its write-only field, the
   * field whose raise writes it again, and what messages call it.
   */
  readonly secret?: { readonly field: string; readonly versionField: string; readonly words: string };
  /** Canonical spec from attribute values (camelCase keys, null attributes absent), and the rules it breaks. */
  check(values: Record<string, unknown>, address: string): { spec: Spec; problems: readonly FieldProblem[] };
  identity(spec: Spec): Id;
  /**
   * The rules the object's references to what the account holds and no plan creates (a
   * package type, a user by number) break, among the fields (camelCase) `checked` selects,
   * and the computed facts those references settle (attribute-form values by camelCase
   * field): run when planning.
   */
  checkAccount?(spec: Spec, checked: (field: string) => boolean): Promise<{ readonly problems: readonly FieldProblem[]; readonly known?: Readonly<Record<string, unknown>> }>;
  /** Attribute-form values of fields whose default the check derived from other fields (camelCase keys). */
  derived?(spec: Spec): Record<string, unknown>;
  /** The natural key (`id` attribute) of an identity. */
  key(id: Id): string;
  /** The import id of a natural key and placement (a carrier's identity triggers), for a moved state's first refresh. */
  importIdOf(key: string, placement: string): string;
  /** An import id as an identity, or the problem with it. */
  parseImportId(text: string): { identity: Id } | { problem: string };
  /** Reads the object back; undefined when it does not exist. `declared` lets the core keep equal declared forms. */
  observe(id: Id, declared?: Spec): Promise<ObservedValues | undefined>;
  /**
   * Terraform planned a create of this object and is about to apply it (in the apply
   * walk, PlanResourceChange comes just before ApplyResourceChange): lets concurrent
   * confirmations wait for it and share one read. Never required for correctness.
   */
  expectCreate?(spec: Spec): void;
  /** Creates or adopts, writes what differs, confirms by reading back. */
  ensure(spec: Spec, options: EnsureOptions): Promise<ObservedValues>;
  /** Deletes (idempotent). */
  remove(spec: Spec, warn: (line: string) => void): Promise<void>;
}
