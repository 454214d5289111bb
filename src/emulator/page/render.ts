import { CLOUD_SIZES, providerFromApi } from '../../protocol/cloud';
import { countryOfZone } from '../backend/geo';
import type { AccountDump, CloudServerDump, DnsZoneDump, EmulatorStateDump, MailDomainDump, PackageDump, UserDump } from '../snapshot';
import { Html, HtmlValue, html, httpUrl, join, raw } from './html';
import { STYLESHEET } from './style';

/**
 * The control-panel page: plain server-rendered HTML of the secret-free state dump
 * (EmulatorStateDump). Read-only, no script. Every value goes through the `html` tag,
 * so it is escaped. Nothing here reads the emulator's internal state: no API key (nor
 * its digest) and no password hash can reach the page.
 */

/** Seconds between automatic reloads while a cloud server is provisioning. */
export const REFRESH_SECONDS = 2;

const PRODUCT = 'Reseller control panel';

/** The path of an account's view. */
export function accountPath(id: number): string {
  return `/accounts/${encodeURIComponent(String(id))}`;
}

/** `/`: every account of the emulator, with links to their views. */
export function renderAccountList(dump: EmulatorStateDump): string {
  const provisioning = dump.accounts.some(hasProvisioningServer);
  const rows = dump.accounts.map((a) => html`
      <tr>
        <th scope="row" class="nw"><a href="${accountPath(a.id)}">Account ${a.id}</a>${a.isDefault ? html`<span class="sub">default account</span>` : null}</th>
        <td>${money(a.balance)}</td>
        <td>${a.packages.length}</td>
        <td>${mailCount(a)}</td>
        <td>${a.cloudServers.length}${hasProvisioningServer(a) ? html` <span class="badge busy">provisioning</span>` : null}</td>
        <td>${a.brand ? a.brand.name : html`<span class="sub">none</span>`}</td>
      </tr>`);
  const body = html`
    <h1>Reseller accounts</h1>
    ${provisioning ? refreshNotice(dump) : null}
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Accounts</h2>
      ${dump.accounts.length === 0
        ? html`<p class="empty">This emulator has no accounts.</p>`
        : html`<table>
        <caption>${plural(dump.accounts.length, 'reseller account')} in this emulator</caption>
        <thead><tr><th scope="col">Account</th><th scope="col">Balance</th><th scope="col">Packages</th><th scope="col">Mail objects</th><th scope="col">Cloud servers</th><th scope="col">Brand</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
  return layout({ title: `Accounts · ${PRODUCT}`, refresh: provisioning, dump, body });
}

/** `/accounts/{id}`: one account's packages, mail, cloud servers and users. */
export function renderAccount(dump: EmulatorStateDump, account: AccountDump): string {
  const provisioning = hasProvisioningServer(account);
  const body = html`
    <h1>Account ${account.id}${account.isDefault ? html` <span class="sub">default account</span>` : null}</h1>
    ${provisioning ? refreshNotice(dump) : null}
    <dl class="summary" aria-label="Account summary">
      <div><dt>Balance</dt><dd>${money(account.balance)}</dd></div>
      <div><dt>Packages</dt><dd>${account.packages.length}</dd></div>
      <div><dt>Mail objects</dt><dd>${mailCount(account)}</dd></div>
      <div><dt>Cloud servers</dt><dd>${account.cloudServers.length}</dd></div>
      <div><dt>Users</dt><dd>${account.users.length}</dd></div>
      <div class="wide"><dt>Brand</dt><dd>${account.brand ? account.brand.name : html`<span class="sub">not set</span>`}</dd></div>
    </dl>
    ${packagesSection(account)}
    ${mailSection(account)}
    ${dnsSection(account)}
    ${serversSection(account)}
    ${usersSection(account)}`;
  return layout({ title: `Account ${account.id} · ${PRODUCT}`, refresh: provisioning, dump, current: account.id, body });
}

/** 404: no such page or account. `what` is shown escaped (it may come from the path). */
export function renderNotFound(dump: EmulatorStateDump, what: string): string {
  const body = html`
    <h1>Not found</h1>
    <section aria-labelledby="nf-heading">
      <h2 id="nf-heading">There is no ${what} in this emulator</h2>
      <p><a href="/">See all accounts</a></p>
    </section>`;
  return layout({ title: `Not found · ${PRODUCT}`, refresh: false, dump, body });
}

