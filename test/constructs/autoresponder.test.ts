import { TerraformVariable } from 'cdktf';
import { Autoresponder, DataResellerAutoresponder, DataResellerAutoresponders, HostingPackage } from '../../src';
import type { AutoresponderProps } from '../../src';
import { resources, specOf, synth, synthError } from './util';

const site = (stack: import('cdktf').TerraformStack) =>
  new HostingPackage(stack, 'site', { domainName: 'example.com', extraDomainNames: ['example.net'], packageType: 'Linux Unlimited' });
const away = (stack: import('cdktf').TerraformStack, props: Partial<AutoresponderProps> = {}) =>
  new Autoresponder(stack, 'away', { package: site(stack), localPart: 'Away', subject: 'Out of office', content: 'Back on Monday.', ...props });

describe('Autoresponder', () => {
  test('carriers: the spec in canonical forms (address, times in UTC, target), one settings trigger per setting', () => {
    const { json } = synth((stack) => away(stack, { startTime: '2026-12-24T10:00+01:00', endTime: '2027-01-02 08:00:00Z', forwardTo: 'Desk@Example.ORG' }));
    const r = resources(json);
    expect(Object.keys(r).sort()).toEqual(['away', 'away_settings', 'site', 'site_settings']);
    expect(r.away.triggers_replace).toEqual({ kind: 'autoresponder', key: 'away@example.com', placement: 'example.com', parent: '${terraform_data.site.id}' });
    expect(specOf(r.away_settings)).toEqual({
      kind: 'autoresponder', path: 'MyStack/away', packageDomain: 'example.com', domain: 'example.com', localPart: 'away', subject: 'Out of office',
      content: 'Back on Monday.', contentType: 'text/plain', enabled: true, startTime: '2026-12-24T09:00:00Z', endTime: '2027-01-02T08:00:00Z', forwardTo: 'Desk@example.org',
    });
    expect(r.away_settings.triggers_replace).toMatchObject({
      subject: 'Out of office', contentType: 'text/plain', enabled: 'true', startTime: '"2026-12-24T09:00:00Z"', endTime: '"2027-01-02T08:00:00Z"', forwardTo: '"Desk@example.org"',
    });
  });

  test('provider: one resource; times canonical; none left out (null)', () => {
    const { json } = synth((stack) => away(stack, { startTime: '2026-12-24T09:00:00Z', contentType: 'text/html', enabled: false }), true, 'provider');
    expect(json.resource.reseller_autoresponder.away).toMatchObject({
      package: '${reseller_package.site.domain_name}', local_part: 'away', subject: 'Out of office', content: 'Back on Monday.', content_type: 'text/html',
      enabled: false, start_time: '2026-12-24T09:00:00Z',
    });
    expect(json.resource.reseller_autoresponder.away.end_time).toBeUndefined();
    expect(json.resource.reseller_autoresponder.away.forward_to).toBeUndefined();
  });

  test('an address that is only an autoresponder (no mailbox, no forwarder) synthesizes without a word', () => {
    expect(synthError((stack) => away(stack))).toBeUndefined();
  });

  test('bad input fails synth naming the path, the field and the rule', () => {
    const error = (props: Partial<AutoresponderProps>) => synthError((stack) => away(stack, props));
    expect(error({ startTime: '2027-01-02T08:00:00Z', endTime: '2026-12-24T09:00:00Z' }))
      .toMatch(/MyStack\/away: endTime \(2026-12-24T09:00:00Z\) must be after the start time \(2027-01-02T08:00:00Z\)/);
    expect(error({ content: 'x'.repeat(16_385) })).toMatch(/MyStack\/away: content is 16385 characters long; at most 16384 are allowed/);
    expect(error({ subject: 'two\nlines' })).toMatch(/MyStack\/away: subject must be one line/);
    expect(error({ subject: '' })).toMatch(/MyStack\/away: subject must not be empty/);
    expect(error({ startTime: '24/12/2026' })).toMatch(/MyStack\/away: startTime must be an ISO 8601 date and time with a zone/);
    expect(error({ startTime: '2026-12-24T09:00:00' })).toMatch(/startTime must be an ISO 8601 date and time with a zone/);
    expect(error({ contentType: 'text/markdown' as never })).toMatch(/MyStack\/away: contentType must be "text\/plain" or "text\/html", not "text\/markdown"/);
    expect(error({ forwardTo: 'nobody' })).toMatch(/MyStack\/away: forwardTo/);
    expect(error({ domain: 'elsewhere.example' })).toMatch(/MyStack\/away: domain "elsewhere\.example" is not a domain of package MyStack\/site \(example\.com, example\.net\)/);
  });

  test('a time from a variable is left to apply time (no synth error); the same address twice is refused', () => {
    expect(synthError((stack) => away(stack, { endTime: new TerraformVariable(stack, 'end', { type: 'string' }).stringValue }))).toBeUndefined();
    expect(synthError((stack) => {
      const pkg = site(stack);
      new Autoresponder(stack, 'a', { package: pkg, localPart: 'away', subject: 's', content: 'c' });
      new Autoresponder(stack, 'b', { package: pkg, localPart: 'Away', subject: 's', content: 'c' });
    })).toMatch(/"away@example\.com" is already declared by autoresponder/);
  });

  test('data sources: reseller_autoresponder by address, reseller_autoresponders of one package', () => {
    const { json } = synth((stack) => {
      new DataResellerAutoresponder(stack, 'one', { package: 'example.org', localPart: 'info' });
      new DataResellerAutoresponders(stack, 'all', { package: HostingPackage.fromDomainName(stack, 'ref', 'example.org') });
    }, true, 'provider');
    expect(json.data.reseller_autoresponder.one).toMatchObject({ package: 'example.org', local_part: 'info' });
    expect(json.data.reseller_autoresponders.all).toMatchObject({ package: 'example.org' });
  });
});
