import { AnyKindDefinition, attributeFieldsOf, canonicalDomain, DEFINITIONS, FieldDefinition, specFromValues } from '../../protocol';
import { list, observe, Observed } from '../../reconcile';
import { tfTypeOf } from '../resources/schema';
import type { TfValue } from '../wire/values';
import { ArgumentProblem, computed, DataAttribute, DataSource, listOf, lookup, optional, ReadResult, required } from './data-source';
import { kindAttributes, kindValues, readDescription } from './from-kind';

/**
 * The data sources a kind's definition asks for (its `dataSources` facet), with nothing
 * written per kind: the singular one (the resource type's name) finds one object by its
 * identity fields, as the resource's import does, through the shared reads; the plural
 * one lists every object of the kind, of one parent when the kind has one (`package`).
 */

const argumentOf = (field: FieldDefinition): DataAttribute => {
  const mode = field.presence === 'required' ? required : field.presence === 'default' ? lookup : optional;
  return mode(field.attribute, tfTypeOf(field.type), readDescription(field.description));
};

/** Attribute values by field name of the known arguments. */
function valuesOf(def: AnyKindDefinition, args: Readonly<Record<string, TfValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of attributeFieldsOf(def)) if (args[f.attribute] !== null && args[f.attribute] !== undefined) out[f.name] = args[f.attribute];
  return out;
}

function singular(def: AnyKindDefinition): DataSource {
  const identity = attributeFieldsOf(def).filter((f) => f.role === 'identity');
  const keys = new Set(identity.map((f) => f.attribute));
  const identityOf = (args: Readonly<Record<string, TfValue>>) => def.canonicalIdentity(def.identity(specFromValues(def, valuesOf(def, args), def.resourceType) as never));
  return {
    typeName: def.resourceType,
    description: `Reads one ${def.label} the configuration does not manage, found by ${identity.map((f) => `\`${f.attribute}\``).join(', ')} (${def.keyName}). One that does not exist fails the plan.`,
    attributes: [
      computed('id', 'string', `The ${def.keyName} (${def.importIdHelp}).`),
      ...identity.map(argumentOf),
      ...kindAttributes(def.kind).filter((a) => !keys.has(a.name)),
    ],
    check(args): ArgumentProblem[] {
      // Checked once every required key is known (a default may follow another key).
      if (identity.some((f) => f.presence === 'required' && (args[f.attribute] === undefined || args[f.attribute] === null))) return [];
      return def.checkIdentity(identityOf(args)).map((problem) => {
        const field = identity.find((f) => problem.startsWith(`${f.name} `) || problem.startsWith(`${f.attribute} `));
        return { attribute: field?.attribute ?? identity[0].attribute, message: field ? problem.slice(problem.indexOf(' ') + 1) : problem };
      });
    },
    async read(args, ctx): Promise<ReadResult> {
      const id = identityOf(args);
      const found = await observe(ctx(), id);
      if (!found) {
        const existing = (await list(ctx(), def.kind)).map((o) => def.formatImportId(o.identity));
        return { notFound: { attribute: identity[identity.length - 1].attribute, value: def.formatImportId(id), what: def.label, existing } };
      }
      return { values: { ...kindValues(found), id: found.identity.key } };
    },
  };
}

/** An English plural of a key's name ('address' -> 'addresses', 'host name' -> 'host names'). */
const plural = (noun: string) => (/(s|x|sh|ch)$/.test(noun) ? `${noun}es` : `${noun}s`);

function pluralSource(def: AnyKindDefinition, typeName: string): DataSource {
  const parent = def.parent && attributeFieldsOf(def).find((f) => f.name === def.parent!.field);
  const listName = typeName.replace(/^reseller_/, '');
  const inParent = (o: Observed, wanted: string | undefined) => wanted === undefined || String(o.fields[parent!.name]).toLowerCase() === wanted;
  return {
    typeName,
    description: `Lists the ${def.label}s of the account${parent ? `, optionally those of one ${parent.words ?? parent.attribute}` : ''}. No match is an empty list.`,
    attributes: [
      ...(parent ? [optional(parent.attribute, tfTypeOf(parent.type), `Only the ${def.label}s of this ${parent.words ?? parent.attribute} (${readDescription(parent.description)})`)] : []),
      computed(listName, listOf(kindAttributes(def.kind)), `The ${def.label}s, by ${def.keyName}.`),
      computed('ids', ['list', 'string'], `Their ${plural(def.keyName)} (${def.importIdHelp}), in the same order.`),
    ],
    async read(args, ctx): Promise<ReadResult> {
      const raw = parent ? args[parent.attribute] : undefined;
      const wanted = typeof raw === 'string' ? canonicalDomain(raw) : undefined;
      // With a parent given, a kind may read that parent's lists alone (one read instead of one per parent).
      const found = (await list(ctx(), def.kind, { within: wanted })).filter((o) => inParent(o, wanted)).sort((a, b) => a.identity.key.localeCompare(b.identity.key));
      return { values: { [listName]: found.map(kindValues), ids: found.map((o) => o.identity.key) } };
    },
  };
}

/** The data sources of every kind whose definition has the `dataSources` facet. */
export function kindDataSources(): DataSource[] {
  return DEFINITIONS.flatMap((def) => (def.dataSources ? [singular(def), pluralSource(def, def.dataSources.plural)] : []));
}