/** 403 for a client that is not on loopback (shows nothing of the state). */
export function renderForbidden(): string {
  const body = html`
    <h1>Forbidden</h1>
    <section aria-labelledby="fb-heading">
      <h2 id="fb-heading">The control panel answers loopback clients only</h2>
      <p>Open it from the machine the emulator runs on.</p>
    </section>`;
  return layout({ title: `Forbidden · ${PRODUCT}`, refresh: false, dump: undefined, body });
}

// ---------------------------------------------------------------------------------

function layout(page: { title: string; refresh: boolean; dump: EmulatorStateDump | undefined; current?: number; body: Html }): string {
  const accounts = page.dump?.accounts ?? [];
  const nav = accounts.length > 1
    ? html`
    <nav aria-label="Accounts">
      <ul>
        <li><a href="/">All accounts</a></li>${accounts.map((a) => html`
        <li><a href="${accountPath(a.id)}"${a.id === page.current ? raw(' aria-current="page"') : null}>Account ${a.id}</a></li>`)}
      </ul>
    </nav>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  ${page.refresh ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : null}
  <title>${page.title}</title>
  <style>${raw(STYLESHEET)}</style>
</head>
<body>
  <header class="topbar">
    <p>${PRODUCT} <span class="tag">emulator</span></p>${nav}
  </header>
  <main>${page.body}
  </main>
  <footer>
    <p>A read-only view of the emulator's state (the same data as <code>GET /__emulator/state</code>). API keys and passwords are never shown.</p>
  </footer>
</body>
</html>
`.text;
}

function refreshNotice(dump: EmulatorStateDump): Html {
  return html`<p class="notice" role="status">A cloud server is provisioning. This page reloads every ${REFRESH_SECONDS} seconds until it is ready (last updated ${clock(dump.now)}).</p>`;
}

