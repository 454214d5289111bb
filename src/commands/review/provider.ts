import {
  AnyKindDefinition, attributeValuesOf, DEFINITIONS, definitionOfResourceType, FieldDefinition, identityOfAttributes, Kind, kindLabel, specFromValues, specValueOf,
} from '../../protocol';
import { asObject, JsonObject, NO_VALUE, ResourceChange } from './plan';

/**
 * Review of the native provider's resources (`reseller_package`, `reseller_mailbox`,
 * ...): their plan values are the objects' attributes, so a change is read attribute
 * by attribute and named with the kind definitions' field roles. A write-only
 * secret is never read: Terraform keeps it out of the plan, and this code does not
 * look at write-only attributes even if a plan had one.
 */

/** The provider resource types this review understands. */
export const PROVIDER_TYPES: ReadonlySet<string> = new Set(DEFINITIONS.map((d) => d.resourceType));

/** One attribute that changes, in display form (JSON of the values). */
export interface AttributeChange {
  /** camelCase field name (as in the construct props and drift). */
  readonly field: string;
  /** Domain words: 'target', 'extra domain names'. */
  readonly words: string;
  readonly before: string;
  readonly after: string;
  readonly sensitive?: boolean;
  /**
   * Why the change only goes into the state, when it does: a creation-time choice of an
   * object that exists (`create-only`), or a value the API does not read back where the
   * state had none (after an import). Nothing is written to the account for it.
   */
  readonly recordedOnly?: 'applied at creation only' | 'not read back from the API';
  /** The field is the version of the kind's secret (its secret facet): a change is a rotation, said in these words. */
  readonly secretVersion?: SecretWords;
  /** The field's own sentences for the change (its definition's `phrases`), which replace the generic wording. */
  readonly phrased?: readonly string[];
}

/**
 * The sentences a field's `phrases` facet gives for a change of it (values in spec form,
 * `undefined` for none), or undefined when the field has none: the generic wording then.
 */
export function phrasesOf(
  field: FieldDefinition, key: string, before: unknown, after: unknown, others: Readonly<Record<string, unknown>>, drift = false,
): readonly string[] | undefined {
  return field.phrases?.describe({ key, before, after, others, ...(drift ? { drift } : {}) });
}

/** An attribute value in the spec's form (null: none). */
const specFormOf = (field: FieldDefinition, value: unknown) => (value === null || value === undefined ? undefined : specValueOf(field, value));

/** A resource's attribute values as a (checked) spec, when they make one: what a lifecycle facet of the kind words. */
export function specOfAttributes(def: AnyKindDefinition, values: unknown, address: string): unknown {
  const v = asObject(values);
  if (!v) return undefined;
  const checked = def.check(specFromValues(def, attributeValuesOf(def, v), address) as never, address);
  return checked.problems.length ? undefined : checked.spec;
}
/** What review says of a kind's secret: 'password' of 'the mailbox'. */
export interface SecretWords {
  readonly words: string;
  readonly holder: string;
  /** The field to raise to set the declared one (`passwordVersion`). */
  readonly versionField: string;
}

/** The secret words of a kind, when it has a secret. */
export function secretWordsOf(def: AnyKindDefinition): SecretWords | undefined {
  return def.secret && { words: def.secret.words, holder: def.label, versionField: def.secret.versionField };
}

/** `password rotated (version 1 -> 2)`. */
export function rotationText(words: string, before: string, after: string, arrow = '->'): string {
  return `${words} rotated (version ${before} ${arrow} ${after})`;
}

/** `password version 2 recorded; the mailbox keeps its current password`. */
export function versionRecordedText(secret: SecretWords, version: string): string {
  return `${secret.words} version ${version} recorded; the ${secret.holder} keeps its current ${secret.words}`;
}

/** What review calls a field: its definition's words, else its name in words. */
export function wordsOf(field: FieldDefinition): string {
  return field.words ?? field.name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}

interface BoundField {
  readonly field: FieldDefinition;
  readonly attribute: string;
}

function fieldsOf(def: AnyKindDefinition): BoundField[] {
  return def.fields.filter((f) => !f.carrierOnly).map((field) => ({ field, attribute: field.attribute }));
}

export function kindOfType(type: string): Kind | undefined {
  return definitionOfResourceType(type)?.kind;
}

/**
 * The natural key of a provider resource's values: its `id` attribute (the provider sets
 * it to the natural key), else the identity the definition derives from the attributes.
 */
export function naturalKeyOf(type: string, values: unknown): string | undefined {
  const v = asObject(values);
  const def = definitionOfResourceType(type);
  if (!v || !def) return undefined;
  if (typeof v.id === 'string' && v.id) return v.id;
  return identityOfAttributes(def, v)?.key;
}

/** Display text of one attribute value. */
function display(value: unknown): string {
  if (value === undefined || value === null) return NO_VALUE;
  if (Array.isArray(value)) return JSON.stringify([...value].map(String).sort());
  return JSON.stringify(value);
}

