import type { AccountDump, EmulatorStateDump } from '../../src/emulator';
import { escapeHtml, matchPage, pageReply, PAGE_HEADERS, renderAccount, renderAccountList } from '../../src/emulator/page';
import { html, httpUrl, raw } from '../../src/emulator/page/html';
import { STYLESHEET, STYLESHEET_HASH } from '../../src/emulator/page/style';
import { createHash } from 'node:crypto';

/** The control-panel page's HTML, rendered from hand-made state dumps (no server, no browser). */

const HOSTILE = `<script>alert("x")</script>&'"\`<img src=x onerror=alert(1)>`;

function account(overrides: Partial<AccountDump> = {}): AccountDump {
  return {
    id: 989900,
    isDefault: true,
    balance: 980,
    brand: null,
    packageTypes: [{ id: 811, label: 'Linux Unlimited', platform: 'linux' }],
    users: [{
      ref: 'stack-user:989901',
      id: 989901,
      contact: { person_name: 'Alex Owner', email: 'owner@example.com', company_name: 'Owner Web Ltd', city: 'London', ccAlpha2: 'GB' },
      grants: ['package:1000001'],
    }],
    packages: [],
    cloudServers: [],
    certificateDelayMs: 0,
    domains: [],
    ...overrides,
  };
}

function dumpOf(...accounts: AccountDump[]): EmulatorStateDump {
  return { version: 1, now: '2025-01-01T12:00:00.000Z', settings: { provisionDelayMs: 3000 }, defaultAccountId: accounts[0]?.id ?? 1, accounts };
}

const server = (overrides: Partial<AccountDump['cloudServers'][number]> = {}): AccountDump['cloudServers'][number] => ({
  id: 300001, name: 'web1.example.com', type: 'cloud-20i', provider: '20icloud', spec: 'medium', zone: 'dc_location-uk',
  periodMonths: 1, bandwidth: null, disk: null, branded: true, forUser: 'stack-user:989901', charged: 20,
  orderedAt: '2025-01-01T11:59:58.000Z', readyAt: '2025-01-01T12:00:03.000Z', state: 'ready', packageIds: [], ...overrides,
});

/** Every value of a full account set to a hostile string. */
function hostileAccount(): AccountDump {
  return account({
    brand: { name: HOSTILE, logoUrl: `https://logo.example/a.png?x="><script>alert(1)</script>` },
    packageTypes: [{ id: 811, label: HOSTILE, platform: 'linux' }],
    users: [{
      ref: `stack-user:${HOSTILE}`, id: 1,
      contact: { person_name: HOSTILE, email: HOSTILE, company_name: HOSTILE, city: HOSTILE, ccAlpha2: HOSTILE },
      grants: [`package:${HOSTILE}`],
    }],
    packages: [{
      id: 1000001, name: HOSTILE, names: [HOSTILE, `${HOSTILE}.net`], typeRef: 811, packageTypeName: HOSTILE, platform: 'linux',
      label: HOSTILE, enabled: true, created: HOSTILE, documentRoots: { [HOSTILE]: HOSTILE }, stackUsers: [`stack-user:${HOSTILE}`],
      cloudServerId: 300001,
      mail: [{
        domain: HOSTILE,
        mailboxes: [{ id: 'm1', local: HOSTILE, address: HOSTILE, send: true, receive: false, enabled: true, quotaMB: 1024, usageMB: 0, passwordSha256: 'a'.repeat(64) }],
        forwarders: [{ id: 'f2', local: HOSTILE, address: HOSTILE, remote: HOSTILE }],
        responders: [{
          id: 'r3', local: HOSTILE, address: HOSTILE, subject: HOSTILE, content: HOSTILE, type: HOSTILE, enabled: true,
          startTime: HOSTILE, endTime: HOSTILE, forwardTo: HOSTILE,
        }],
      }],
      dns: [{
        apex: HOSTILE,
        records: [
          { type: 'SOA', host: HOSTILE, ref: null, mname: HOSTILE, rname: HOSTILE, serial: 1 },
          { type: 'TXT', host: HOSTILE, ref: 7000002, txt: HOSTILE },
          { type: 'MX', host: HOSTILE, ref: 7000003, pri: 10, target: HOSTILE },
          { type: HOSTILE, host: HOSTILE, ref: 7000004, target: HOSTILE },
        ],
      }],
      web: {
        forceHttps: true, phpVersion: HOSTILE,
        certificates: [{ id: 4001, commonName: HOSTILE, provider: HOSTILE, state: 'issuing', issuedAt: HOSTILE }],
        waitingForDns: [{ name: HOSTILE, requestedAt: HOSTILE }],
      },
      mysqlDatabases: [{ id: 410001, name: HOSTILE, host: HOSTILE, externalHostname: HOSTILE, server: HOSTILE, quotaMb: 1024, quotaUsed: 0, passwordSha256: 'b'.repeat(64) }],
    }],
    cloudServers: [server({ name: HOSTILE, provider: HOSTILE, spec: HOSTILE, zone: HOSTILE, readyAt: HOSTILE, state: 'provisioning', packageIds: [1000001] })],
    domains: [{
      id: 400001, name: HOSTILE, registeredAt: HOSTILE, expiresAt: HOSTILE, hasPrivacy: true, pendingTransfer: true, registrantIsVerified: true,
      renewalConstraint: HOSTILE, preferredRenewalMonths: 12, nameservers: [HOSTILE, HOSTILE], transferAllowed: false, charged: 0,
      dnsZone: { apex: HOSTILE, onPackage: HOSTILE, records: [{ type: 'TXT', host: HOSTILE, ref: 7000009, txt: HOSTILE }] },
    }],
  });
}

