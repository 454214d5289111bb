import type { AnyKindDefinition, Checked, FieldDefinition, Identity, ImportNotes, ImportProp, Kind, ObjectSpec } from '../../protocol';
import { DEFINITIONS, definitionOf, isKind, specFromValues, valuesOfSpec } from '../../protocol';
import type { Observed } from '../../reconcile';
import { sweepNames } from '../../reconcile';
import type { ImportAccount } from './account';
import { capitalized, commentText, IdAllocator, listWords, pluralOf, tsLiteral, tsString } from './code';
import { byText } from '../../stacks';

/**
 * The body of the stack `reseller-hosting import` writes: one loop over the kinds, each
 * listed object declared from its kind's import facet (src/protocol/kinds/import-facet.ts).
 * Kinds whose objects are named within a parent (ParentFacet.placesKey: a package's mail
 * and DNS records) follow each parent; the others have a section of their own, parents
 * first, and refer to their parent's variable. Every object is checked with its
 * definition first, so that the code never declares what the construct would refuse: it
 * is referenced instead (when its kind has a reference form and its natural key is valid)
 * or left out, with a comment that says why.
 */

const DECLARE = '\u0000';
const DECLARATION = /\u0000([A-Za-z0-9_]+)\u0000/g;

/** How many objects of each kind were declared, and how many were left out or referenced only. */
export interface ImportCounts {
  readonly declared: ReadonlyMap<Kind, number>;
  readonly skipped: number;
}

/** One prop as the code writes it. */
interface WrittenProp {
  readonly name: string;
  readonly code: string;
  readonly comment?: string;
}

/** Where the variable of a declared (or referenced) object is found: by natural key, and by live id. */
const byKey = (kind: string, key: string) => `${kind}\n${key}`;
const byLiveId = (kind: string, id: string) => `${kind}#${id}`;
/** What makes two objects one: the natural key, and the parent when it is part of the name. */
const identityKey = (def: AnyKindDefinition, id: Identity) => byKey(def.kind, `${id.key}\n${def.parent?.placesKey ? id.placement : ''}`);

export class Emitter {
  readonly body: string[] = [];
  /** Library names the code uses (imported in the header). */
  readonly used = new Set<string>();
  private readonly ids = new IdAllocator();
  /**
   * Variables something refers to: objects are bound to a variable only then (an
   * unused local would break projects compiled with noUnusedLocals).
   */
  private readonly referenced = new Set<string>();
  private readonly variables = new Map<string, string>();
  /** The identities declared so far (a second object of one identity is left out). */
  private readonly identities = new Set<string>();
  private readonly declared = new Map<Kind, number>();
  private skipped = 0;
  /** Listed objects named within a parent, by kind and parent key. */
  private readonly within = new Map<string, Observed[]>();
  /** The `--reference` names as each kind's natural keys read them. */
  private readonly wanted = new Map<Kind, ReadonlySet<string>>();

  constructor(private readonly account: ImportAccount, private readonly referenceNames: readonly string[] = []) {
    for (const kind of account.kinds) {
      this.declared.set(kind, 0);
      if (!this.nested(definitionOf(kind))) continue;
      for (const o of account.objects.get(kind) ?? []) {
        const key = byKey(kind, o.identity.placement);
        this.within.set(key, [...(this.within.get(key) ?? []), o]);
      }
    }
  }

  get counts(): ImportCounts {
    return { declared: this.declared, skipped: this.skipped };
  }

  /** Writes every section, parents first. */
  emitAll(): void {
    for (const kind of this.account.kinds) {
      const def = definitionOf(kind);
      if (!this.nested(def)) this.section(def, this.account.objects.get(kind) ?? []);
    }
  }

  /** The body lines with the declarations that are referenced bound to a `const`. */
  lines(): string[] {
    return this.body.map((l) => l.replace(DECLARATION, (_, id: string) => (this.referenced.has(id) ? `const ${id} = ` : '')));
  }

  private line(text = ''): void {
    this.body.push(text ? `    ${text}` : '');
  }

  /** A comment line in the body. */
  comment(text: string): void {
    this.line(`// ${commentText(text)}`);
  }

