import { AnyKindDefinition, attributeFieldsOf, checkSpec, DEFINITIONS, identityOf, ObjectSpec, specFromValues } from '../protocol';
import type { DesiredObject } from './desired';

/**
 * The desired state of a provider-engine stack: its `reseller_*` resources, whose
 * attributes are the objects' fields (named by the kind definitions). A value that is a
 * reference to another resource's literal attribute (`${reseller_package.site.domain_name}`,
 * how a mailbox names its package) or to a data source's literal argument
 * (`${data.reseller_package.site_ref.domain_name}`, how it names a package read through
 * `HostingPackage.fromDomainName`) is resolved here; any other expression makes the
 * object's spec unknown (only Terraform can evaluate it), as with the carriers. The
 * values become a spec through the protocol's attribute codec, as in the provider.
 */

/** Marks a value only Terraform can evaluate. */
const UNKNOWN = Symbol('unknown');

/**
 * The value of an attribute as written in the stack: literal JSON, a `${type.name.attr}`
 * reference to a literal attribute of another resource of the stack, or UNKNOWN.
 */
function literalValue(value: unknown, resources: Record<string, Record<string, any>>, depth = 0): unknown {
  if (typeof value === 'string') {
    const ref = /^\$\{((?:data\.)?[a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)\}$/.exec(value);
    if (ref && depth < 4) {
      const target = resources[ref[1]]?.[ref[2]];
      if (target && ref[3] in target) return literalValue(target[ref[3]], resources, depth + 1);
      return UNKNOWN;
    }
    const text = literalString(value);
    return text === undefined ? UNKNOWN : text;
  }
  if (Array.isArray(value)) {
    const items = value.map((v) => literalValue(v, resources, depth));
    return items.includes(UNKNOWN) ? UNKNOWN : items;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const lit = literalValue(v, resources, depth);
      if (lit === UNKNOWN) return UNKNOWN;
      out[k] = lit;
    }
    return out;
  }
  return value;
}

/** `${` / `%{` start expressions; `$${` / `%%{` are their escapes (see desired.ts literalText). */
function literalString(value: string): string | undefined {
  if (!value.includes('{')) return value;
  const unescaped = value.replace(/\$\$\{|%%\{/g, (m) => `${m[0]}\u0000`);
  if (/[$%]\{/.test(unescaped)) return undefined;
  return unescaped.replace(/([$%])\u0000/g, '$1{');
}

/** `NAME` of `${var.NAME}`. */
function variableOf(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(value) : null;
  return m ? m[1] : undefined;
}

/**
 * Provider resources of one stack's `resource` block, as declared objects; `data` is the
 * stack's `data` block, whose literal arguments references may name.
 */
export function readProviderObjects(stack: string, resources: Record<string, Record<string, any>>, data: Record<string, Record<string, any>> = {}): DesiredObject[] {
  // References look targets up by `type` or `data.type`, as they are written.
  const targets = { ...resources, ...Object.fromEntries(Object.entries(data).map(([type, bodies]) => [`data.${type}`, bodies])) };
  const out: DesiredObject[] = [];
  for (const def of DEFINITIONS) {
    for (const [name, body] of Object.entries(resources[def.resourceType] ?? {})) out.push(readOne(stack, def, name, body ?? {}, targets));
  }
  return out;
}

function readOne(stack: string, def: AnyKindDefinition, name: string, body: Record<string, any>, resources: Record<string, Record<string, any>>): DesiredObject {
  const address = `${def.resourceType}.${name}`;
  const metaPath: unknown = body?.['//']?.metadata?.path;
  // The constructs name the resource `<construct path>/Resource` (engine 'provider').
  const path = typeof metaPath === 'string' ? metaPath.replace(/\/Resource$/, '') : `${stack}/${name}`;
  const absent = body.count === 0 || body.count === '0';
  const values: Record<string, unknown> = {};
  let unknownSpec = false;
  let secretVariable: string | undefined;
  for (const field of attributeFieldsOf(def)) {
    const attribute = field.attribute;
    if (field.role === 'write-only') {
      secretVariable = variableOf(body[attribute]);
      continue;
    }
    if (field.role === 'computed' || !(attribute in body) || body[attribute] === null) continue;
    const value = literalValue(body[attribute], resources);
    if (value === UNKNOWN) unknownSpec = true;
    else values[field.name] = value;
  }

  let spec: ObjectSpec | undefined;
  let specError: string | undefined;
  if (!unknownSpec) {
    const checked = checkSpec(specFromValues(def, values, path), address);
    if (checked.problems.length) specError = checked.problems.map((p) => p.message).join('; ');
    else spec = checked.spec;
  }
  return {
    stack,
    address,
    resourceType: def.resourceType,
    logicalId: name,
    path,
    absent,
    identity: spec ? { ...identityOf(spec), parent: '' } : undefined,
    kind: def.kind,
    spec,
    unknownSpec,
    specError,
    secretVariable,
  };
}
