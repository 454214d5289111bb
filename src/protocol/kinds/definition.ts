/**
 * The shape of one kind's definition (DESIGN §6): everything about a kind of object
 * that does not need I/O. Each adapter (constructs, handler, provider, drift) reads its
 * facts from here instead of keeping its own table.
 */

/** Value type of a field, as the provider schema declares it. */
export type FieldType = 'string' | 'number' | 'bool' | 'list(string)' | 'map(string)';

/**
 * - `identity`: part of the natural key or placement; changing it replaces the object;
 * - `setting`: updated in place (or, with `fixedAfterCreate`, readable but not
 *   changeable through the API: a difference is reported, never "updated");
 * - `create-only`: applied at creation, neither readable nor changeable (documentRoots);
 * - `write-only`: a secret that is written and never read back (the mailbox password);
 * - `computed`: a read-only fact of the live object (ids, type ref).
 */
export type FieldRole = 'identity' | 'setting' | 'create-only' | 'write-only' | 'computed';

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