describe('escaping', () => {
  it('escapeHtml and the html tag escape text, keep fragments, drop null/undefined/false', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\``)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;');
    const name = '<b>';
    expect(html`<p>${name}${html`<i>${name}</i>`}${null}${undefined}${false}${0}${[name, '&']}</p>`.text)
      .toBe('<p>&lt;b&gt;<i>&lt;b&gt;</i>0&lt;b&gt;&amp;</p>');
    expect(raw('<hr>').text).toBe('<hr>');
  });

  it('only absolute http(s) URLs are links', () => {
    expect(httpUrl('https://acme.example/logo.png')).toBe('https://acme.example/logo.png');
    expect(httpUrl('http://127.0.0.1:8080/l.svg')).toBe('http://127.0.0.1:8080/l.svg');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:image/svg+xml,<svg/>', '//evil.example/x', '/logo.png', '', null, undefined]) {
      expect(httpUrl(bad)).toBeUndefined();
    }
  });

  it('hostile names anywhere in the state never become markup', () => {
    const page = renderAccount(dumpOf(hostileAccount()), hostileAccount());
    // The only elements are the page's own: no injected script, event handler or attribute.
    expect(page).not.toContain('<script');
    const tagsWithoutValues = [...page.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0].replace(/"[^"]*"/g, '""'));
    for (const tag of tagsWithoutValues) expect(tag).not.toMatch(/\son[a-z]+=|\ssrc=x/i);
    const imgs = [...page.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1]);
    expect(imgs).toEqual(['https://logo.example/a.png?x=%22%3E%3Cscript%3Ealert(1)%3C/script%3E']); // the logo only, percent-encoded
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&quot;&#96;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain(`alt="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;`);
    // Every tag in the page is one the renderer writes.
    const tags = new Set([...page.matchAll(/<([a-z0-9]+)[\s>]/gi)].map((m) => m[1].toLowerCase()));
    expect([...tags].sort()).toEqual(
      ['body', 'caption', 'code', 'dd', 'div', 'dl', 'dt', 'footer', 'h1', 'h2', 'h3', 'head', 'header', 'html', 'img', 'li', 'main', 'meta', 'p',
        'section', 'span', 'style', 'table', 'tbody', 'td', 'th', 'thead', 'title', 'tr', 'ul'].sort(),
    );
  });

  it('the account list escapes brand names', () => {
    const page = renderAccountList(dumpOf(hostileAccount(), account({ id: 2, isDefault: false })));
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;');
  });

  it('a logo that is not an http(s) URL is not shown; the brand name still is', () => {
    for (const logoUrl of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '']) {
      const a = account({ brand: { name: 'Acme', logoUrl }, cloudServers: [server()] });
      const page = renderAccount(dumpOf(a), a);
      expect(page).not.toContain('<img');
      expect(page).toContain('<span>Acme</span>');
    }
  });
});

