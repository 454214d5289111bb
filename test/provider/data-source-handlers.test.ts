import { closestNames } from '../../src/provider/data-sources/closest';
import { computed, DataSource, lookup, objectTypeOfData, optional } from '../../src/provider/data-sources/data-source';
import { dataSourceHandlers } from '../../src/provider/data-sources/handlers';
import { decodeDynamic, encodeDynamic, isUnknown, TfObject, UNKNOWN } from '../../src/provider/wire/values';

/**
 * The generic data-source RPCs over a one-entry table (the real data sources run under
 * real Terraform in data-sources.test.ts): what Terraform itself never sends there,
 * such as a read with unknown arguments, and the suggestion of close names.
 */

let reads = 0;
const SOURCE: DataSource = {
  typeName: 'reseller_thing',
  description: 'A thing.',
  attributes: [lookup('name', 'string', 'Name.'), optional('id_number', 'number', 'Id.'), computed('size', 'number', 'Size.')],
  oneOf: ['name', 'id_number'],
  check: (args) => (typeof args.name === 'string' && args.name.includes(' ') ? [{ attribute: 'name', message: 'has a space' }] : []),
  async read(args) {
    reads++;
    if (args.name === 'big') return { values: { name: 'big', size: 3 } };
    return { notFound: { attribute: 'name', value: String(args.name), what: 'thing', existing: ['big', 'bag', 'small', 'bog'] } };
  },
};
const type = objectTypeOfData(SOURCE);
const handlers = dataSourceHandlers({ sources: [SOURCE], context: () => { throw new Error('no context needed'); } });
const config = (value: TfObject) => encodeDynamic(value, type);
const state = (response: Record<string, unknown>) => decodeDynamic(response.state as never, type) as TfObject;

describe('data-source RPCs', () => {
  test('a read with an argument not known yet answers unknown results without reading', async () => {
    reads = 0;
    const response = await handlers.ReadDataSource({ typeName: 'reseller_thing', config: config({ name: UNKNOWN, id_number: null, size: null }) });
    const value = state(response);
    expect(isUnknown(value.name)).toBe(true);
    expect(isUnknown(value.size)).toBe(true);
    expect(value.id_number).toBeNull();
    expect(reads).toBe(0);
  });

  test('found: the computed and lookup attributes are filled, the arguments kept', async () => {
    const response = await handlers.ReadDataSource({ typeName: 'reseller_thing', config: config({ name: 'big', id_number: null, size: null }) });
    expect(state(response)).toEqual({ name: 'big', id_number: null, size: 3 });
  });

  test('not found: an error naming the data source, the key and the closest names, on the key attribute', async () => {
    const response = await handlers.ReadDataSource({ typeName: 'reseller_thing', config: config({ name: 'bug', id_number: null, size: null }) });
    expect(response.diagnostics).toEqual([expect.objectContaining({
      severity: 1,
      summary: 'reseller_thing: thing "bug" not found',
      detail: 'No thing of the account has name "bug". Closest existing: bag, big, bog.',
      attribute: { steps: [{ attributeName: 'name' }] },
    })]);
  });

  test('validation: exactly one key (an unknown one counts as given), and the argument rules of known values only', async () => {
    const validate = async (value: TfObject) => ((await handlers.ValidateDataResourceConfig({ typeName: 'reseller_thing', config: config(value) })).diagnostics as Array<{ summary: string }>).map((d) => d.summary);
    expect(await validate({ name: null, id_number: null, size: null })).toEqual(['reseller_thing: one of name, id_number is required']);
    expect(await validate({ name: 'a', id_number: 1, size: null })).toEqual(['reseller_thing: give only one of name, id_number']);
    expect(await validate({ name: UNKNOWN, id_number: null, size: null })).toEqual([]);
    expect(await validate({ name: 'a b', id_number: null, size: null })).toEqual(['reseller_thing: name has a space']);
  });

  test('an unknown type names the ones offered', async () => {
    const response = await handlers.ReadDataSource({ typeName: 'reseller_nothing', config: config({}) });
    expect(response.diagnostics).toEqual([expect.objectContaining({ summary: 'Unknown data source reseller_nothing', detail: 'The reseller provider offers: reseller_thing.' })]);
  });
});

describe('closestNames', () => {
  test('by edit distance, then by a shared ending', () => {
    expect(closestNames('legacy.exmaple.com', ['legacy.example.com', 'other.example.org', 'legacy.example.net', 'a.com'])).toEqual(['legacy.example.com', 'legacy.example.net', 'other.example.org']);
    expect(closestNames('x', [])).toEqual([]);
  });
});