const unknownIn = (mask: unknown, attribute: string) => mask === true || asObject(mask)?.[attribute] === true;
/** Whether any part of a `*_sensitive` mask is true (a list's mask is a list, `[]` when nothing in it is). */
const anyTrue = (mask: unknown): boolean =>
  mask === true || (Array.isArray(mask) ? mask.some(anyTrue) : mask !== null && typeof mask === 'object' && Object.values(mask).some(anyTrue));
const sensitiveIn = (mask: unknown, attribute: string) => mask === true || anyTrue(asObject(mask)?.[attribute]);

/** Same value for a review: lists compare as sets (the API keeps no order of extra domains). */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return display(a) === display(b);
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The attributes of `roles` that differ between before and after. Computed facts (ids)
 * and write-only secrets are never listed; a sensitive value only as `(changed)`.
 */
export function attributeChanges(
  rc: Pick<ResourceChange, 'type' | 'before' | 'after' | 'afterUnknown' | 'beforeSensitive' | 'afterSensitive'>,
  roles: ReadonlyArray<FieldDefinition['role']>,
  options: { readonly drift?: boolean } = {},
): AttributeChange[] {
  const def = definitionOfResourceType(rc.type);
  if (!def) return [];
  const before: JsonObject = asObject(rc.before) ?? {};
  const after: JsonObject = asObject(rc.after) ?? {};
  const key = naturalKeyOf(rc.type, rc.before) ?? naturalKeyOf(rc.type, rc.after) ?? '';
  const others = attributeValuesOf(def, after);
  const out: AttributeChange[] = [];
  for (const { field, attribute } of fieldsOf(def)) {
    if (field.role === 'write-only' || field.role === 'computed' || !roles.includes(field.role)) continue;
    const unknown = unknownIn(rc.afterUnknown, attribute);
    if (!unknown && same(before[attribute], after[attribute])) continue;
    const words = wordsOf(field);
    const recordedOnly = field.role === 'create-only' ? 'applied at creation only' as const
      : !field.readable && display(before[attribute]) === NO_VALUE ? 'not read back from the API' as const : undefined;
    const change = sensitiveIn(rc.beforeSensitive, attribute) || sensitiveIn(rc.afterSensitive, attribute)
      ? { field: field.name, words, before: '(sensitive)', after: '(changed)', sensitive: true }
      : { field: field.name, words, before: display(before[attribute]), after: unknown ? '(known after apply)' : display(after[attribute]) };
    const secretVersion = def.secret?.versionField === field.name ? secretWordsOf(def) : undefined;
    const phrased = unknown || 'sensitive' in change
      ? undefined : phrasesOf(field, key, specFormOf(field, before[attribute]), specFormOf(field, after[attribute]), others, options.drift);
    out.push({ ...change, ...(recordedOnly ? { recordedOnly } : {}), ...(secretVersion ? { secretVersion } : {}), ...(phrased ? { phrased } : {}) });
  }
  return out;
}

/** `target changed from "a@x" to "b@y"`; a secret's version as a rotation, never a value. */
export function describeChange(change: AttributeChange): string {
  if (change.sensitive) return `${change.words} (changed)`;
  if (change.phrased) return change.phrased.join('; ');
  if (change.secretVersion) {
    return change.before === NO_VALUE
      ? versionRecordedText(change.secretVersion, change.after)
      : rotationText(change.secretVersion.words, change.before, change.after);
  }
  if (change.recordedOnly) return `${change.words} = ${change.after} (${change.recordedOnly})`;
  return `${change.words} changed from ${change.before} to ${change.after}`;
}

/**
 * The changes of an existing object in words: what is written first, then what only the
 * state records (a secret's version where there was none is one: it is not read back).
 */
export function describeUpdates(list: readonly AttributeChange[]): { writes: string; records: string } {
  return {
    writes: list.filter((c) => !c.recordedOnly).map(describeChange).filter(Boolean).join('; '),
    records: list.filter((c) => c.recordedOnly).map(describeChange).filter(Boolean).join('; '),
  };
}

/** Identity attributes Terraform named as forcing the replacement (`replace_paths`), else those that differ. */
export function replacementCause(rc: ResourceChange, replacePaths: unknown): AttributeChange[] {
  const identity = attributeChanges(rc, ['identity', 'create-only', 'setting']);
  const paths = Array.isArray(replacePaths) ? replacePaths.map((p) => (Array.isArray(p) ? String(p[0]) : '')).filter(Boolean) : [];
  const def = definitionOfResourceType(rc.type);
  if (paths.length && def) {
    const named = new Set(fieldsOf(def).filter((b) => paths.includes(b.attribute)).map((b) => b.field.name));
    const chosen = identity.filter((c) => named.has(c.field));
    if (chosen.length) return chosen;
  }
  return identity.filter((c) => def?.fields.find((f) => f.name === c.field)?.role === 'identity');
}

/** `forwarder sales@example.com`. */
export function objectName(kind: Kind, key: string): string {
  return `${kindLabel(kind)} ${key}`;
}
