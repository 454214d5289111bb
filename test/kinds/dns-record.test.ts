import { definitionOf } from '../../src/protocol';

/** The DNS record definition's own rules: import ids both ways, canonical values, checks per type. */
const def = definitionOf('dns-record');
const spec = (fields: Record<string, unknown>) => ({ kind: 'dns-record', path: 'test/r', packageDomain: 'example.com', zone: 'example.com', name: '@', ...fields }) as never;

describe('dns-record import ids', () => {
  test.each([
    ['example.com/www/CNAME/Example.com.', 'example.com/www.example.com/CNAME/example.com', 'example.com'],
    ['example.com/@/MX/10 mail.example.com', 'example.com/example.com/MX/10 mail.example.com', 'example.com'],
    ['example.com/_dmarc/TXT/v=DMARC1; p=none; rua=mailto:a@example.com/x', 'example.com/_dmarc.example.com/TXT/v=DMARC1; p=none; rua=mailto:a@example.com/x', 'example.com'],
    ['example.com/_sip._tcp/srv/10 5 5060 sip.example.com', 'example.com/_sip._tcp.example.com/SRV/10 5 5060 sip.example.com', 'example.com'],
    ['example.com/v6/AAAA/2001:DB8:0::1', 'example.com/v6.example.com/AAAA/2001:db8::1', 'example.com'],
    ['example.com/#7000012', 'example.com/#7000012', 'example.com'],
    ['shop.com:shop.net/www/A/192.0.2.1', 'shop.net/www.shop.net/A/192.0.2.1', 'shop.com'],
  ])('%s', (text, key, placement) => {
    const id = def.parseImportId(text);
    expect(id).toEqual({ kind: 'dns-record', key, placement, parent: '' });
    expect(def.parseImportId(def.formatImportId(id as never))).toEqual(id);
  });

  test.each([
    ['example.com', /must be zone\/name\/type\/value/],
    ['example.com/@/MX/mail.example.com', /the value of a MX record must be "priority target"/],
    ['example.com/@/NS/ns1.example.net', /type must be one of A, AAAA, CNAME, MX, TXT, SRV/],
    ['exa mple.com/@/A/192.0.2.1', /zone/],
  ])('refuses %s', (text, problem) => {
    expect(def.parseImportId(text)).toMatch(problem);
  });
});

describe('dns-record checks', () => {
  const problems = (fields: Record<string, unknown>) => def.check(spec(fields)).problems.map((p) => p.message);

  test('every broken rule at once, each naming the path and field', () => {
    expect(problems({ name: 'bad name!', type: 'SRV', value: 'sip.example.com', priority: 70000 })).toEqual([
      expect.stringMatching(/^test\/r: name "bad name!" is not a valid owner name/),
      'test/r: priority must be an integer from 0 to 65535, not 70000',
      'test/r: weight is required for a SRV record',
      'test/r: port is required for a SRV record',
    ]);
    expect(problems({ type: 'CNAME', value: 'example.net' })).toEqual([
      'test/r: name must not be @ for a CNAME: the zone apex holds the SOA and NS records, and a CNAME may not share its name',
    ]);
    expect(problems({ type: 'A', value: '192.0.2.1', weight: 1 })).toEqual(['test/r: weight applies to SRV records only, not A']);
    expect(problems({ type: 'TXT', value: 'two\nlines' })).toEqual(["test/r: value must be one line (a TXT record's text)"]);
  });

  test('canonical form: type upper case, names relative and lowercase, targets without the trailing dot, IPv6 compressed', () => {
    expect(def.check(spec({ name: 'WWW.Example.com.', type: 'cname', value: 'Target.Example.NET.' })).spec).toMatchObject({ name: 'www', type: 'CNAME', value: 'target.example.net' });
    expect(def.check(spec({ name: 'example.com', type: 'AAAA', value: '2001:0DB8:0000::0001' })).spec).toMatchObject({ name: '@', value: '2001:db8::1' });
  });
});
