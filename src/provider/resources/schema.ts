import { NESTING_SINGLE } from '../wire/messages';
import type { Schema, SchemaAttribute } from '../wire/rpc';
import { TfType, typeJson } from '../wire/values';
import type { FieldType, ResourceField, ResourceKind } from './kind';

/**
 * The Terraform schema of a resource type, derived from its kind's fields:
 * - identity fields are plain attributes whose change plans a replacement;
 * - readable settings with a default or left alone when absent are optional + computed,
 *   so a value the user does not declare follows the live object instead of showing
 *   drift (settings that cannot be read back have nothing to learn, so they are not);
 * - create-only fields are optional/required attributes (kept in state, not read); one with
 *   a default is also computed (isMootOnceMade), so that an import can record the default;
 * - the write-only field is `write_only` and sensitive: Terraform never stores it;
 * - computed facts, and `id` (the natural key), are computed.
 */

export const ID_ATTRIBUTE = 'id';
export const TIMEOUTS_BLOCK = 'timeouts';

export function tfTypeOf(type: FieldType): TfType {
  switch (type) {
    case 'list(string)':
      return ['list', 'string'];
    case 'set(string)':
      return ['set', 'string'];
    case 'map(string)':
      return ['map', 'string'];
    default:
      return type;
  }
}

export interface AttributeFlags {
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly writeOnly: boolean;
  readonly sensitive: boolean;
}

/**
 * A field that matters only when the object is made (applied at creation, never read
 * back) and has a default. An import cannot know what was chosen then, and nothing
 * applies it now, so the imported state records the default: an import that declares
 * the default, or leaves it out, then plans no change (another value plans one, with
 * the create-only warning). To allow that the attribute is computed: left out, a create
 * plans the default and an update keeps what the state records (null in a state written
 * before this rule). Settings the object keeps (a cloud server's branding, fixed after
 * creation) are not such fields: an import leaves them null, and the next plan shows
 * what the configuration records.
 */
export function isMootOnceMade(field: ResourceField): boolean {
  return field.role === 'create-only' && !field.readable && field.presence === 'default' && field.defaultValue !== undefined;
}

export function flagsOf(field: ResourceField): AttributeFlags {
  const required = field.presence === 'required' && field.role !== 'computed';
  const optional = !required && field.role !== 'computed';
  // A default the core derives from other fields (a mail domain defaults to the package's) is computed too.
  const computed = field.role === 'computed' || (field.role === 'setting' && !required && field.readable) ||
    (field.role === 'identity' && field.presence === 'default') || isMootOnceMade(field);
  return {
    required,
    optional,
    computed,
    writeOnly: field.role === 'write-only',
    sensitive: field.role === 'write-only' || Boolean(field.sensitive),
  };
}

/** The cty object type of a resource's whole value (attributes, `id`, the `timeouts` block). */
export function objectTypeOf(kind: ResourceKind): TfType {
  const attrs: Record<string, TfType> = { [ID_ATTRIBUTE]: 'string' };
  for (const field of kind.fields) attrs[field.attribute] = tfTypeOf(field.type);
  if (kind.timeouts) attrs[TIMEOUTS_BLOCK] = ['object', { create: 'string' }];
  return ['object', attrs];
}

/** What changing an identity field does, in the schema's and the docs' words. */
export function replaceNote(field: ResourceField): string {
  return field.replacedInOneWrite
    ? 'Changing it replaces the object in one write of the API (the new one added, the old one deleted at once): the plan shows an update in place.'
    : 'Changing it replaces the object.';
}

/** The `Schema` message of a resource type. */
export function schemaMessageOf(kind: ResourceKind): Schema {
  const attributes: SchemaAttribute[] = [
    { name: ID_ATTRIBUTE, type: typeJson('string'), computed: true, description: `Natural key of the ${kind.label} (${kind.importIdHelp}).` },
  ];
  for (const field of kind.fields) {
    const flags = flagsOf(field);
    const replaces = field.role === 'identity' ? ` ${replaceNote(field)}` : '';
    const description = field.description + (replaces && !field.description.includes('replace') ? replaces : '');
    attributes.push({ name: field.attribute, type: typeJson(tfTypeOf(field.type)), description, ...flags });
  }
  const blockTypes = kind.timeouts
    ? [{
        typeName: TIMEOUTS_BLOCK,
        nesting: NESTING_SINGLE,
        block: {
          attributes: [{ name: 'create', type: typeJson('string'), optional: true, description: `How long to wait for a new ${kind.label} to be ready, e.g. "45m" (default ${kind.timeouts.create}). An interrupt (Ctrl-C) ends the wait at once; the request already made stands, and the next apply waits for it instead of making it again.` }],
          description: 'How long long-running operations may take.',
        },
      }]
    : [];
  return { version: 0, block: { version: 0, attributes, blockTypes, description: kind.description } };
}
