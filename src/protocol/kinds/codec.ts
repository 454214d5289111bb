import type { FieldDefinition, KindDefinition } from './definition';
import type { Identity } from './identity';
import type { ObjectSpec } from './index';

/**
 * The one attribute codec (DESIGN §6): between a spec (camelCase fields, value forms of
 * the core: `{ email }`, a package type id as a number) and a resource's attributes
 * (snake_case, strings). The provider, drift (reading provider stacks) and the
 * constructs' provider engine all convert through it, so they cannot disagree.
 *
 * ```ts
 * const values = attributeValuesOf(def, body);          // { domainName: 'example.com', ... }
 * const raw = specFromValues(def, values, 'reseller_package.site');  // defaults filled; check it next
 * attributesOfSpec(def, spec);                            // { domain_name: 'example.com', ... }
 * ```
 */

/** Names Terraform reserves in a resource block (meta-arguments): no attribute may have one. */
export const TERRAFORM_META_ARGUMENTS: readonly string[] = ['count', 'for_each', 'depends_on', 'lifecycle', 'provider', 'provisioner', 'connection'];

/** One attribute value (the e-mail of a user, a package type id as text) as the spec holds it. */
export function specValueOf(field: FieldDefinition, value: unknown): unknown {
  if (field.valueForm === 'user-ref' && typeof value === 'string' && value.includes('@')) return { email: value };
  if (field.valueForm === 'type-ref' && typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value);
  return value;
}

/**
 * One spec (or observed) value as the attribute holds it; undefined for none (and for
 * an empty map, which says nothing). `opaque` values pass as they are (cdktf tokens).
 */
export function attributeValueOf(field: FieldDefinition, value: unknown, opaque: (value: unknown) => boolean = () => false): unknown {
  if (value === undefined || value === null) return undefined;
  if (field.valueForm === 'user-ref' && typeof value === 'object' && !Array.isArray(value) && 'email' in value) return (value as { email: string }).email;
  if (opaque(value)) return value;
  if (field.type === 'string' && typeof value === 'number') return String(value);
  if (field.type === 'map(string)' && typeof value === 'object' && Object.keys(value as object).length === 0) return undefined;
  return value;
}

const attributeFields = new WeakMap<KindDefinition, readonly FieldDefinition[]>();

/**
 * The fields that have a provider attribute (not the carriers' own). Filtered once per
 * definition: the provider's codec walks them several times per resource per call.
 */
export function attributeFieldsOf(def: KindDefinition): readonly FieldDefinition[] {
  let fields = attributeFields.get(def);
  if (!fields) {
    fields = def.fields.filter((f) => !f.carrierOnly);
    attributeFields.set(def, fields);
  }
  return fields;
}

/** Attribute-form values by field name, from a resource body keyed by attribute name (absent and null attributes left out). */
export function attributeValuesOf(def: KindDefinition, attributes: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of attributeFieldsOf(def)) {
    const value = attributes[field.attribute];
    if (value !== undefined && value !== null) values[field.name] = value;
  }
  return values;
}

/**
 * The (unchecked) spec of attribute-form values by field name: value forms converted,
 * defaults filled (the check does not fill them), a `defaultFrom` field from its source.
 * Check it with the definition next.
 */
export function specFromValues(def: KindDefinition, values: Readonly<Record<string, unknown>>, path: string): ObjectSpec {
  const spec: Record<string, unknown> = { kind: def.kind, path };
  for (const field of def.fields) {
    if (field.name in values) spec[field.name] = specValueOf(field, values[field.name]);
    else if (field.presence === 'default' && field.defaultValue !== undefined && field.role !== 'computed') spec[field.name] = field.defaultValue;
  }
  for (const field of def.fields) {
    if (field.defaultFrom && spec[field.name] === undefined && spec[field.defaultFrom] !== undefined) spec[field.name] = spec[field.defaultFrom];
  }
  // Unchecked: the definition's check (next) is what makes it a valid spec.
  return spec as ObjectSpec;
}

/**
 * Attribute-form values by field name of a spec's (or an observed object's) fields that
 * have an attribute; `include` chooses the fields.
 */
export function valuesOfSpec(
  def: KindDefinition, spec: Readonly<Record<string, unknown>>, include: (field: FieldDefinition) => boolean = () => true,
  opaque?: (value: unknown) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of attributeFieldsOf(def)) {
    if (!include(field) || !(field.name in spec)) continue;
    const value = attributeValueOf(field, spec[field.name], opaque);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

/** A spec's declarable fields as attributes (by attribute name): what a resource block says. Write-only and computed fields are not. */
export function attributesOfSpec(def: KindDefinition, spec: ObjectSpec, opaque?: (value: unknown) => boolean): Record<string, unknown> {
  const values = valuesOfSpec(def, spec, (f) => f.role !== 'computed' && f.role !== 'write-only', opaque);
  return Object.fromEntries(attributeFieldsOf(def).filter((f) => f.name in values).map((f) => [f.attribute, values[f.name]]));
}

/** The identity of a resource's attribute values (by attribute name), when they make a valid spec. */
export function identityOfAttributes(def: KindDefinition, attributes: Readonly<Record<string, unknown>>): Identity | undefined {
  const { spec, problems } = def.check(specFromValues(def, attributeValuesOf(def, attributes), def.resourceType));
  return problems.length ? undefined : def.identity(spec);
}
