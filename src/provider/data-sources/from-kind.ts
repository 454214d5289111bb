import { attributeFieldsOf, attributeValueOf, definitionOf, FieldDefinition, Kind } from '../../protocol';
import type { Observed } from '../../reconcile';
import { tfTypeOf } from '../resources/schema';
import { attributeValue } from '../resources/values';
import type { TfObject } from '../wire/values';
import { computed, DataAttribute } from './data-source';

/**
 * The attributes a data source reads of a kind's object, from the kind's definition (one
 * table for resources and data sources): every field the API reads back, and the
 * computed facts, with the resource's attribute names, types and descriptions.
 */

const readBack = (f: FieldDefinition) => f.readable || f.role === 'computed';

/** A resource field's description, without what only a resource does (replacing the object when it changes). */
export function readDescription(text: string): string {
  return text.replace(/[;,]\s*changing it replaces [^.;]*/i, '').replace(/\s*Changing it replaces the object\./, '');
}

/** The read-back fields of a kind as computed attributes. */
export function kindAttributes(kind: Kind): DataAttribute[] {
  return attributeFieldsOf(definitionOf(kind)).filter(readBack).map((f) => computed(f.attribute, tfTypeOf(f.type), readDescription(f.description)));
}

/** One field of a kind as an attribute (its name, type and description), in another mode. */
export function kindAttribute(kind: Kind, field: string, as: (name: string, type: DataAttribute['type'], description: string) => DataAttribute = computed): DataAttribute {
  const f = definitionOf(kind).fields.find((x) => x.name === field);
  if (!f) throw new Error(`${kind} has no field ${field}`);
  return as(f.attribute, tfTypeOf(f.type), readDescription(f.description));
}

/** An observed object's read-back fields as attribute values (absent: null). */
export function kindValues(observed: Observed): TfObject {
  const out: TfObject = {};
  for (const f of attributeFieldsOf(definitionOf(observed.kind)).filter(readBack)) {
    const source = f.role === 'computed' ? observed.computed : observed.fields;
    out[f.attribute] = f.name in source ? attributeValue(attributeValueOf(f, source[f.name])) : null;
  }
  return out;
}
