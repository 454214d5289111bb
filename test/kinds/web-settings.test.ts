import { definitionOf, FieldDefinition, WebSettingsSpec } from '../../src/protocol';

/**
 * The web settings definition's own rules: canonical form and checks, and the review
 * wording it offers (the `phrases` facet of its fields and `lifecycle.restoresDefaults`):
 * the sentences review shows for a create, an update, a drift and a removal.
 */
const def = definitionOf('web-settings');
const raw = (fields: Partial<WebSettingsSpec> = {}) => ({ kind: 'web-settings', path: 'test/web', packageDomain: 'Shop.Example.com', ...fields }) as WebSettingsSpec;
const field = (name: string): FieldDefinition => def.fields.find((f) => f.name === name)!;
const say = (name: string, before: unknown, after: unknown, others: Record<string, unknown> = {}, drift = false) =>
  field(name).phrases!.describe({ key: 'shop.example.com', before, after, others, ...(drift ? { drift } : {}) });

describe('canonical form and checks', () => {
  test('defaults: HTTPS not forced, no certificate, PHP left alone, certificates kept, warn after 10 minutes; names lowercase, sorted, once', () => {
    const { spec, problems } = def.check(raw({ freeCertificates: ['WWW.shop.example.com', 'shop.example.com', 'www.shop.example.com.'] }));
    expect(problems).toEqual([]);
    expect(spec).toEqual({
      kind: 'web-settings', path: 'test/web', packageDomain: 'shop.example.com', forceHttps: false, freeCertificates: ['shop.example.com', 'www.shop.example.com'],
      deleteCertificates: false, onCertificateTimeout: 'warn', certificateTimeoutMinutes: 10,
    });
  });

  test('every rule at once, naming the field', () => {
    const { problems } = def.check(raw({
      forceHttps: 'yes' as never, freeCertificates: ['*.shop.example.com', 'bad..name'], phpVersion: 'php82', onCertificateTimeout: 'ignore' as never, certificateTimeoutMinutes: 0,
    }));
    expect(problems.map((p) => p.message)).toEqual([
      'test/web: forceHttps must be true or false, not "yes"',
      'test/web: freeCertificates[0] "*.shop.example.com" is a wildcard: a free certificate is issued for one host name at a time',
      expect.stringMatching(/^test\/web: freeCertificates\[1\] "bad\.\.name" has an invalid label/),
      'test/web: phpVersion must be a PHP version written major.minor, such as "8.2" (reseller_php_versions lists a package\'s), not "php82"',
      'test/web: onCertificateTimeout must be one of "warn", "fail", not "ignore"',
      'test/web: certificateTimeoutMinutes must be a number of minutes above 0 and at most 1440, not 0',
    ]);
  });

  test('import id: the package\'s primary domain; identity placed on the package', () => {
    expect(def.parseImportId('Shop.Example.com')).toEqual({ kind: 'web-settings', key: 'shop.example.com', placement: 'shop.example.com', parent: '' });
    expect(def.parseImportId('shop')).toMatch(/import id .* \(expected the package's primary domain/);
  });
});

describe('review wording (phrases facet): what each change does for the site, in words', () => {
  test('force HTTPS', () => {
    expect(say('forceHttps', false, true)).toEqual(['HTTPS is forced on shop.example.com']);
    expect(say('forceHttps', undefined, true)).toEqual(['HTTPS is forced on shop.example.com']);
    expect(say('forceHttps', true, false)).toEqual(['HTTPS is no longer forced on shop.example.com']);
    expect(say('forceHttps', undefined, false)).toEqual([]); // a create at the default says nothing
    expect(say('forceHttps', true, false, {}, true)).toEqual(['HTTPS is no longer forced on shop.example.com']);
  });

  test('free certificates: requested, deleted or left in place as delete_certificates says; in a drift, gone or appeared', () => {
    expect(say('freeCertificates', ['shop.example.com'], ['shop.example.com', 'www.shop.example.com'])).toEqual(['a free certificate is requested for www.shop.example.com']);
    expect(say('freeCertificates', ['old.shop.example.com', 'shop.example.com'], ['shop.example.com'])).toEqual([
      'the free certificate of old.shop.example.com is no longer managed (it stays in place)',
    ]);
    expect(say('freeCertificates', ['old.shop.example.com'], [], { deleteCertificates: true })).toEqual(['the free certificate of old.shop.example.com is deleted']);
    expect(say('freeCertificates', ['shop.example.com', 'www.shop.example.com'], ['shop.example.com'], {}, true)).toEqual(['the free certificate of www.shop.example.com is gone']);
  });

  test('PHP version', () => {
    expect(say('phpVersion', '8.1', '8.2')).toEqual(['PHP 8.1 -> 8.2']);
    expect(say('phpVersion', undefined, '8.2')).toEqual(['PHP 8.2']);
    expect(say('phpVersion', '8.2', undefined)).toEqual(['the PHP version is no longer managed (it stays at 8.2)']);
  });

  test('the options say what they change from now on, and nothing at their default on a create', () => {
    expect(say('deleteCertificates', undefined, false)).toEqual([]);
    expect(say('deleteCertificates', false, true)).toEqual(['free certificates of names not in free_certificates are deleted from now on']);
    expect(say('onCertificateTimeout', undefined, 'warn')).toEqual([]);
    expect(say('onCertificateTimeout', 'warn', 'fail')).toEqual(['an apply fails when a requested free certificate is not issued in time']);
  });

  test('a removal restores the platform\'s defaults: what stays and what goes', () => {
    const restores = def.lifecycle!.restoresDefaults!;
    const spec = def.check(raw({ forceHttps: true, freeCertificates: ['shop.example.com'], phpVersion: '8.2' })).spec;
    expect(restores(spec)).toBe(
      'nothing is deleted: the settings go back to the platform\'s defaults: HTTPS is no longer forced on shop.example.com; the PHP version stays at 8.2; ' +
        'its free certificates stay in place (delete_certificates = true would delete them)',
    );
    expect(restores({ ...spec, deleteCertificates: true })).toMatch(/every free certificate of the package is deleted \(delete_certificates = true\)$/);
  });
});
