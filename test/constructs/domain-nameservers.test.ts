import { TerraformOutput } from 'cdktf';
import { DataResellerDomain, DataResellerDomains, DomainNameservers, DomainTransferLock } from '../../src';
import { resources, specOf, synth, synthError } from './util';

describe('DomainNameservers and DomainTransferLock', () => {
  test('carriers: the domain is the object trigger; the nameservers a canonical, sorted set in the spec', () => {
    const { json } = synth((stack) => {
      new DomainNameservers(stack, 'ns', { domain: 'Example.com', nameservers: ['NS2.example.net.', 'ns1.example.net'] });
      new DomainTransferLock(stack, 'lock', { domain: 'example.com' });
    });
    const r = resources(json);
    expect(r.ns.triggers_replace).toEqual({ kind: 'domain-nameservers', key: 'example.com', placement: '', parent: '' });
    expect(specOf(r.ns_settings)).toEqual({ kind: 'domain-nameservers', path: 'MyStack/ns', domain: 'example.com', nameservers: ['ns1.example.net', 'ns2.example.net'] });
    expect(r.ns_settings.triggers_replace).toMatchObject({ nameservers: '["ns1.example.net","ns2.example.net"]' });
    expect(specOf(r.lock_settings)).toEqual({ kind: 'domain-transfer-lock', path: 'MyStack/lock', domain: 'example.com', locked: true });
  });

  test('provider engine: reseller_domain_nameservers and reseller_domain_transfer_lock with the declared attributes', () => {
    const { json } = synth((stack) => {
      new DomainNameservers(stack, 'ns', { domain: 'example.com', nameservers: ['ns1.example.net', 'ns2.example.net'] });
      new DomainTransferLock(stack, 'lock', { domain: 'example.com', locked: false });
    }, true, 'provider');
    expect(resources(json, 'reseller_domain_nameservers').ns).toEqual({ domain: 'example.com', nameservers: ['ns1.example.net', 'ns2.example.net'] });
    expect(resources(json, 'reseller_domain_transfer_lock').lock).toEqual({ domain: 'example.com', locked: false });
  });

  test('bad input: every rule at once, naming the path, the field and the rule', () => {
    const message = synthError((stack) => {
      new DomainNameservers(stack, 'one', { domain: 'example.com', nameservers: ['ns1.example.net'] });
      new DomainNameservers(stack, 'bad', { domain: 'example.org', nameservers: ['ns1.example.net', 'not a host', 'NS1.example.net.'] });
      new DomainNameservers(stack, 'nodomain', { domain: 'localhost', nameservers: ['ns1.example.net', 'ns2.example.net'] });
      new DomainTransferLock(stack, 'lock', { domain: 'example.com', locked: 'yes' as never });
      new DomainTransferLock(stack, 'lock2', { domain: 'example.com' });
    });
    expect(message).toContain('MyStack/one: nameservers lists 1 nameserver; a registration needs at least 2');
    expect(message).toContain('MyStack/bad: nameservers[1] is not a host name: "not a host" is not a valid domain name');
    expect(message).toContain('MyStack/bad: nameservers[2] "ns1.example.net" is listed twice (also nameservers[0])');
    expect(message).toContain('MyStack/nodomain: domain "localhost" needs at least two labels');
    expect(message).toContain('MyStack/lock: locked must be true or false, not "yes"');
    expect(message).toContain('MyStack/lock2: domain the transfer lock of "example.com" are already declared by MyStack/lock');
  });

  test('data sources: reseller_domain by name, reseller_domains with a list to filter', () => {
    const { json } = synth((stack) => {
      new DataResellerDomain(stack, 'one', { name: 'example.com' });
      const all = new DataResellerDomains(stack, 'all');
      new TerraformOutput(stack, 'registrations', { value: all.domains });
    });
    expect(json.output.registrations.value).toBe('${data.reseller_domains.all.domains}');
    expect(json.data.reseller_domain.one).toEqual({ name: 'example.com' });
    expect(json.data.reseller_domains.all).toEqual({});
  });
});