  /** Whether the kind's objects follow their parent (named within it), rather than having a section. */
  private nested(def: AnyKindDefinition): boolean {
    return def.parent?.placesKey === true && (this.account.kinds as readonly string[]).includes(def.parent.kind);
  }

  /** The kinds declared within an object of `def`'s kind (a package's mailboxes, forwarders...). */
  private nestedKinds(def: AnyKindDefinition): AnyKindDefinition[] {
    return DEFINITIONS.filter((d) => d.parent?.kind === def.kind && this.account.kinds.includes(d.kind) && this.nested(d));
  }

  private section(def: AnyKindDefinition, objects: readonly Observed[]): void {
    if (objects.length === 0) return;
    if (this.body.length) this.line();
    for (const text of def.import.section ?? []) this.comment(text);
    sorted(objects).forEach((o, i) => {
      if (i > 0 && def.import.multiline) this.line();
      this.object(def, o);
    });
  }

  /** One object, then (when it is declared) the objects named within it. */
  private object(def: AnyKindDefinition, o: Observed): void {
    if (!this.declare(def, o)) return;
    for (const child of this.nestedKinds(def)) {
      for (const c of sorted(this.within.get(byKey(child.kind, o.identity.key)) ?? [])) this.object(child, c);
    }
  }

  /** Declares, references or leaves out one object; true when it is declared (its nested objects follow). */
  private declare(def: AnyKindDefinition, o: Observed): boolean {
    const intro = `${capitalized(def.label)} ${sweepNames(o).shown} (id ${o.liveId})`;
    const { spec, problems } = checkedSpec(def, o);
    const identity = identityOf(def, o, problems.length ? undefined : spec);
    // A reference needs only the natural key.
    const referable = def.import.reference !== undefined && !problems.some((p) => fieldOf(def, p.field)?.role === 'identity');
    if (referable && this.chosen(def, o)) {
      this.reference(def, spec, identity, `${intro} is referenced, not managed, as --reference asks (read at plan time with the provider engine)`);
      return false;
    }
    const refused = problems.length ? problems.map((p) => `${p.field} ${p.rule}`).join('; ') : undefined;
    if (refused && referable) {
      this.reference(def, spec, identity, `${intro} is referenced, not managed: ${refused}`);
      return false;
    }
    const parent = this.parentOf(def, spec);
    const reason = def.import.cannotDeclare?.(o) ?? refused ?? this.duplicateOf(def, identity) ?? parent.missing;
    if (reason) {
      this.comment(`${intro} left out: ${reason}`);
      this.skipped++;
      return false;
    }
    this.write(def, o, spec, identity, parent.variable);
    return true;
  }

