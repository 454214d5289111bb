import { coreModel } from '../../src/provider/kind-resources';
import { providerHandlers } from '../../src/provider/provider';
import type { ResourceField, ResourceKind } from '../../src/provider/resources/kind';
import { isMootOnceMade, replaceNote } from '../../src/provider/resources/schema';

/**
 * What the docs are generated from: the provider's own GetProviderSchema answer, asked
 * in-process of the same handlers Terraform talks to (so a schema change made anywhere
 * reaches the docs by re-running `npm run docs`), plus the facts of each attribute that
 * the schema message cannot carry (fixed after creation, not read back, defaults) from
 * the same resource kinds the schema is built from.
 */

/** A cty type as the schema message states it (JSON): "string", ["list","string"], ["object",{...}]. */
export type CtyType = string | [string, CtyType] | ['object', Record<string, CtyType>];

export interface DocAttribute {
  readonly name: string;
  readonly type?: CtyType;
  /** Attributes of a nested-attribute type (`nested_type`), if any. */
  readonly nested?: { readonly nesting: number; readonly attributes: readonly DocAttribute[] };
  readonly description: string;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
  /** Sentences the definitions add (replaces, fixed after creation, not read back, ...). */
  readonly notes: readonly string[];
}

export interface DocNestedBlock {
  readonly name: string;
  /** Schema.NestedBlock.NestingMode: 1 single, 2 list, 3 set, 4 map, 5 group. */
  readonly nesting: number;
  readonly minItems: number;
  readonly maxItems: number;
  readonly block: DocBlock;
}

export interface DocBlock {
  readonly description: string;
  readonly deprecated: boolean;
  readonly attributes: readonly DocAttribute[];
  readonly blocks: readonly DocNestedBlock[];
}

export interface DocType {
  /** `reseller_package`. */
  readonly typeName: string;
  readonly block: DocBlock;
  /** What an import id looks like (resources whose kind states it). */
  readonly importIdHelp?: string;
}

export interface ProviderDocsSource {
  readonly provider: DocBlock;
  readonly resources: readonly DocType[];
  readonly dataSources: readonly DocType[];
  readonly ephemeralResources: readonly DocType[];
}

type Message = Record<string, any>;

/** The schema as Terraform receives it, with the kinds' notes; sorted by type name. */
export async function loadProviderDocsSource(): Promise<ProviderDocsSource> {
  const env: NodeJS.ProcessEnv = {};
  const model = coreModel(env);
  const quiet = { log: () => undefined };
  const answer = (await providerHandlers(model, quiet, env).GetProviderSchema!({})) as Message;
  const problems = (answer.diagnostics ?? []) as Message[];
  if (problems.length) throw new Error(`GetProviderSchema answered: ${problems.map((d) => d.summary).join('; ')}`);
  const kinds = new Map<string, ResourceKind>(model.kinds.map((k) => [k.typeName, k]));
  const types = (schemas: Record<string, Message> | undefined, withKinds: boolean): DocType[] =>
    Object.keys(schemas ?? {}).sort().map((typeName) => {
      const kind = withKinds ? kinds.get(typeName) : undefined;
      return { typeName, block: blockOf(schemas![typeName].block ?? {}, kind), importIdHelp: kind?.importIdHelp };
    });
  return {
    provider: blockOf(answer.provider?.block ?? {}),
    resources: types(answer.resourceSchemas, true),
    dataSources: types(answer.dataSourceSchemas, false),
    ephemeralResources: types(answer.ephemeralResourceSchemas, false),
  };
}

function blockOf(block: Message, kind?: ResourceKind): DocBlock {
  const fields = new Map((kind?.fields ?? []).map((f) => [f.attribute, f]));
  return {
    description: block.description ?? '',
    deprecated: Boolean(block.deprecated),
    attributes: ((block.attributes ?? []) as Message[]).map((a) => attributeOf(a, fields.get(a.name))),
    blocks: ((block.blockTypes ?? []) as Message[]).map((b) => ({
      name: b.typeName,
      nesting: Number(b.nesting ?? 0),
      minItems: Number(b.minItems ?? 0),
      maxItems: Number(b.maxItems ?? 0),
      block: blockOf(b.block ?? {}),
    })),
  };
}

function attributeOf(attr: Message, field: ResourceField | undefined): DocAttribute {
  const description = attr.description ?? '';
  const nestedType = attr.nestedType as Message | undefined;
  return {
    name: attr.name,
    type: attr.type && attr.type.length ? (JSON.parse(Buffer.from(attr.type).toString('utf8')) as CtyType) : undefined,
    nested: nestedType
      ? { nesting: Number(nestedType.nesting ?? 0), attributes: ((nestedType.attributes ?? []) as Message[]).map((a) => attributeOf(a, undefined)) }
      : undefined,
    description,
    required: Boolean(attr.required),
    optional: Boolean(attr.optional),
    computed: Boolean(attr.computed),
    sensitive: Boolean(attr.sensitive),
    writeOnly: Boolean(attr.writeOnly),
    deprecated: Boolean(attr.deprecated),
    notes: field ? notesOf(field, description, Boolean(attr.optional) && Boolean(attr.computed)) : [],
  };
}

/**
 * The behaviour a field's definition states, in the words the docs use. An optional
 * setting the schema also marks computed, with no default, keeps the live value when
 * the configuration leaves it out.
 */
export function notesOf(field: ResourceField, description: string, optionalComputed: boolean): string[] {
  const notes: string[] = [];
  if (field.role === 'identity' && !/replace/i.test(description)) notes.push(replaceNote(field));
  if (field.role === 'create-only' && !/creation only/i.test(description)) notes.push('Applied at creation only: a later change is recorded in state with a warning, not sent (replace the resource to apply it).');
  if (field.fixedAfterCreate) notes.push('Fixed after creation: the API cannot change it once the object exists, so Terraform reports a change to it instead of making it.');
  if (!field.readable && field.role !== 'write-only' && field.role !== 'computed') notes.push('Not read back from the API: a change made outside Terraform does not show in the plan.');
  if (field.presence === 'default' && field.defaultValue !== undefined) notes.push(`Defaults to \`${JSON.stringify(field.defaultValue)}\`.`);
  else if (field.role === 'setting' && field.presence === 'optional' && optionalComputed) notes.push('When omitted, follows the live object: leaving it out means "leave it alone", not "empty".');
  if (isMootOnceMade(field)) notes.push('An import records the default, as the value chosen at creation cannot be read back.');
  return notes;
}
