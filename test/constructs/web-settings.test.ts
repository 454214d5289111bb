import { DataResellerCertificates, DataResellerPhpVersions, HostingPackage, WebSettings } from '../../src';
import { resources, specOf, synth, synthError } from './util';

const site = (stack: import('cdktf').TerraformStack) => new HostingPackage(stack, 'site', { domainName: 'Shop.Example.com', extraDomainNames: ['shop.example.org'], packageType: 'x' });

describe('WebSettings', () => {
  test('carriers: identity is the package; the settings triggers hold each setting; the spec is canonical', () => {
    const { json } = synth((stack) => {
      new WebSettings(stack, 'web', { package: site(stack), forceHttps: true, freeCertificates: ['WWW.shop.example.com', 'shop.example.com'], phpVersion: '8.2' });
    });
    const r = resources(json);
    expect(r.web.triggers_replace).toEqual({ kind: 'web-settings', key: 'shop.example.com', placement: 'shop.example.com', parent: '${terraform_data.site.id}' });
    expect(r.web_settings.triggers_replace).toMatchObject({
      forceHttps: 'true', freeCertificates: '["shop.example.com","www.shop.example.com"]', phpVersion: '8.2', deleteCertificates: 'false', onCertificateTimeout: 'warn',
    });
    expect(specOf(r.web_settings)).toEqual({
      kind: 'web-settings', path: 'MyStack/web', packageDomain: 'shop.example.com', forceHttps: true, freeCertificates: ['shop.example.com', 'www.shop.example.com'],
      phpVersion: '8.2', deleteCertificates: false, onCertificateTimeout: 'warn', certificateTimeoutMinutes: 10,
    });
    // Its removal honours the declaration (delete_certificates): the destroy provisioner gets it as a literal.
    const destroy = r.web.provisioner.find((p: { 'local-exec': { when?: string } }) => p['local-exec'].when === 'destroy')['local-exec'];
    expect(JSON.parse(destroy.environment.RESELLER_DECLARED)).toMatchObject({ kind: 'web-settings', deleteCertificates: false });
  });

  test('provider engine: a reseller_web_settings referring to its package; a timeout other than 10 minutes is timeouts.create', () => {
    const { json } = synth((stack) => {
      new WebSettings(stack, 'web', { package: site(stack), freeCertificates: ['shop.example.com'], certificateTimeoutMinutes: 20, onCertificateTimeout: 'fail' });
    }, true, 'provider');
    expect(resources(json, 'reseller_web_settings').web).toEqual({
      package: '${reseller_package.site.domain_name}', force_https: false, free_certificates: ['shop.example.com'], delete_certificates: false,
      on_certificate_timeout: 'fail', timeouts: { create: '20m' },
      lifecycle: { replace_triggered_by: ['reseller_package.site.package_id'] },
    });
  });

  test('every rule at once, each naming the construct path and field', () => {
    const message = synthError((stack) => {
      const pkg = site(stack);
      new WebSettings(stack, 'web', { package: pkg, freeCertificates: ['*.shop.example.com', 'elsewhere.example.net', 'www.shop.example.org'], phpVersion: '8' });
      new WebSettings(stack, 'again', { package: pkg, certificateTimeoutMinutes: -1 });
    });
    expect(message).toContain('MyStack/web: freeCertificates[0] "*.shop.example.com" is a wildcard: a free certificate is issued for one host name at a time');
    expect(message).toContain('MyStack/web: freeCertificates "elsewhere.example.net" is neither a domain of package MyStack/site (shop.example.com, shop.example.org) nor a name under one');
    expect(message).toContain('MyStack/web: phpVersion must be a PHP version written major.minor, such as "8.2"');
    expect(message).toContain('MyStack/again: package "shop.example.com" already has its web settings declared by MyStack/web (one WebSettings per package)');
    expect(message).toContain('MyStack/again: certificateTimeoutMinutes must be a number of minutes above 0 and at most 1440, not -1');
  });

  test('data sources: reseller_certificates and reseller_php_versions by a package or a domain name', () => {
    const { json } = synth((stack) => {
      const pkg = site(stack);
      const certs = new DataResellerCertificates(stack, 'certs', { package: pkg });
      const php = new DataResellerPhpVersions(stack, 'php', { package: 'Shop.Example.org' });
      new WebSettings(stack, 'web', { package: pkg, phpVersion: php.latest, freeCertificates: certs.freeCommonNames });
    }, true, 'provider');
    expect(json.data.reseller_certificates.certs).toMatchObject({ package: 'shop.example.com' });
    expect(json.data.reseller_php_versions.php).toMatchObject({ package: 'shop.example.org' });
    expect(resources(json, 'reseller_web_settings').web).toMatchObject({
      php_version: '${data.reseller_php_versions.php.latest}', free_certificates: '${data.reseller_certificates.certs.free_common_names}',
    });
  });
});