function packagesSection(account: AccountDump): Html {
  const rows = account.packages.map((p) => {
    const server = p.cloudServerId === null ? undefined : account.cloudServers.find((s) => s.id === p.cloudServerId);
    const extra = p.names.filter((n) => n !== p.name);
    return html`
        <tr>
          <th scope="row">${p.name}${extra.length ? html`<span class="sub">also ${join(extra, ', ')}</span>` : null}<span class="sub">package ${p.id}</span></th>
          <td>${p.label ?? html`<span class="sub">none</span>`}</td>
          <td>${p.packageTypeName || p.typeRef}<span class="sub">${p.platform}</span></td>
          <td>${p.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge off">disabled</span>`}</td>
          <td>${userList(account, p.stackUsers)}</td>
          <td>${p.cloudServerId === null
            ? 'Reseller account'
            : html`Cloud server<span class="sub">${server ? server.name : `server ${p.cloudServerId}`}</span>`}</td>
        </tr>`;
  });
  return html`
    <section aria-labelledby="packages-heading">
      <h2 id="packages-heading">Hosting packages</h2>
      ${account.packages.length === 0
        ? html`<p class="empty">No hosting packages in this account yet.</p>`
        : html`<table>
        <caption>${plural(account.packages.length, 'package')}, with their domains and where they are hosted</caption>
        <thead><tr><th scope="col">Domains</th><th scope="col">Label</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Linked users</th><th scope="col">Hosted on</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
}

function mailSection(account: AccountDump): Html {
  const withMail = account.packages.filter((p) => p.mail.some((d) => d.mailboxes.length + d.forwarders.length > 0));
  const without = account.packages.filter((p) => !withMail.includes(p));
  return html`
    <section aria-labelledby="mail-heading">
      <h2 id="mail-heading">Mail</h2>
      ${withMail.length === 0 ? html`<p class="empty">No mailboxes or forwarders in this account yet.</p>` : withMail.map(mailTable)}
      ${withMail.length > 0 && without.length > 0
        ? html`<p class="empty after">No mail on ${join(without.map((p) => p.name), ', ')}.</p>`
        : null}
    </section>`;
}

function mailTable(p: PackageDump): Html {
  const rows = p.mail.flatMap((d: MailDomainDump) => [
    ...d.mailboxes.map((m) => html`
          <tr>
            <th scope="row">${m.address}</th>
            <td>Mailbox</td>
            <td>${mailboxFlow(m.send, m.receive)}<span class="sub">${m.usageMB} of ${m.quotaMB} MB used</span></td>
            <td>${m.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge off">disabled</span>`}</td>
          </tr>`),
    ...d.forwarders.map((f) => html`
          <tr>
            <th scope="row">${f.address}</th>
            <td>Forwarder</td>
            <td>Forwards to ${f.remote}</td>
            <td><span class="badge ok">active</span></td>
          </tr>`),
  ]);
  return html`
      <div class="mail">
        <h3>${p.name}</h3>
        <table>
          <caption class="vh">Mailboxes and forwarders of package ${p.name}</caption>
          <thead><tr><th scope="col" class="c-addr">Address</th><th scope="col" class="c-kind">Kind</th><th scope="col">Delivery</th><th scope="col" class="c-status">Status</th></tr></thead>
          <tbody>${rows}
          </tbody>
        </table>
      </div>`;
}

/** Every zone of every package: the records a reseller would otherwise edit by hand here. */
function dnsSection(account: AccountDump): Html {
  const zones = account.packages.flatMap((p) => p.dns.map((zone) => ({ pkg: p, zone })));
  return html`
    <section aria-labelledby="dns-heading">
      <h2 id="dns-heading">DNS</h2>
      ${zones.length === 0 ? html`<p class="empty">No DNS zones in this account yet.</p>` : zones.map(({ pkg, zone }) => zoneTable(pkg, zone))}
    </section>`;
}

function zoneTable(p: PackageDump, zone: DnsZoneDump): Html {
  const rows = zone.records.map((r) => html`
          <tr>
            <th scope="row">${String(r.host)}</th>
            <td>${String(r.type)}</td>
            <td>${recordValue(r)}</td>
            <td>${r.ref === null ? html`<span class="sub">none</span>` : String(r.ref)}</td>
          </tr>`);
  return html`
      <div class="mail">
        <h3>${zone.apex}${zone.apex === p.name ? null : html` <span class="sub">on ${p.name}</span>`}</h3>
        <table>
          <caption class="vh">DNS records of zone ${zone.apex}</caption>
          <thead><tr><th scope="col" class="c-addr">Name</th><th scope="col" class="c-kind">Type</th><th scope="col">Value</th><th scope="col" class="c-status">Ref</th></tr></thead>
          <tbody>${rows}
          </tbody>
        </table>
      </div>`;
}

/** A record's value as a zone file would show it (priority, weight and port before the target). */
function recordValue(r: DnsZoneDump['records'][number]): string {
  const { type, host: _host, ref: _ref, ...fields } = r;
  switch (type) {
    case 'A': return String(fields.ip);
    case 'AAAA': return String(fields.ipv6);
    case 'TXT': return `"${String(fields.txt)}"`;
    case 'MX': return `${String(fields.pri)} ${String(fields.target)}`;
    case 'SRV': return `${String(fields.pri)} ${String(fields.weight)} ${String(fields.port)} ${String(fields.target)}`;
    case 'SOA': return `${String(fields.mname)} ${String(fields.rname)} ${String(fields.serial)}`;
    default: return String(fields.target ?? Object.values(fields).join(' '));
  }
}

function serversSection(account: AccountDump): Html {
  const rows = account.cloudServers.map((s) => html`
        <tr>
          <th scope="row" class="nw">${s.name}<span class="sub">server ${s.id}</span></th>
          <td class="nw">${s.spec}${sizeOf(s)}</td>
          <td class="nw">${s.zone}<span class="sub">${countryOfZone(s.zone)}</span></td>
          <td class="nw">${s.provider}</td>
          <td>${s.state === 'ready'
            ? html`<span class="badge ok">ready</span>`
            : html`<span class="badge busy">provisioning</span><span class="sub nw">ready at ${clock(s.readyAt)}</span>`}</td>
          <td>${s.packageIds.length}${s.packageIds.length ? html`<span class="sub">${join(s.packageIds.map((id) => html`<span class="nw">${packageName(account, id)}</span>`), ', ')}</span>` : null}</td>
          <td>${brandCell(account, s)}</td>
        </tr>`);
  return html`
    <section aria-labelledby="servers-heading">
      <h2 id="servers-heading">Cloud servers</h2>
      ${account.cloudServers.length === 0
        ? html`<p class="empty">No cloud servers in this account yet.</p>`
        : html`<table>
        <caption>${plural(account.cloudServers.length, 'managed cloud server')}; branded servers show the reseller's brand</caption>
        <thead><tr><th scope="col">Server</th><th scope="col">Size</th><th scope="col">Zone</th><th scope="col">Provider</th><th scope="col">State</th><th scope="col">Packages</th><th scope="col">Brand</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
}

function usersSection(account: AccountDump): Html {
  const rows = account.users.map((u) => {
    const c = u.contact;
    const place = [c.city, c.ccAlpha2].filter((v): v is string => Boolean(v)).join(', ');
    return html`
        <tr>
          <th scope="row">${personName(u)}<span class="sub">${u.ref}</span></th>
          <td>${c.email ?? ''}</td>
          <td>${c.company_name || html`<span class="sub">none</span>`}</td>
          <td>${place}</td>
          <td>${u.grants.length === 0
            ? html`<span class="sub">none</span>`
            : html`<ul class="plain">${u.grants.map((g) => html`<li>${grantName(account, g)}</li>`)}</ul>`}</td>
        </tr>`;
  });
  return html`
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Control-panel users</h2>
      ${account.users.length === 0
        ? html`<p class="empty">No control-panel users in this account.</p>`
        : html`<table>
        <caption>${plural(account.users.length, 'user')} who can sign in to the control panel, and the services each may use</caption>
        <thead><tr><th scope="col">User</th><th scope="col">E-mail</th><th scope="col">Company</th><th scope="col">Location</th><th scope="col">Services</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
}

function brandCell(account: AccountDump, s: CloudServerDump): HtmlValue {
  if (!s.branded) return html`<span class="sub">not branded</span>`;
  if (!account.brand) return html`<span class="sub">branded (no brand set)</span>`;
  const logo = httpUrl(account.brand.logoUrl);
  return html`<span class="brand">${logo
    ? html`<img src="${logo}" alt="${account.brand.name} logo" width="32" height="32" referrerpolicy="no-referrer">`
    : null}<span>${account.brand.name}</span></span>`;
}

function sizeOf(s: CloudServerDump): HtmlValue {
  const provider = providerFromApi(s.provider) ?? providerFromApi(s.type);
  const size = provider ? CLOUD_SIZES[provider][s.spec] : undefined;
  if (!size) return null;
  return html`<span class="sub">${size.cpu} CPU, ${size.ramGb} GB RAM, ${size.diskGb} GB disk</span>`;
}

function userList(account: AccountDump, refs: readonly string[]): HtmlValue {
  if (refs.length === 0) return html`<span class="sub">none</span>`;
  return html`<ul class="plain">${refs.map((ref) => {
    const user = account.users.find((u) => u.ref === ref);
    return html`<li>${user ? personName(user) : ref}<span class="sub">${ref}</span></li>`;
  })}</ul>`;
}

function personName(u: UserDump): string {
  const c = u.contact;
  return c.person_name || [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email || u.ref;
}

function grantName(account: AccountDump, grant: string): string {
  const m = /^package:(\d+)$/.exec(grant);
  const pkg = m ? account.packages.find((p) => p.id === Number(m[1])) : undefined;
  return pkg ? pkg.name : grant;
}

function packageName(account: AccountDump, id: number): string {
  return account.packages.find((p) => p.id === id)?.name ?? `package ${id}`;
}

function mailboxFlow(send: boolean, receive: boolean): string {
  if (send && receive) return 'Sends and receives';
  if (send) return 'Sends only';
  if (receive) return 'Receives only';
  return 'Neither sends nor receives';
}

function hasProvisioningServer(account: AccountDump): boolean {
  return account.cloudServers.some((s) => s.state === 'provisioning');
}

function mailCount(account: AccountDump): number {
  return account.packages.reduce((n, p) => n + p.mail.reduce((k, d) => k + d.mailboxes.length + d.forwarders.length, 0), 0);
}

function money(amount: number): string {
  return amount.toFixed(2);
}

/** `HH:MM:SS UTC` of an ISO timestamp. */
function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(11, 19)} UTC`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
