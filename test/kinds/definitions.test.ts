import {
  attributesOfSpec, attributeValuesOf, DEFINITIONS, definitionOf, identityOfAttributes, isKind, KINDS, specFromValues, TERRAFORM_META_ARGUMENTS,
} from '../../src/protocol';
import { FIXTURES } from './fixtures';

/**
 * The kind contract, part 1 (pure): every definition is complete and consistent, and
 * its fixture round-trips through the import id and the attribute codec. A missing
 * piece of a new kind fails the check named after it.
 */
describe.each(DEFINITIONS.map((d) => [d.kind]))('kind %s', (kind) => {
  const def = definitionOf(kind);
  const fixture = FIXTURES[kind];
  const checked = def.check(fixture.spec as never);

  test('definition: its fixture spec is valid', () => {
    expect(checked.problems).toEqual([]);
  });

  test('definition: no attribute is a Terraform meta-argument, attribute names are unique snake_case', () => {
    const attributes = def.fields.filter((f) => !f.carrierOnly).map((f) => f.attribute);
    expect(attributes.filter((a) => TERRAFORM_META_ARGUMENTS.includes(a))).toEqual([]);
    expect(new Set(attributes).size).toBe(attributes.length);
    for (const a of attributes) expect(a).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  test('definition: a secret facet names its three fields, declared as secretFields declares them (write-only value, version, carriers\' variable)', () => {
    if (!def.secret) return expect(def.fields.filter((f) => f.role === 'write-only')).toEqual([]);
    const { field, versionField, envField } = def.secret;
    const by = (name: string) => def.fields.find((f) => f.name === name);
    const attribute = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(by(field)).toMatchObject({ role: 'write-only', readable: false, attribute: `${attribute}_wo` });
    expect(by(versionField)).toMatchObject({ role: 'setting', type: 'number', readable: false, attribute: `${attribute}_wo_version` });
    expect(by(envField)).toMatchObject({ role: 'setting', carrierOnly: true, attribute: `${attribute}_env` });
    expect(def.fields.filter((f) => f.role === 'write-only').map((f) => f.name)).toEqual([field]);
  });

  test('definition: facets name real fields and kinds', () => {
    const names = new Set(def.fields.map((f) => f.name));
    if (def.parent) {
      expect(isKind(def.parent.kind)).toBe(true);
      expect(names.has(def.parent.field)).toBe(true);
    }
    if (def.createTimeout) expect(names.has(def.createTimeout.field)).toBe(true);
    for (const f of def.fields) if (f.defaultFrom) expect(names.has(f.defaultFrom)).toBe(true);
    for (const f of def.lifecycle?.replacesInOneWrite?.keeping ?? []) expect(names.has(f)).toBe(true);
    for (const s of def.jsonSettings) expect(Object.keys(def.settings(checked.spec as never))).toContain(s);
    expect(def.description.length).toBeGreaterThan(10);
    expect(def.resourceType).toMatch(/^reseller_[a-z_]+$/);
  });

  test('import id: parse(fixture) is the identity of the spec, and format is its inverse', () => {
    const identity = { ...def.identity(checked.spec as never), parent: '' };
    const parsed = def.parseImportId(fixture.importId);
    expect(parsed).toEqual(identity);
    expect(def.parseImportId(def.formatImportId(identity))).toEqual(identity);
  });

  test('codec: the spec as attributes decodes back to the same spec', () => {
    const attributes = attributesOfSpec(def, checked.spec as never);
    const back = def.check(specFromValues(def, attributeValuesOf(def, attributes), checked.spec.path) as never);
    expect(back.problems).toEqual([]);
    const declarable = def.fields.filter((f) => f.role !== 'computed' && f.role !== 'write-only');
    const pick = (s: object) => Object.fromEntries(declarable.map((f) => [f.name, (s as Record<string, unknown>)[f.name]]).filter(([, v]) => v !== undefined && !(typeof v === 'object' && v && !Array.isArray(v) && Object.keys(v).length === 0)));
    expect(pick(back.spec)).toEqual(pick(checked.spec));
    expect(identityOfAttributes(def, attributes)?.key).toBe(def.identity(checked.spec as never).key);
  });
});

test('every kind has a definition, in parent-first order', () => {
  expect(KINDS).toEqual(DEFINITIONS.map((d) => d.kind));
  for (const def of DEFINITIONS) if (def.parent) expect(definitionOf(def.parent.kind as never).order).toBeLessThan(def.order);
});
