import { App, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { Construct } from 'constructs';
import {
  CloudProvider,
  Forwarder,
  HostingPackage,
  HostingPackageProps,
  Mailbox,
  MailboxProps,
  ManagedCloudServer,
  ManagedCloudServerProps,
  ResellerHosting,
} from '../../src';
import { synthError, validationMessages } from './util';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Build = (stack: TerraformStack) => void;

const pkg = (stack: Construct, props: Partial<HostingPackageProps> = {}, id = 'site') =>
  new HostingPackage(stack, id, { domainName: 'example.com', extraDomainNames: ['example.net'], packageType: 'Linux Unlimited', ...props });
const mailbox = (stack: TerraformStack, props: Partial<MailboxProps> = {}, id = 'info') =>
  new Mailbox(stack, id, { package: pkg(stack), localPart: 'info', ...props });
const server = (stack: Construct, props: Partial<ManagedCloudServerProps> = {}, id = 'web1') =>
  new ManagedCloudServer(stack, id, {
    hostName: 'web1.example.com', provider: CloudProvider.NATIVE, spec: 'medium', zone: 'dc_location-uk', forUser: 'stack-user:1', ...props,
  });

/** [name, build, the start of the message (path: field), the rule]. */
const BAD: Array<[string, Build, string, RegExp]> = [
  ['domain with a space', (s) => pkg(s, { domainName: 'exa mple.com' }), 'MyStack/site: domainName "exa mple.com"', /is not a valid domain name/],
  ['single-label domain', (s) => pkg(s, { domainName: 'localhost' }), 'MyStack/site: domainName "localhost"', /needs at least two labels/],
  ['bad label in a domain', (s) => pkg(s, { domainName: '-bad.example.com' }), 'MyStack/site: domainName', /invalid label "-bad"/],
  ['invalid extra domain', (s) => pkg(s, { extraDomainNames: ['bad_domain.com'] }), 'MyStack/site: extraDomainNames[0]', /invalid label "bad_domain"/],
  ['extra domain equal to the primary', (s) => pkg(s, { extraDomainNames: ['EXAMPLE.com'] }), 'MyStack/site: extraDomainNames[0] "EXAMPLE.com"', /is the primary domainName/],
  ['duplicate extra domains', (s) => pkg(s, { extraDomainNames: ['a.example.net', 'A.example.net'] }), 'MyStack/site: extraDomainNames[1]', /listed twice/],
  ['documentRoots for a foreign domain', (s) => pkg(s, { documentRoots: { 'other.org': 'public_html' } }), 'MyStack/site: documentRoots["other.org"]', /not a domain of this package/],
  ['documentRoots escaping with ..', (s) => pkg(s, { documentRoots: { 'example.com': 'public_html/../../etc' } }), 'MyStack/site: documentRoots["example.com"]', /must not contain "\.\." segments/],
  ['absolute documentRoots', (s) => pkg(s, { documentRoots: { 'example.com': '/var/www' } }), 'MyStack/site: documentRoots["example.com"]', /must be a relative path/],
  ['empty packageType', (s) => pkg(s, { packageType: ' ' }), 'MyStack/site: packageType', /package type name \(non-empty string\) or a positive integer id/],
  ['negative packageType', (s) => pkg(s, { packageType: -3 }), 'MyStack/site: packageType', /positive integer id, not -3/],
  ['fractional packageType', (s) => pkg(s, { packageType: 1.5 }), 'MyStack/site: packageType', /positive integer id/],
  ['label too long', (s) => pkg(s, { label: 'x'.repeat(256) }), 'MyStack/site: label', /256 characters long; at most 255/],
  ['bad stackUser id', (s) => pkg(s, { stackUser: 'user:12' }), 'MyStack/site: stackUser "user:12"', /must look like stack-user:<number>/],
  ['bad stackUser email', (s) => pkg(s, { stackUser: { email: 'nobody' } }), 'MyStack/site: stackUser email', /not an e-mail address/],
  ['enabled not a boolean', (s) => pkg(s, { enabled: 'yes' as any }), 'MyStack/site: enabled', /must be true or false/],
  ['local part with a space', (s) => mailbox(s, { localPart: 'in fo' }), 'MyStack/info: localPart "in fo"', /must be letters, digits/],
  ['local part starting with a dot', (s) => mailbox(s, { localPart: '.info' }), 'MyStack/info: localPart ".info"', /not start or end with "\."/],
  ['mail domain not on the package', (s) => mailbox(s, { domain: 'other.org' }), 'MyStack/info: domain "other.org"', /is not a domain of package MyStack\/site/],
  ['invalid mail domain', (s) => mailbox(s, { domain: 'exa mple.net' }), 'MyStack/info: domain "exa mple.net"', /not a valid domain name/],
  ['password and passwordEnv', (s) => mailbox(s, { password: 'x', passwordEnv: 'PW' }), 'MyStack/info: password', /and passwordEnv must not both be set/],
  ['empty password', (s) => mailbox(s, { password: '' }), 'MyStack/info: password', /must not be empty/],
  ['invalid passwordEnv', (s) => mailbox(s, { passwordEnv: '1-PW' }), 'MyStack/info: passwordEnv "1-PW"', /not a valid environment variable name/],
  ['passwordEnv naming the API key', (s) => mailbox(s, { passwordEnv: 'RESELLER_API_KEY' }), 'MyStack/info: passwordEnv "RESELLER_API_KEY"', /reserved/],
  ['passwordVersion 0', (s) => mailbox(s, { passwordEnv: 'PW', passwordVersion: 0 }), 'MyStack/info: passwordVersion', /must be a positive integer, not 0/],
  ['fractional passwordVersion', (s) => mailbox(s, { passwordEnv: 'PW', passwordVersion: 1.5 }), 'MyStack/info: passwordVersion', /positive integer/],
  ['send not a boolean', (s) => mailbox(s, { send: 1 as any }), 'MyStack/info: send', /must be true or false/],
  ['forwarder remote not an address', (s) => new Forwarder(s, 'sales', { package: pkg(s), localPart: 'sales', remote: 'nobody' }), 'MyStack/sales: remote "nobody"', /is not an e-mail address/],
  ['forwarder to itself', (s) => new Forwarder(s, 'sales', { package: pkg(s), localPart: 'sales', remote: 'Sales@EXAMPLE.com' }), 'MyStack/sales: remote', /forwarding loop/],
  ['unknown provider', (s) => server(s, { provider: 'azure' as CloudProvider }), 'MyStack/web1: provider', /must be one of native, aws, gcp/],
  ['size not offered by the provider', (s) => server(s, { provider: CloudProvider.AWS, spec: '32x-large', zone: 'eu-west-2' }), 'MyStack/web1: spec "32x-large"', /is not a size of provider aws/],
  ['zone of another provider', (s) => server(s, { zone: 'us-east-1' }), 'MyStack/web1: zone "us-east-1"', /is not a location of provider native/],
  ['single-label host name', (s) => server(s, { hostName: 'web1' }), 'MyStack/web1: hostName "web1"', /needs at least two labels/],
  ['unsupported billing period', (s) => server(s, { periodMonths: 5 }), 'MyStack/web1: periodMonths', /5 is not a billing period/],
  ['timeoutMinutes 0', (s) => server(s, { timeoutMinutes: 0 }), 'MyStack/web1: timeoutMinutes', /must be a positive number/],
  ['branded on a third-party cloud', (s) => server(s, { provider: CloudProvider.GCP, zone: 'europe-west2', branded: true }), 'MyStack/web1: branded', /only available with provider native/],
  ['bad forUser', (s) => server(s, { forUser: 'bob' }), 'MyStack/web1: forUser "bob"', /stack-user:<number>/],
  ['same package domain twice', (s) => { pkg(s, {}, 'a'); pkg(s, { extraDomainNames: [] }, 'b'); }, 'MyStack/b: domainName', /"example.com" is already a domain of package MyStack\/a/],
  ['primary of one package is extra of another', (s) => { pkg(s, {}, 'a'); pkg(s, { domainName: 'EXAMPLE.net', extraDomainNames: [] }, 'b'); }, 'MyStack/b: domainName', /"example.net" is already a domain of package MyStack\/a/],
  ['same mailbox twice', (s) => { const p = pkg(s); new Mailbox(s, 'a', { package: p, localPart: 'info' }); new Mailbox(s, 'b', { package: p, localPart: 'INFO', domain: 'example.com' }); }, 'MyStack/b: localPart', /"info@example.com" is already declared by mailbox MyStack\/a/],
  ['same forwarder twice', (s) => { const p = pkg(s); new Forwarder(s, 'a', { package: p, localPart: 'x', remote: 'a@example.org' }); new Forwarder(s, 'b', { package: p, localPart: 'x', remote: 'b@example.org' }); }, 'MyStack/b: localPart', /already declared by forwarder MyStack\/a/],
  ['same cloud server twice', (s) => { server(s, {}, 'a'); server(s, { hostName: 'WEB1.example.com' }, 'b'); }, 'MyStack/b: hostName', /"web1.example.com" is already declared by cloud server MyStack\/a/],
  ['present mailbox on an absent package', (s) => new Mailbox(s, 'info', { package: pkg(s, { absent: true }), localPart: 'info' }), 'MyStack/info: package MyStack/site', /is absent, so this object must be absent too/],
  ['present package on an absent server', (s) => pkg(s, { cloudServer: server(s, { absent: true }) }), 'MyStack/site: cloudServer MyStack/web1', /is absent/],
  ['absent and protect', (s) => pkg(s, { absent: true, protect: true }), 'MyStack/site: protect', /prevent_destroy would block the deletion/],
  ['construct id that is no Terraform name', (s) => pkg(s, {}, 'my.site'), 'MyStack/my.site: id', /"my.site", which is not valid/],
  ['two constructs giving the same resource name', (s) => { pkg(s, {}, 'site'); pkg(s, { domainName: 'other.org', extraDomainNames: [] }, 'site_settings'); }, 'MyStack/site_settings: id', /"site_settings", which MyStack\/site already uses/],
  ['package managed in another stack', (s) => { const other = new TerraformStack(s.node.scope as App, 'Other'); new Mailbox(s, 'info', { package: pkg(other), localPart: 'info' }); }, 'MyStack/info: package Other/site', /managed in another stack; refer to it with HostingPackage.fromDomainName/],
  ['invalid referenced domain', (s) => HostingPackage.fromDomainName(s, 'legacy', 'legacy'), 'MyStack/legacy: domainName "legacy"', /needs at least two labels/],
  ['invalid referenced host name', (s) => ManagedCloudServer.fromHostName(s, 'old', 'old..example.com'), 'MyStack/old: hostName', /invalid label/],
  ['apiUrl not http(s)', (s) => new ResellerHosting(s, 'reseller', { apiUrl: 'ftp://api.example.com' }), 'MyStack/reseller: apiUrl', /must use http or https/],
  ['apiUrl not a URL', (s) => new ResellerHosting(s, 'reseller', { apiUrl: 'api.example.com' }), 'MyStack/reseller: apiUrl', /is not a valid URL/],
  ['apiUrl with credentials', (s) => new ResellerHosting(s, 'reseller', { apiUrl: 'https://u:secret@api.example.com' }), 'MyStack/reseller: apiUrl', /must not contain credentials/],
  ['apiUrl as a token', (s) => new ResellerHosting(s, 'reseller', { apiUrl: new TerraformVariable(s, 'url', {}).stringValue }), 'MyStack/reseller: apiUrl', /must be a literal URL, not a token/],
  ['resellerId as a token', (s) => new ResellerHosting(s, 'reseller', { resellerId: new TerraformVariable(s, 'rid', {}).stringValue }), 'MyStack/reseller: resellerId', /must be a literal string, not a token/],
  ['resellerId with a slash', (s) => new ResellerHosting(s, 'reseller', { resellerId: '12/34' }), 'MyStack/reseller: resellerId "12/34"', /must be "\*" or a reseller id/],
  ['two ResellerHosting in a stack', (s) => { new ResellerHosting(s, 'a'); new ResellerHosting(s, 'b'); }, 'MyStack/b: is a second ResellerHosting', /declare at most one per stack/],
  ['null_resource declared too late', (s) => { pkg(s); new ResellerHosting(s, 'reseller', { resourceType: 'null_resource' }); }, 'MyStack/reseller: resourceType "null_resource"', /comes too late.*declare it first/],
  ['unknown resourceType', (s) => new ResellerHosting(s, 'reseller', { resourceType: 'local_file' as any }), 'MyStack/reseller: resourceType', /must be "terraform_data" or "null_resource"/],
];

describe('synth-time validation', () => {
  test(`the table has at least 25 cases (${BAD.length})`, () => {
    expect(BAD.length).toBeGreaterThanOrEqual(25);
  });

  test.each(BAD)('%s fails synth naming the path, the field and the rule', (name, build, start, rule) => {
    // The rules are the same for every engine (the default, provider, here); the
    // carriers' second resource name (`<id>_settings`) is theirs alone.
    const error = synthError(build, name === 'two constructs giving the same resource name' ? 'terraform_data' : 'as-declared');
    expect(error).toBeDefined();
    const line = error!.split('\n').find((l) => l.includes(start));
    if (!line) throw new Error(`no message starting "${start}" in:\n${error}`);
    expect(line).toMatch(rule);
  });

  test('every broken rule is reported at once', () => {
    const error = synthError((s) => {
      const site = pkg(s, {
        domainName: 'exa mple.com',
        extraDomainNames: ['bad_one.com'],
        packageType: 0,
        label: 'y'.repeat(300),
        stackUser: 'nobody',
        documentRoots: { 'example.net': '../up' },
      });
      new Mailbox(s, 'info', { package: site, localPart: 'a b', password: 'p', passwordEnv: 'PW', passwordVersion: -1 });
      server(s, { provider: CloudProvider.AWS, spec: 'huge', zone: 'mars-1', periodMonths: 7, branded: true });
    })!;
    const expected = [
      'MyStack/site: domainName "exa mple.com"',
      'MyStack/site: extraDomainNames[0]',
      'MyStack/site: documentRoots["example.net"]',
      'MyStack/site: packageType',
      'MyStack/site: label',
      'MyStack/site: stackUser',
      'MyStack/info: localPart',
      'MyStack/info: password and passwordEnv',
      'MyStack/info: passwordVersion',
      'MyStack/web1: spec "huge"',
      'MyStack/web1: zone "mars-1"',
      'MyStack/web1: periodMonths',
      'MyStack/web1: branded',
    ];
    for (const e of expected) expect(error).toContain(e);
    expect(error.split('\n').filter((l) => l.includes('MyStack/')).length).toBeGreaterThanOrEqual(expected.length);
  });

  test('node.validate() gives the same messages without synthesizing', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'MyStack');
    pkg(stack, { domainName: 'exa mple.com', packageType: '' });
    const messages = validationMessages(stack);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^MyStack\/site: domainName "exa mple.com" is not a valid domain name/);
    expect(messages[1]).toMatch(/^MyStack\/site: packageType/);
  });

  test('a valid stack has no messages; an absent child of an absent parent is fine', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'MyStack');
    new ResellerHosting(stack, 'reseller', { apiUrl: 'https://api.example.com/base', resellerId: '*' });
    const s = server(stack, { absent: true });
    const site = pkg(stack, { cloudServer: s, absent: true, documentRoots: { 'Example.NET': 'public_html/net' } });
    new Mailbox(stack, 'info', { package: site, localPart: 'info', absent: true });
    new Forwarder(stack, 'info-fwd', { package: site, localPart: 'info', remote: 'x@example.org', absent: true });
    new Mailbox(stack, 'legacy-info', { package: HostingPackage.fromDomainName(stack, 'legacy', 'legacy.example.com'), localPart: 'info' });
    expect(validationMessages(stack)).toEqual([]);
  });
});
