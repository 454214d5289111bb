import { DnsRecord, HostingPackage } from '../../src';
import { resources, specOf, synth, synthError } from './util';

const site = (stack: import('cdktf').TerraformStack) =>
  new HostingPackage(stack, 'site', { domainName: 'Example.com', extraDomainNames: ['example.net'], packageType: 'x' });

describe('DnsRecord', () => {
  test('carriers: the natural key is the object trigger; the spec is canonical', () => {
    const { json } = synth((stack) => {
      new DnsRecord(stack, 'mx', { package: site(stack), name: '@', type: 'MX', value: 'Mail.Example.com.', priority: 10 });
    });
    const r = resources(json);
    expect(r.mx.triggers_replace).toEqual({
      kind: 'dns-record', key: 'example.com/example.com/MX/10 mail.example.com', placement: 'example.com', parent: '${terraform_data.site.id}',
    });
    expect(specOf(r.mx_settings)).toEqual({
      kind: 'dns-record', path: 'MyStack/mx', packageDomain: 'example.com', zone: 'example.com', name: '@', type: 'MX', value: 'mail.example.com', priority: 10,
    });
  });

  test('provider engine: a reseller_dns_record with the declared attributes', () => {
    const { json } = synth((stack) => {
      new DnsRecord(stack, 'www', { package: site(stack), name: 'www', type: 'CNAME', value: 'example.com' });
    }, true, 'provider');
    const r = resources(json, 'reseller_dns_record');
    expect(r.www).toMatchObject({ package: '${reseller_package.site.domain_name}', zone: 'example.com', name: 'www', type: 'CNAME', value: 'example.com' });
  });

  test('every rule at once, each naming the construct path and field', () => {
    const message = synthError((stack) => {
      const pkg = site(stack);
      new DnsRecord(stack, 'www', { package: pkg, name: 'www', type: 'CNAME', value: 'example.com' });
      new DnsRecord(stack, 'www_a', { package: pkg, name: 'www', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'mx', { package: pkg, name: '@', type: 'MX', value: 'mail.example.com' });
      new DnsRecord(stack, 'bad_a', { package: pkg, name: 'x', type: 'A', value: '300.1.1.1' });
      new DnsRecord(stack, 'txt', { package: pkg, name: '@', type: 'TXT', value: 'v=spf1 -all', priority: 1 });
      new DnsRecord(stack, 'other', { package: pkg, name: 'a', zone: 'example.org', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'twice', { package: pkg, name: 'www', type: 'A', value: '192.0.2.1' });
    });
    expect(message).toContain('MyStack/www: name "www" holds a CNAME, which must be the only record at www.example.com, but MyStack/www_a (A), MyStack/twice (A) are declared there too');
    expect(message).toContain('MyStack/www_a: name "www" is also the name of CNAME MyStack/www');
    expect(message).toContain('MyStack/mx: priority is required for a MX record');
    expect(message).toContain('MyStack/bad_a: value "300.1.1.1" is not an IPv4 address');
    expect(message).toContain('MyStack/txt: priority applies to MX and SRV records only, not TXT');
    expect(message).toContain('MyStack/other: zone "example.org" is not a domain of package MyStack/site');
    expect(message).toContain('MyStack/twice: value A www.example.com 192.0.2.1 is already declared by DNS record MyStack/www_a');
  });

  test('records that may share a name do', () => {
    expect(synthError((stack) => {
      const pkg = site(stack);
      new DnsRecord(stack, 'a', { package: pkg, name: '@', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'mx', { package: pkg, name: '@', type: 'MX', value: 'mail.example.com', priority: 10 });
      new DnsRecord(stack, 'spf', { package: pkg, name: '@', type: 'TXT', value: 'v=spf1 mx -all' });
      new DnsRecord(stack, 'srv', { package: pkg, name: '_sip._tcp', type: 'SRV', value: 'sip.example.com', priority: 10, weight: 5, port: 5060 });
      new DnsRecord(stack, 'v6', { package: pkg, name: 'www', zone: 'example.net', type: 'AAAA', value: '2001:DB8:0::1' });
    })).toBeUndefined();
  });
});

describe('DnsRecord in a registered domain\'s own zone', () => {
  test('carriers: placement "domain", the zone is the domain; a package record synthesizes exactly as before', () => {
    const { json } = synth((stack) => {
      new DnsRecord(stack, 'verify', { domain: 'Example.ORG', name: '@', type: 'TXT', value: 'site-verification=abc' });
      new DnsRecord(stack, 'mx', { package: site(stack), name: '@', type: 'MX', value: 'mail.example.com', priority: 10 });
    });
    const r = resources(json);
    expect(r.verify.triggers_replace).toEqual({ kind: 'dns-record', key: 'example.org/example.org/TXT/site-verification=abc', placement: 'domain', parent: '' });
    expect(specOf(r.verify_settings)).toEqual({
      kind: 'dns-record', path: 'MyStack/verify', domain: 'example.org', zone: 'example.org', name: '@', type: 'TXT', value: 'site-verification=abc',
    });
    expect(specOf(r.mx_settings)).not.toHaveProperty('domain');
  });

  test('provider engine: `domain` instead of `package`; a package record has no domain attribute (existing plans unchanged)', () => {
    const { json } = synth((stack) => {
      new DnsRecord(stack, 'verify', { domain: 'example.org', name: '_acme-challenge', type: 'TXT', value: 'token' });
      new DnsRecord(stack, 'www', { package: site(stack), name: 'www', type: 'CNAME', value: 'example.com' });
    }, true, 'provider');
    const r = resources(json, 'reseller_dns_record');
    expect(r.verify).toEqual({ domain: 'example.org', zone: 'example.org', name: '_acme-challenge', type: 'TXT', value: 'token' });
    expect(r.www).toEqual({
      package: '${reseller_package.site.domain_name}', zone: 'example.com', name: 'www', type: 'CNAME', value: 'example.com',
      lifecycle: { replace_triggered_by: ['reseller_package.site.package_id'] },
    });
  });

  test('exactly one of package and domain; the zone of a registration is its name', () => {
    const message = synthError((stack) => {
      new DnsRecord(stack, 'both', { package: site(stack), domain: 'example.org', name: 'x', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'neither', { name: 'x', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'zone', { domain: 'example.org', zone: 'example.net', name: 'x', type: 'A', value: '192.0.2.1' });
      new DnsRecord(stack, 'bad', { domain: 'not a domain', name: 'x', type: 'A', value: '192.0.2.1' });
    });
    expect(message).toContain('MyStack/both: domain cannot be given with package');
    expect(message).toContain('MyStack/neither: package must be a HostingPackage or HostingPackage.fromDomainName(...) (or give domain');
    expect(message).toContain('MyStack/zone: zone "example.net" must be the registered domain name "example.org"');
    expect(message).toContain('MyStack/bad: domain "not a domain" is not a valid domain name');
  });
});
