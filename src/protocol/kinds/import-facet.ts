/**
 * The import facet of a kind definition: how `reseller-hosting import` declares a live
 * object of the kind in generated TypeScript, i.e. the construct beside the definition.
 * Import itself (src/commands/import/) is generic: it lists each kind through the core,
 * turns each listed object into a checked spec through the attribute codec, and writes
 * the props this facet names from the spec's fields. What the fields cannot say (the
 * construct's class, a prop named otherwise, comments, what a construct cannot declare)
 * is here. Pure: every function reads the listed object and its checked spec only.
 *
 * ```ts
 * import: {
 *   construct: 'Mailbox',
 *   idPrefix: 'mailbox',                                   // mailbox_info_example_com
 *   props: [{ field: 'packageDomain', prop: 'package' }, 'localPart', 'domain', 'send', 'receive'],
 * }
 * ```
 */

/** What an import facet reads of a listed object: the core's `Observed` (src/reconcile), as far as the protocol knows it. */
export interface ListedFacts {
  /** Its id in the API (a package number, `stack-user:N`, a record's ref). */
  readonly liveId: string;
  /** Spec field name -> live value, for the fields the account shows. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Facts of the live object beyond the spec's fields (ids, a server's CPU count). */
  readonly computed: Readonly<Record<string, unknown>>;
}

/** One prop of the construct, from one spec field. */
export interface ImportProp {
  /** The spec field whose (checked) value the prop takes. */
  readonly field: string;
  /**
   * The construct's prop, when it is not called like the field (a mail object's
   * `packageDomain` is the prop `package`). A field that names the kind's parent (its
   * ParentFacet field) is written as the parent construct's variable.
   */
  readonly prop?: string;
  /** The values are those of an enum the library exports: written as `<name>.<MEMBER>` (and `name` imported). */
  readonly enum?: { readonly name: string; readonly members: Readonly<Record<string, string>> };
  /**
   * The account cannot show the field, yet it is declared with its default (a cloud
   * server's billing period): this comment says so beside it.
   */
  readonly unread?: string;
}

/** Comments about one declared object (every line is made safe for a `//` comment). */
export interface ImportNotes {
  /** Lines above the declaration. */
  readonly above?: readonly string[];
  /** A comment after it, on the same line. */
  readonly after?: string;
  /** A comment beside a prop, by spec field name. */
  readonly props?: Readonly<Record<string, string>>;
}

/** How an object the stack does not manage is referenced: `<construct>.<method>(this, id, key)`. */
export interface ImportReference {
  /** The construct's static method that takes the natural key ('fromDomainName'). */
  readonly method: string;
  /** The names `--reference` finds the object by (each read like a natural key). @default its natural key */
  names?(live: ListedFacts): readonly string[];
}

/**
 * How `reseller-hosting import` declares an object of the kind. `S` is the kind's spec
 * type. A field that `props` does not name is not declared (write-only, create-only and
 * computed fields, and settings the API cannot show, usually).
 */
export interface ImportFacet<S = any> {
  /** The construct class the generated code declares ('HostingPackage'), imported from the library. */
  readonly construct: string;
  /** Construct ids are `<idPrefix>_<name>`, made valid and unique ('pkg': `pkg_example_com`). */
  readonly idPrefix: string;
  /** The name part of a construct id. @default the natural key */
  idName?(spec: S): string;
  /**
   * The props, in the order the code writes them: each a spec field name, or an
   * ImportProp where the construct calls it otherwise or writes it otherwise. A value
   * the account did not show, an empty list or map, an empty optional string, and a
   * value equal to the field it defaults from (`defaultFrom`) are not written.
   */
  readonly props: readonly (string | ImportProp)[];
  /** Props one per line (a construct with many). @default all on one line */
  readonly multiline?: boolean;
  /** Declared when `--kinds` does not say which kinds to declare. @default true */
  readonly byDefault?: boolean;
  /** The flag that selected the kind before `--kinds` existed ('users'): still accepted for one release, with a warning. */
  readonly formerFlag?: string;
  /** Comment lines that open the kind's section: what every declaration of it leaves out, and why. */
  readonly section?: readonly string[];
  /** Comment lines of the file's header when the kind is declared (what adopting its objects keeps as it is). */
  readonly header?: readonly string[];
  /** Comments about one declared object. */
  notes?(live: ListedFacts, spec: S): ImportNotes;
  /**
   * Why an object whose fields are valid still cannot be declared as it is (deploying
   * the construct would change it: a forwarder with several targets); undefined: it can.
   */
  cannotDeclare?(live: ListedFacts): string | undefined;
  /**
   * How an object is referenced instead of declared: one `--reference` names, or one
   * whose settings the construct refuses (its natural key valid). Absent: such an object
   * is left out, with a comment.
   */
  readonly reference?: ImportReference;
  /**
   * Fields that name an object of another kind by its natural key or live id (a
   * package's control-panel user): written as that object's variable when it is
   * declared too, else as the value.
   */
  readonly refersTo?: Readonly<Record<string, string>>;
}