  /** The `new <Construct>(...)` of a declared object, with its comments. */
  private write(def: AnyKindDefinition, o: Observed, spec: ObjectSpec, identity: Identity, parentVariable: string | undefined): void {
    const facet = def.import;
    const notes = facet.notes?.(o, spec) ?? {};
    const props = this.props(def, o, spec, notes, parentVariable);
    for (const text of notes.above ?? []) this.comment(text);
    const id = this.ids.allocate(facet.idPrefix, facet.idName?.(spec) ?? identity.key);
    this.used.add(facet.construct);
    const head = `${this.marker(id)}new ${facet.construct}(this, ${tsString(id)}, {`;
    if (facet.multiline) {
      this.line(head);
      for (const p of props) this.line(`  ${p.name}: ${p.code},${p.comment ? ` // ${commentText(p.comment)}` : ''}`);
      this.line(`});${notes.after ? ` // ${commentText(notes.after)}` : ''}`);
    } else {
      // On one line, the props' comments follow the object's.
      const comments = [notes.after, ...props.map((p) => p.comment && `${p.name}: ${p.comment}`)].filter((c): c is string => !!c).map(commentText);
      this.line(`${head} ${props.map((p) => `${p.name}: ${p.code}`).join(', ')} });${comments.length ? ` // ${comments.join('; ')}` : ''}`);
    }
    this.identities.add(identityKey(def, identity));
    this.bind(def, identity, o.liveId, id);
    this.declared.set(def.kind, (this.declared.get(def.kind) ?? 0) + 1);
  }

  /** Why an object cannot be declared when one of its identity is already: the construct would claim the same object twice. */
  private duplicateOf(def: AnyKindDefinition, identity: Identity): string | undefined {
    return this.identities.has(identityKey(def, identity)) ? `another ${def.label} has the ${def.keyName} ${identity.key}` : undefined;
  }

  /** `<Construct>.<method>(this, id, key)`, with the comment that says why; objects named within it are not declared. */
  private reference(def: AnyKindDefinition, spec: ObjectSpec, identity: Identity, why: string): void {
    const { construct, reference, idPrefix, idName } = def.import;
    if (!reference) throw new Error(`${def.kind} has no reference form`);
    this.comment(why);
    const within = this.nestedKinds(def).map((d) => pluralOf(d.label, d.plural));
    if (within.length) this.comment(`Its ${listWords(within, 'and')} are not declared: declare them on it to manage them.`);
    const id = this.ids.allocate(idPrefix, idName?.(spec) ?? identity.key);
    this.used.add(construct);
    this.line(`${this.marker(id)}${construct}.${reference.method}(this, ${tsString(id)}, ${tsString(identity.key)});`);
    this.bind(def, identity, '', id);
    this.skipped++;
  }

  /** The props of a declared object, in the facet's order. */
  private props(def: AnyKindDefinition, o: Observed, spec: ObjectSpec, notes: ImportNotes, parentVariable: string | undefined): WrittenProp[] {
    const values = fieldValues(spec);
    const out: WrittenProp[] = [];
    for (const entry of def.import.props) {
      const prop: ImportProp = typeof entry === 'string' ? { field: entry } : entry;
      const field = fieldOf(def, prop.field);
      if (!field) throw new Error(`the import facet of ${def.kind} names ${prop.field}, which is no field of the kind`);
      const value = values[prop.field];
      // What the account did not show is not declared, unless the facet declares its default.
      if ((!(prop.field in o.fields) && !prop.unread) || unwritten(field, value, values)) continue;
      out.push({ name: prop.prop ?? prop.field, code: this.valueCode(def, prop, value, parentVariable), comment: prop.unread ?? notes.props?.[prop.field] });
    }
    // An object the API cannot delete is protected from `terraform destroy`.
    if (def.lifecycle?.cannotDelete) out.push({ name: 'protect', code: 'true' });
    return out;
  }

  /** A prop's value: the parent's variable, another declared object's, an enum member, or a literal. */
  private valueCode(def: AnyKindDefinition, prop: ImportProp, value: unknown, parentVariable: string | undefined): string {
    if (def.parent?.field === prop.field && parentVariable) return this.refer(parentVariable);
    const kind = def.import.refersTo?.[prop.field];
    const variable = kind !== undefined && typeof value === 'string' ? this.variableOf(kind, value) : undefined;
    if (variable) return this.refer(variable);
    const choices = prop.enum;
    const member = choices && Object.keys(choices.members).find((m) => choices.members[m] === value);
    if (choices && member) {
      this.used.add(choices.name);
      return `${choices.name}.${member}`;
    }
    return tsLiteral(value);
  }

  /** The variable of the object's parent, or why the object cannot be declared without it. */
  private parentOf(def: AnyKindDefinition, spec: ObjectSpec): { variable?: string; missing?: string } {
    if (!def.parent) return {};
    const value = fieldValues(spec)[def.parent.field];
    if (value === undefined) return {};
    const variable = typeof value === 'string' ? this.variableOf(def.parent.kind, value) : undefined;
    const label = isKind(def.parent.kind) ? definitionOf(def.parent.kind).label : def.parent.kind;
    return variable ? { variable } : { missing: `its ${label} ${String(value)} is not declared` };
  }

  private variableOf(kind: string, keyOrLiveId: string): string | undefined {
    return this.variables.get(byKey(kind, keyOrLiveId)) ?? this.variables.get(byLiveId(kind, keyOrLiveId));
  }

  private bind(def: AnyKindDefinition, identity: Identity, liveId: string, variable: string): void {
    this.variables.set(byKey(def.kind, identity.key), variable);
    if (liveId) this.variables.set(byLiveId(def.kind, liveId), variable);
  }

  private refer(variable: string): string {
    this.referenced.add(variable);
    return variable;
  }

  /** Marks the start of a declaration bound to `id` when something refers to it (see `lines`). */
  private marker(id: string): string {
    return `${DECLARE}${id}${DECLARE}`;
  }

  /** Whether `--reference` names the object (by any of its names, each read like a natural key of the kind). */
  private chosen(def: AnyKindDefinition, o: Observed): boolean {
    let wanted = this.wanted.get(def.kind);
    if (!wanted) this.wanted.set(def.kind, (wanted = new Set(this.referenceNames.map((n) => canonicalKey(def, n)))));
    return wanted.size > 0 && referenceNamesOf(def, o).some((n) => wanted.has(canonicalKey(def, n)));
  }
}

/**
 * The `--reference` names that are no name of a listed object whose kind can be
 * referenced (a package's domain names, a cloud server's host name).
 */
export function unmatchedReferences(account: ImportAccount, names: readonly string[]): string[] {
  const kinds = referenceKinds(account.kinds);
  const known = new Set<string>();
  for (const def of kinds) {
    for (const o of account.objects.get(def.kind) ?? []) for (const n of referenceNamesOf(def, o)) known.add(byKey(def.kind, canonicalKey(def, n)));
  }
  return names.filter((n) => !kinds.some((def) => known.has(byKey(def.kind, canonicalKey(def, n)))));
}

/** The kinds whose objects `--reference` can name. */
export function referenceKinds(kinds: readonly Kind[] = DEFINITIONS.map((d) => d.kind)): AnyKindDefinition[] {
  return kinds.map((k) => definitionOf(k)).filter((d) => d.import.reference !== undefined);
}

function referenceNamesOf(def: AnyKindDefinition, o: Observed): readonly string[] {
  return def.import.reference?.names?.(o) ?? [o.identity.key];
}

/** A name as the kind's natural key reads it (lowercase, IDNA...). */
function canonicalKey(def: AnyKindDefinition, name: string): string {
  try {
    return def.canonicalIdentity({ kind: def.kind, key: name.trim(), placement: '', parent: '' }).key;
  } catch {
    return name.trim().toLowerCase(); // not a key of the kind: matches nothing of it
  }
}

/**
 * The object's natural key: from its checked spec when valid, else the listed identity
 * in canonical form (as the listed key reads, when even that fails).
 */
function identityOf(def: AnyKindDefinition, o: Observed, spec: ObjectSpec | undefined): Identity {
  if (spec) return def.identity(spec);
  try {
    return def.canonicalIdentity(o.identity);
  } catch {
    return o.identity;
  }
}

function fieldOf(def: AnyKindDefinition, name: string): FieldDefinition | undefined {
  return def.fields.find((f) => f.name === name);
}

/**
 * A listed object as a checked spec: its fields through the attribute codec (value forms,
 * defaults of what the account does not show), then the kind's check (canonical form, or
 * the rules it breaks).
 */
function checkedSpec(def: AnyKindDefinition, o: Observed): Checked<ObjectSpec> {
  const values = valuesOfSpec(def, o.fields, (f) => f.role !== 'computed' && f.role !== 'write-only');
  return def.check(specFromValues(def, values, `import ${def.kind} ${o.identity.key}`));
}

/** A spec's fields by name (what the facet's props name). */
function fieldValues(spec: ObjectSpec): Readonly<Record<string, unknown>> {
  return spec as unknown as Readonly<Record<string, unknown>>;
}

/** Values a declaration leaves out: none, an empty list or map, an empty optional string, the value of the field it defaults from. */
function unwritten(field: FieldDefinition, value: unknown, spec: Readonly<Record<string, unknown>>): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  if (value === '' && field.presence !== 'required') return true;
  return field.defaultFrom !== undefined && value === spec[field.defaultFrom];
}

/** Objects by natural key (stable: of two with one key, the first listed comes first). */
function sorted(objects: readonly Observed[]): Observed[] {
  return [...objects].sort((a, b) => byText(a.identity.key, b.identity.key));
}