describe('content', () => {
  it('never shows a key, a key digest or a password hash', () => {
    const a = hostileAccount();
    const withSecrets = { ...a, keySha256: 'k'.repeat(64), apiKey: 'super-secret-key' } as AccountDump;
    const page = renderAccount(dumpOf(withSecrets), withSecrets);
    expect(page).not.toContain('super-secret-key');
    expect(page).not.toContain('k'.repeat(64));
    expect(page).not.toContain('a'.repeat(64)); // the mailbox's passwordSha256
    expect(page).not.toMatch(/apiKey|keySha256|passwordSha256/);
  });

  it('an empty account says so in every section, with no empty tables and no refresh', () => {
    const a = account({ users: [] });
    const page = renderAccount(dumpOf(a), a);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<h1>Account 989900');
    for (const text of [
      'No hosting packages in this account yet.',
      'No mailboxes or forwarders in this account yet.',
      'No DNS zones in this account yet.',
      'No cloud servers in this account yet.',
      'No control-panel users in this account.',
      'No domain names registered in this account.',
    ]) expect(page).toContain(text);
    expect(page).not.toContain('<table');
    expect(page).not.toContain('http-equiv="refresh"');
  });

  it('a provisioning server shows its state and makes the page refresh; a ready one does not', () => {
    const busy = account({ cloudServers: [server({ state: 'provisioning', branded: false })] });
    const page = renderAccount(dumpOf(busy), busy);
    expect(page).toContain('<meta http-equiv="refresh" content="2">');
    expect(page).toContain('<span class="badge busy">provisioning</span><span class="sub nw">ready at 12:00:03 UTC</span>');
    expect(page).toContain('role="status"');
    expect(page).toContain('not branded');

    const ready = account({ cloudServers: [server()] });
    expect(renderAccount(dumpOf(ready), ready)).not.toContain('http-equiv="refresh"');
    // The list page refreshes while any account has a provisioning server.
    expect(renderAccountList(dumpOf(ready, { ...busy, id: 2, isDefault: false }))).toContain('http-equiv="refresh"');
    expect(renderAccountList(dumpOf(ready, { ...ready, id: 2, isDefault: false }))).not.toContain('http-equiv="refresh"');
  });

  it('a branded server shows the brand name and its logo with alt text', () => {
    const a = account({ brand: { name: 'Acme & Co', logoUrl: 'https://acme.example/logo.png' }, cloudServers: [server()] });
    const page = renderAccount(dumpOf(a), a);
    expect(page).toContain('<span class="brand"><img src="https://acme.example/logo.png" alt="Acme &amp; Co logo" width="32" height="32" referrerpolicy="no-referrer"><span>Acme &amp; Co</span></span>');
    expect(page).toContain('2 CPU, 4 GB RAM, 80 GB disk');
  });

  it('each zone is a table of its records: name, type, value as a zone file shows it, ref', () => {
    const a = account({
      packages: [{
        id: 1000001, name: 'shop.example', names: ['shop.example', 'shop.example.org'], typeRef: 811, packageTypeName: 'Linux Unlimited', platform: 'linux',
        label: null, enabled: true, created: '2025-01-01T12:00:00+00:00', documentRoots: {}, stackUsers: [], cloudServerId: null, mail: [],
        dns: [
          { apex: 'shop.example', records: [
            { type: 'SOA', host: 'shop.example', ref: null, mname: 'ns1.stackdns.com', rname: 'hostmaster.stackdns.com', serial: 1 },
            { type: 'MX', host: 'shop.example', ref: 7000005, pri: 10, target: 'mx.stackmail.com' },
            { type: 'SRV', host: '_sip._tcp.shop.example', ref: 7000006, pri: 1, weight: 2, port: 5060, target: 'sip.shop.example' },
          ] },
          { apex: 'shop.example.org', records: [{ type: 'TXT', host: 'shop.example.org', ref: 7000007, txt: 'v=spf1 -all' }] },
        ],
        web: { forceHttps: false, phpVersion: 'php81', certificates: [], waitingForDns: [] },
        mysqlDatabases: [],
      }],
    });
    const page = renderAccount(dumpOf(a), a);
    expect(page).toContain('<h2 id="dns-heading">DNS</h2>');
    expect(page).toContain('<td>10 mx.stackmail.com</td>');
    expect(page).toContain('<td>1 2 5060 sip.shop.example</td>');
    expect(page).toContain('<td>&quot;v=spf1 -all&quot;</td>');
    expect(page).toContain('shop.example.org <span class="sub">on shop.example</span>');
    expect(page).toMatch(/<td>SOA<\/td>[\s\S]*?<span class="sub">none<\/span>/);
  });

  it('tables have captions and scoped header cells', () => {
    const page = renderAccount(dumpOf(hostileAccount()), hostileAccount());
    expect(page.match(/<table>/g)!.length).toBe(page.match(/<caption[ >]/g)!.length);
    expect(page.match(/<th(?=[\s>])/g)!.length).toBe(page.match(/<th scope="(col|row)"/g)!.length);
  });

  it('the stylesheet is allowed by its hash in the Content-Security-Policy, and nothing else is', () => {
    expect(STYLESHEET_HASH).toBe(`sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`);
    expect(PAGE_HEADERS['Content-Security-Policy']).toContain(`style-src '${STYLESHEET_HASH}'`);
    expect(PAGE_HEADERS['Content-Security-Policy']).toMatch(/^default-src 'none';/);
    expect(PAGE_HEADERS['Content-Security-Policy']).not.toMatch(/script-src|unsafe/);
    const a = account();
    expect(renderAccount(dumpOf(a), a)).toContain(`<style>${STYLESHEET}</style>`);
    expect(renderAccount(dumpOf(a), a)).not.toMatch(/\sstyle="/);
  });
});

describe('routes', () => {
  it('matchPage: GET/HEAD of / and /accounts/{id} only', () => {
    expect(matchPage('GET', '/')).toEqual({ kind: 'index' });
    expect(matchPage('HEAD', '/')).toEqual({ kind: 'index' });
    expect(matchPage('GET', '/accounts/989900')).toEqual({ kind: 'account', id: '989900' });
    expect(matchPage('GET', '/accounts/%3Cb%3E')).toEqual({ kind: 'account', id: '<b>' });
    expect(matchPage('GET', '/accounts/%E0%A4%A')).toEqual({ kind: 'account', id: '%E0%A4%A' });
    for (const [method, path] of [['POST', '/'], ['PUT', '/accounts/1'], ['DELETE', '/'], ['GET', '/accounts'], ['GET', '/accounts/'],
      ['GET', '/accounts/1/x'], ['GET', '/package'], ['GET', '/nowhere'], ['GET', '//']]) {
      expect(matchPage(method, path)).toBeUndefined();
    }
  });

  it('pageReply: 403 without reading the state for a non-loopback client', () => {
    const snapshot = jest.fn(() => dumpOf(account()));
    for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.1.1.1', '2001:db8::1', undefined]) {
      const reply = pageReply({ kind: 'index' }, address, snapshot);
      expect(reply.status).toBe(403);
      expect(reply.body).toContain('loopback clients only');
      expect(reply.body).not.toContain('989900');
    }
    expect(snapshot).not.toHaveBeenCalled();
  });

  it('pageReply: / redirects to the only account, lists several; unknown ids are a 404 page', () => {
    const one = dumpOf(account());
    expect(pageReply({ kind: 'index' }, '127.0.0.1', () => one)).toMatchObject({ status: 302, headers: { Location: '/accounts/989900' } });
    const two = dumpOf(account(), account({ id: 555000, isDefault: false }));
    const list = pageReply({ kind: 'index' }, '::1', () => two);
    expect(list.status).toBe(200);
    expect(list.body).toContain('<a href="/accounts/555000">Account 555000</a>');
    expect(pageReply({ kind: 'account', id: '555000' }, '::ffff:127.0.0.1', () => two).status).toBe(200);
    for (const id of ['1', '0989900', '989900.0', '1e6', 'abc', '<b>', '9'.repeat(40)]) {
      const reply = pageReply({ kind: 'account', id }, '127.0.0.1', () => two);
      expect(reply.status).toBe(404);
      expect(reply.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(reply.body).not.toContain('<b>');
    }
  });
});
