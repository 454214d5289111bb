import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { launchChromium } from '../helpers/browser';
import { API_KEY, handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform } from '../helpers/mini-terraform';
import { synthExample } from '../helpers/synth';

/**
 * The emulator's control-panel page in a real browser (Chromium driven by
 * playwright-core): the example stack deployed against an emulator, an empty
 * account, a provisioning server that the page watches by reloading itself, and a
 * 404. With UPDATE_SCREENSHOT=1 it also rewrites docs/screenshot.png (the example
 * account) for the README; otherwise it only checks that the page renders to an image.
 *
 * The browser is CHROMIUM_PATH, else a system Chromium, else the one inside the
 * @sparticuz/chromium dev dependency (test/helpers/browser.ts). Without any, this suite
 * FAILS (it never skips).
 */

const PASSWORD = 'Demo-Mailbox-Passw0rd!';
const BRAND = 'Example Hosting';
const SCREENSHOT = join(REPO_ROOT, 'docs', 'screenshot.png');

/** A small logo, served by the test on loopback (the page only links http(s) logos). */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2563eb"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>
<rect width="64" height="64" rx="14" fill="url(#g)"/>
<path d="M14 44 L26 20 L34 34 L40 26 L50 44 Z" fill="#ffffff" opacity="0.95"/>
<circle cx="46" cy="18" r="5" fill="#fcd34d"/>
</svg>`;

let emu: TestEmulator;
let logoServer: http.Server;
let logoUrl: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  requireBuiltHandler();
  logoServer = http.createServer((req, res) => {
    if (req.url !== '/logo.svg') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end(LOGO_SVG);
  });
  await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));
  logoUrl = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;

  emu = await startTestEmulator({ provisionDelayMs: 300 });
  await emu.control('POST', 'brand', { name: BRAND, logoUrl });
  const { stackDir, json } = synthExample({}, mkdtempSync(join(tmpdir(), 'reseller-browser-')));
  const tf = new MiniTerraform(stackDir, handlerEnv(emu.url, mkdtempSync(join(tmpdir(), 'journal-'))), { mailbox_password: PASSWORD });
  const [launched] = await Promise.all([launchChromium(), tf.apply(json)]);
  browser = launched.browser;
  page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await emu?.stop();
  await new Promise((resolve) => (logoServer ? logoServer.close(resolve) : resolve(undefined)));
});

/** The text of every row of the table whose caption matches, cells joined by " | ". */
async function rowsOf(caption: RegExp): Promise<string[]> {
  const table = page.getByRole('table', { name: caption });
  const rows = table.locator('tbody tr');
  // (The project compiles without the DOM lib: page-side values are typed structurally.)
  return rows.evaluateAll((trs: Array<{ children: ArrayLike<{ innerText: string }> }>) =>
    trs.map((tr) => Array.from(tr.children).map((c) => c.innerText.replace(/\s+/g, ' ').trim()).join(' | ')));
}

/**
 * Runs checks against a page that may reload itself (meta refresh) meanwhile: a check
 * cut off by the reload is run again on the new document.
 */
async function acrossReloads(checks: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await checks();
    } catch (err) {
      const navigated = /Execution context was destroyed|navigat|Target closed|frame was detached/i.test(String(err));
      if (!navigated || attempt >= 3) throw err;
      await page.waitForLoadState('load');
    }
  }
}

test('the example account: packages, mail objects and the branded server', async () => {
  const res = await page.goto(`${emu.url}/`);
  expect(res?.status()).toBe(200);
  expect(page.url()).toBe(`${emu.url}/accounts/989900`); // the only account: / redirects to it
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  expect(await page.locator('h1').innerText()).toMatch(/Account 989900/);
  expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0); // nothing provisioning

  const packages = await rowsOf(/packages/);
  expect(packages).toHaveLength(3);
  const row = (domain: string) => packages.find((r) => r.startsWith(`${domain} `)) ?? '';
  expect(row('example-shop.com')).toMatch(/also example-shop\.net, example-shop\.org/);
  expect(row('example-shop.com')).toMatch(/\| Example Shop Ltd \| Linux Unlimited linux \| enabled \| Alex Owner stack-user:989901 \| Reseller account$/);
  expect(row('example-blog.com')).toMatch(/\| Example Blog \| Linux Starter linux \| enabled \| Sam Ops stack-user:989902 \| Reseller account$/);
  expect(row('app.example-shop.com')).toMatch(/\| Managed Cloud linux \| enabled \| none \| Cloud server web1\.example-shop\.com$/);

  expect(await rowsOf(/of package example-shop\.com/)).toEqual([
    'info@example-shop.com | Mailbox | Sends and receives 0 of 1024 MB used | enabled',
    'orders@example-shop.com | Mailbox | Sends and receives 0 of 1024 MB used | enabled',
    'sales@example-shop.com | Forwarder | Forwards to sales-team@example.org | active',
  ]);
  expect(await rowsOf(/of package example-blog\.com/)).toEqual([
    'editor@example-blog.com | Mailbox | Sends and receives 0 of 1024 MB used | enabled',
    'tips@example-blog.com | Forwarder | Forwards to editor@example-blog.com | active',
  ]);

  const servers = await rowsOf(/cloud server/);
  expect(servers).toHaveLength(1);
  expect(servers[0]).toMatch(/^web1\.example-shop\.com server \d+ \| medium 2 CPU, 4 GB RAM, 80 GB disk \| dc_location-uk GB \| 20icloud \| ready \| 1 app\.example-shop\.com \| Example Hosting$/);
  const logo = page.getByRole('img', { name: `${BRAND} logo` });
  expect(await logo.getAttribute('src')).toBe(logoUrl);
  await logo.evaluate((img: { decode(): Promise<void> }) => img.decode()); // it really loads
  expect(await logo.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);

  const users = await rowsOf(/users/);
  expect(users).toEqual([
    expect.stringMatching(/^Alex Owner stack-user:989901 \| owner@example\.com \| Owner Web Ltd \| London, GB \| example-shop\.com$/),
    expect.stringMatching(/^Sam Ops stack-user:989902 \| ops@example\.org \| Example Ops LLC \| Austin, US \| example-blog\.com$/),
  ]);

  // Accessible structure: every table has a caption and scoped header cells; images have alt text.
  expect(await page.locator('table:not(:has(> caption))').count()).toBe(0);
  expect(await page.locator('th:not([scope])').count()).toBe(0);
  expect(await page.locator('img:not([alt])').count()).toBe(0);

  // Never a secret: no key (raw or as the bearer token), no mailbox password or its hash.
  const source = await page.content();
  const secrets = [API_KEY, Buffer.from(API_KEY).toString('base64'), PASSWORD];
  for (const m of emu.account().packages.flatMap((p) => p.mail.flatMap((d) => d.mailboxes))) secrets.push(m.passwordSha256);
  for (const secret of secrets) expect(source).not.toContain(secret);

  // The page renders: a full-page PNG taller than the viewport (three tables and more).
  // Only UPDATE_SCREENSHOT=1 rewrites the README's picture: pixels differ between
  // browser builds and fonts, and a test run must leave git clean.
  const png = await page.screenshot({ fullPage: true });
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.readUInt32BE(20)).toBeGreaterThan(900); // IHDR height
  if (process.env.UPDATE_SCREENSHOT === '1') writeFileSync(SCREENSHOT, png);
});

test('an empty account, and / listing several accounts', async () => {
  await emu.control('POST', 'accounts', { id: 555000, apiKey: 'second-key' });
  const res = await page.goto(`${emu.url}/`);
  expect(res?.status()).toBe(200);
  expect(page.url()).toBe(`${emu.url}/`);
  expect(await rowsOf(/reseller accounts/)).toEqual([
    expect.stringMatching(/^Account 989900 default account \| 980\.00 \| 3 \| 5 \| 1 \| Example Hosting$/),
    expect.stringMatching(/^Account 555000 \| 1000\.00 \| 0 \| 0 \| 0 \| none$/),
  ]);

  await page.getByRole('link', { name: 'Account 555000' }).first().click();
  await page.waitForURL(`${emu.url}/accounts/555000`);
  expect(await page.locator('h1').innerText()).toBe('Account 555000');
  expect(await page.getByRole('navigation', { name: 'Accounts' }).locator('[aria-current="page"]').innerText()).toBe('Account 555000');
  const text = await page.locator('main').innerText();
  expect(text).toContain('No hosting packages in this account yet.');
  expect(text).toContain('No mailboxes or forwarders in this account yet.');
  expect(text).toContain('No cloud servers in this account yet.');
  expect(text).not.toContain('example-shop.com'); // nothing of the other account
  expect(await rowsOf(/users/)).toHaveLength(2); // the fixture users
  expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
});

test('a provisioning server: its state is shown and the page reloads itself until it is ready', async () => {
  await emu.control('POST', 'settings', { provisionDelayMs: 600_000 });
  const account = emu.emulator.snapshot().accounts.find((a) => a.id === 555000)!;
  const order = await fetch(`${emu.url}/reseller/*/addCloudServer`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${Buffer.from('second-key').toString('base64')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      configuration: { spec: 'small', zone: 'dc_location-usa', provider: '20icloud', mvpsName: 'web9.example.net' },
      periodMonths: '1', type: 'cloud-20i', forUser: account.users[0].ref,
    }),
  });
  expect(order.status).toBe(200);

  await page.goto(`${emu.url}/accounts/555000`);
  await acrossReloads(async () => {
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe('2');
    expect(await page.getByRole('status').innerText()).toMatch(/A cloud server is provisioning\. This page reloads every 2 seconds/);
    expect(await rowsOf(/cloud server/)).toEqual([
      expect.stringMatching(/^web9\.example\.net server \d+ \| small 1 CPU, 2 GB RAM, 50 GB disk \| dc_location-usa US \| 20icloud \| provisioning ready at \d\d:\d\d:\d\d UTC \| 0 \| not branded$/),
    ]);
  });

  // The server becomes ready: the page notices by itself (no reload from the test).
  await emu.control('POST', 'settings', { provisionDelayMs: 0 });
  await page.locator('tbody .badge', { hasText: /^ready$/ }).waitFor({ timeout: 10_000 });
  expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
  expect(await page.getByRole('status').count()).toBe(0);
});

test('an unknown account id is a 404 page, and a hostile id stays text', async () => {
  const res = await page.goto(`${emu.url}/accounts/123456`);
  expect(res?.status()).toBe(404);
  expect(await page.locator('h1').innerText()).toBe('Not found');
  expect(await page.locator('main').innerText()).toContain('There is no reseller account 123456 in this emulator');

  const hostile = await page.goto(`${emu.url}/accounts/${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
  expect(hostile?.status()).toBe(404);
  expect(await page.locator('main img').count()).toBe(0);
  expect(await page.locator('main').innerText()).toContain('There is no reseller account <img src=x onerror=alert(1)> in this emulator');
});
