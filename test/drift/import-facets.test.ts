import { DEFINITIONS, isKind } from '../../src/protocol';

/**
 * The import facet of every kind (src/protocol/kinds/<kind>.ts) against its own
 * definition: `reseller-hosting import` writes props from the fields the facet names, so
 * a facet that names a field the kind lacks, or a kind that does not exist, would only
 * fail when an account holds such an object. A new kind's facet is checked here too.
 */
const propsOf = (def: (typeof DEFINITIONS)[number]) => def.import.props.map((p) => (typeof p === 'string' ? { field: p } : p));

describe.each(DEFINITIONS.map((d) => [d.kind, d] as const))('the import facet of %s', (_kind, def) => {
  it('names fields the kind declares: no computed or write-only field, each once', () => {
    const fields = propsOf(def).map((p) => def.fields.find((f) => f.name === p.field));
    expect(fields.map((f, i) => f?.name ?? `missing ${propsOf(def)[i].field}`)).toEqual(propsOf(def).map((p) => p.field));
    expect(fields.filter((f) => f?.role === 'computed' || f?.role === 'write-only' || f?.carrierOnly)).toEqual([]);
    expect(new Set(propsOf(def).map((p) => p.prop ?? p.field)).size).toBe(def.import.props.length);
  });

  it('writes the field that names its parent (as the parent construct\'s variable), and refers to kinds that exist', () => {
    if (def.parent) expect(propsOf(def).map((p) => p.field)).toContain(def.parent.field);
    for (const [field, kind] of Object.entries(def.import.refersTo ?? {})) {
      expect(isKind(kind)).toBe(true);
      expect(propsOf(def).map((p) => p.field)).toContain(field);
    }
  });
});

test('construct classes, id prefixes and former flags are each one kind\'s', () => {
  const unique = (values: readonly (string | undefined)[]) => {
    const given = values.filter((v): v is string => v !== undefined);
    return new Set(given).size === given.length;
  };
  expect(unique(DEFINITIONS.map((d) => d.import.construct))).toBe(true);
  expect(unique(DEFINITIONS.map((d) => d.import.idPrefix))).toBe(true);
  expect(unique(DEFINITIONS.map((d) => d.import.formerFlag))).toBe(true);
  // A former flag must not shadow one of import's own options.
  const own = ['out', 'class-name', 'kinds', 'reference', 'engine', 'cdk', 'blocks', 'moved', 'from', 'stacks', 'stack', 'help'];
  expect(DEFINITIONS.map((d) => d.import.formerFlag).filter((f) => f !== undefined && own.includes(f))).toEqual([]);
});
