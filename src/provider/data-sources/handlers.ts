import type { ReconcileContext } from '../../reconcile';
import { attributePath, Diagnostic, error, messageOf } from '../diagnostics';
import type { Schema } from '../wire/rpc';
import { containsUnknown, decodeDynamic, encodeDynamic, TfObject, TfType, typeJson, UNKNOWN } from '../wire/values';
import { closestNames } from './closest';
import { DataSource, NotFound, objectTypeOfData, ReadResult } from './data-source';

/**
 * The tfplugin6 data-source RPCs over a table of data sources (provider.ts registers
 * them): schemas, ValidateDataResourceConfig and ReadDataSource. Nothing here knows a
 * particular data source.
 */

export interface DataSourceModel {
  readonly sources: readonly DataSource[];
  /** The provider's shared reconcile context (throws before ConfigureProvider). */
  readonly context: () => ReconcileContext;
}

/** The `Schema` message of a data source (or of an ephemeral resource: the same table of attributes). */
export function dataSchemaMessageOf(source: Pick<DataSource, 'attributes' | 'description'>): Schema {
  const attributes = source.attributes.map((a) => ({
    name: a.name,
    type: typeJson(a.type),
    description: a.description,
    required: a.mode === 'required',
    optional: a.mode === 'optional' || a.mode === 'lookup',
    computed: a.mode === 'lookup' || a.mode === 'computed',
    ...(a.sensitive ? { sensitive: true } : {}),
  }));
  return { version: 0, block: { version: 0, attributes, description: source.description } };
}

/** The config of a data source (or ephemeral resource) decoded by its object type (an absent one: empty). */
export function decodeArguments(value: unknown, type: TfType): TfObject {
  return (decodeDynamic(value as never, type) ?? {}) as TfObject;
}

/** Rules of the known arguments (unknown ones are checked when known, at apply): exactly one of `oneOf`, then `check`. */
export function argumentDiagnostics(source: Pick<DataSource, 'typeName' | 'oneOf' | 'check'>, config: TfObject): Diagnostic[] {
  const known = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== null && !containsUnknown(v)));
  const out: Diagnostic[] = [];
  if (source.oneOf) {
    const given = source.oneOf.filter((k) => config[k] !== null && config[k] !== undefined);
    if (given.length > 1) {
      out.push(error(`${source.typeName}: give only one of ${source.oneOf.join(', ')}`, `Given: ${given.join(', ')}.`, attributePath(given[1])));
    } else if (given.length === 0) {
      out.push(error(`${source.typeName}: one of ${source.oneOf.join(', ')} is required`, 'It says which object to read.'));
    }
  }
  for (const p of source.check?.(known) ?? []) out.push(error(`${source.typeName}: ${p.attribute} ${p.message}`, '', attributePath(p.attribute)));
  return out;
}

const isArgument = (mode: string) => mode !== 'computed';

/** The diagnostic of a look-up that found nothing: the data source, the key and the closest names. */
export function notFoundDiagnostic(source: Pick<DataSource, 'typeName'>, missing: NotFound): Diagnostic {
  const near = closestNames(missing.value, missing.existing);
  const detail = near.length
    ? `No ${missing.what} of the account has ${missing.attribute} "${missing.value}". Closest existing: ${near.join(', ')}.`
    : `No ${missing.what} of the account has ${missing.attribute} "${missing.value}": the account has none.`;
  return error(`${source.typeName}: ${missing.what} "${missing.value}" not found`, detail, attributePath(missing.attribute));
}

export function dataSourceHandlers(model: DataSourceModel | undefined) {
  const sources = new Map((model?.sources ?? []).map((s) => [s.typeName, s]));
  const types = new Map([...sources.values()].map((s) => [s.typeName, objectTypeOfData(s)]));
  const unknownType = (typeName: string) => ({
    diagnostics: [error(`Unknown data source ${typeName}`, `The reseller provider offers: ${[...sources.keys()].join(', ')}.`)],
  });
  const decode = decodeArguments;
  const validate = argumentDiagnostics;

  return {
    metadata: () => [...sources.keys()].map((typeName) => ({ typeName })),
    schemas: () => Object.fromEntries([...sources.values()].map((s) => [s.typeName, dataSchemaMessageOf(s)])),
    ValidateDataResourceConfig: async (req: { typeName: string; config?: unknown }) => {
      const source = sources.get(req.typeName);
      if (!source) return unknownType(req.typeName);
      return { diagnostics: validate(source, decode(req.config, types.get(source.typeName)!)) };
    },
    ReadDataSource: async (req: { typeName: string; config?: unknown }) => {
      const source = sources.get(req.typeName);
      if (!source) return unknownType(req.typeName);
      const { value, diagnostics } = await readEntry(source, req.config, types.get(source.typeName)!, (config) => source.read(config, model!.context));
      return value ? { state: value, diagnostics } : { diagnostics };
    },
  };
}

/**
 * One read of a table entry (a data source's read, an ephemeral resource's open): its
 * config decoded; an argument known only after apply makes every result unknown
 * (Terraform reads again when it is known); then the rules, the read, and the object
 * encoded, or the diagnostics that say why not.
 */
export async function readEntry(
  source: Pick<DataSource, 'typeName' | 'attributes' | 'oneOf' | 'check'>,
  rawConfig: unknown,
  type: TfType,
  read: (config: TfObject) => Promise<ReadResult>,
): Promise<{ value?: { msgpack: Buffer }; diagnostics: Diagnostic[] }> {
  const config = decodeArguments(rawConfig, type);
  const object: TfObject = {};
  for (const a of source.attributes) object[a.name] = config[a.name] ?? null;
  if (source.attributes.some((a) => isArgument(a.mode) && containsUnknown(config[a.name]))) {
    for (const a of source.attributes) if (a.mode === 'computed' || (a.mode === 'lookup' && object[a.name] === null)) object[a.name] = UNKNOWN;
    return { value: encodeDynamic(object, type), diagnostics: [] };
  }
  const problems = argumentDiagnostics(source, config);
  if (problems.length) return { diagnostics: problems };
  try {
    const result = await read(config);
    if ('notFound' in result) return { diagnostics: [notFoundDiagnostic(source, result.notFound)] };
    for (const a of source.attributes) if (a.mode === 'computed' || a.mode === 'lookup') object[a.name] = result.values[a.name] ?? null;
    return { value: encodeDynamic(object, type), diagnostics: [] };
  } catch (err) {
    return { diagnostics: [error(`${source.typeName}: cannot read the account`, messageOf(err))] };
  }
}
