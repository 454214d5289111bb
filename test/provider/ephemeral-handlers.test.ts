import { computed, objectTypeOfData, required } from '../../src/provider/data-sources/data-source';
import { ephemeralHandlers, EphemeralResource } from '../../src/provider/ephemeral';
import { sensitive } from '../../src/provider/ephemeral/ephemeral-resource';
import { providerHandlers } from '../../src/provider/provider';
import { coreModel } from '../../src/provider/kind-resources';
import { decodeDynamic, encodeDynamic, isUnknown, TfObject, UNKNOWN } from '../../src/provider/wire/values';

/**
 * The generic ephemeral-resource RPCs over a one-entry table (the real ones run under
 * real Terraform in e2e-ephemeral.test.ts): schema with sensitive attributes, an open
 * with arguments not known yet, validation, not found, a failing read, and Renew and
 * Close, which have nothing to do; and the provider's metadata and schema list the
 * table's entries.
 */

let opens = 0;
const SECRET: EphemeralResource = {
  typeName: 'reseller_secret',
  description: 'A secret.',
  attributes: [required('name', 'string', 'Name.'), computed('user', 'string', 'User.'), sensitive(computed('password', 'string', 'Password.'))],
  check: (args) => (args.name === 'bad name' ? [{ attribute: 'name', message: 'has a space' }] : []),
  async open(args) {
    opens++;
    if (args.name === 'fails') throw new Error('the API said no');
    if (args.name !== 'app') return { notFound: { attribute: 'name', value: String(args.name), what: 'secret', existing: ['app', 'ape'] } };
    return { values: { user: 'app_user', password: 'S3cret-value' } };
  },
};
const type = objectTypeOfData(SECRET);
const handlers = ephemeralHandlers({ resources: [SECRET], context: () => { throw new Error('no context needed'); } });
const config = (value: TfObject) => encodeDynamic(value, type);
const result = (response: Record<string, unknown>) => decodeDynamic(response.result as never, type) as TfObject;

test('the schema marks the secret sensitive', () => {
  const schema = handlers.schemas().reseller_secret;
  expect(schema.block.attributes!.map((a) => [a.name, Boolean(a.required), Boolean(a.computed), Boolean(a.sensitive)]))
    .toEqual([['name', true, false, false], ['user', false, true, false], ['password', false, true, true]]);
  expect(handlers.metadata()).toEqual([{ typeName: 'reseller_secret' }]);
});

test('open reads and answers every value; arguments not known yet give unknown values without a read', async () => {
  opens = 0;
  expect(result(await handlers.OpenEphemeralResource({ typeName: 'reseller_secret', config: config({ name: 'app', user: null, password: null }) })))
    .toEqual({ name: 'app', user: 'app_user', password: 'S3cret-value' });
  const unknown = result(await handlers.OpenEphemeralResource({ typeName: 'reseller_secret', config: config({ name: UNKNOWN, user: null, password: null }) }));
  expect([isUnknown(unknown.user), isUnknown(unknown.password)]).toEqual([true, true]);
  expect(opens).toBe(1);
});

test('validation, not found (closest names), a failing read and an unknown type are diagnostics, never a crash', async () => {
  const invalid = await handlers.ValidateEphemeralResourceConfig({ typeName: 'reseller_secret', config: config({ name: 'bad name', user: null, password: null }) });
  expect(invalid.diagnostics.map((d) => d.summary)).toEqual(['reseller_secret: name has a space']);
  const missing = await handlers.OpenEphemeralResource({ typeName: 'reseller_secret', config: config({ name: 'apq', user: null, password: null }) });
  expect(missing.diagnostics![0]).toMatchObject({ summary: 'reseller_secret: secret "apq" not found' });
  expect(missing.diagnostics![0].detail).toMatch(/Closest existing: ap[pe], ap[pe]/);
  const failed = await handlers.OpenEphemeralResource({ typeName: 'reseller_secret', config: config({ name: 'fails', user: null, password: null }) });
  expect(failed.diagnostics![0]).toMatchObject({ summary: 'reseller_secret: cannot read the account', detail: 'the API said no' });
  expect((await handlers.OpenEphemeralResource({ typeName: 'reseller_nothing' })).diagnostics![0].summary).toBe('Unknown ephemeral resource reseller_nothing');
});

test('renew and close have nothing to release', async () => {
  expect(await handlers.RenewEphemeralResource({ typeName: 'reseller_secret' })).toEqual({ diagnostics: [] });
  expect(await handlers.CloseEphemeralResource({ typeName: 'reseller_secret', private: Buffer.alloc(0) })).toEqual({ diagnostics: [] });
  expect((await handlers.CloseEphemeralResource({ typeName: 'reseller_nothing' })).diagnostics![0].summary).toBe('Unknown ephemeral resource reseller_nothing');
});

test('the provider lists its ephemeral resources in its metadata and schema', async () => {
  const provider = providerHandlers(coreModel({}), { log: () => undefined }, {});
  const metadata = await provider.GetMetadata({});
  expect(metadata.ephemeralResources!.map((r) => r.typeName).sort()).toEqual(['reseller_ftp_credentials', 'reseller_mysql_connection']);
  const schema = await provider.GetProviderSchema({});
  expect(Object.keys(schema.ephemeralResourceSchemas!).sort()).toEqual(['reseller_ftp_credentials', 'reseller_mysql_connection']);
});
