import { pageFacets, PageFigure } from '../nouns';
import type { AccountDump, EmulatorStateDump } from '../snapshot';
import { Html, html, join, raw } from './html';
import { clock, muted, plural } from './parts';
import { STYLESHEET } from './style';

/**
 * The control-panel page: plain server-rendered HTML of the secret-free state dump
 * (EmulatorStateDump). Read-only, no script. Every value goes through the `html` tag,
 * so it is escaped. Nothing here reads the emulator's internal state: no API key (nor
 * its digest) and no password hash can reach the page.
 *
 * This file is the frame: the layout, the account list, an account's summary. What
 * an account holds is shown by each API noun: its figures (in the summary and the
 * list) and its section, in registration order (`page` of its definition).
 */

/** Seconds between automatic reloads while something is in progress (a cloud server provisioning). */
export const REFRESH_SECONDS = 2;

const PRODUCT = 'Reseller control panel';

/** The path of an account's view. */
export function accountPath(id: number): string {
  return `/accounts/${encodeURIComponent(String(id))}`;
}

/** `/`: every account of the emulator, with links to their views. */
export function renderAccountList(dump: EmulatorStateDump): string {
  const columns = pageFacets().flatMap((f) => f.figures ?? []).filter((c): c is Required<PageFigure> => c.listCell !== undefined);
  const pending = dump.accounts.map(pendingWork).find((p) => p !== undefined);
  const rows = dump.accounts.map((a) => html`
      <tr>
        <th scope="row" class="nw"><a href="${accountPath(a.id)}">Account ${a.id}</a>${a.isDefault ? html`<span class="sub">default account</span>` : null}</th>
        <td>${money(a.balance)}</td>${columns.map((c) => html`
        <td>${c.listCell(a)}</td>`)}
        <td>${a.brand ? a.brand.name : muted('none')}</td>
      </tr>`);
  const body = html`
    <h1>Reseller accounts</h1>
    ${pending ? refreshNotice(dump, pending) : null}
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Accounts</h2>
      ${dump.accounts.length === 0
        ? html`<p class="empty">This emulator has no accounts.</p>`
        : html`<table>
        <caption>${plural(dump.accounts.length, 'reseller account')} in this emulator</caption>
        <thead><tr><th scope="col">Account</th><th scope="col">Balance</th>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}<th scope="col">Brand</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
  return layout({ title: `Accounts · ${PRODUCT}`, refresh: pending !== undefined, dump, body });
}

/** `/accounts/{id}`: one account's summary, then each noun's section (packages, mail, DNS, cloud servers, users, …). */
export function renderAccount(dump: EmulatorStateDump, account: AccountDump): string {
  const facets = pageFacets();
  const pending = pendingWork(account);
  const figures = facets.flatMap((f) => f.figures ?? []);
  const sections = facets.flatMap((f) => (f.section ? [f.section(account)] : []));
  const body = html`
    <h1>Account ${account.id}${account.isDefault ? html` <span class="sub">default account</span>` : null}</h1>
    ${pending ? refreshNotice(dump, pending) : null}
    <dl class="summary" aria-label="Account summary">
      <div><dt>Balance</dt><dd>${money(account.balance)}</dd></div>${figures.map((f) => html`
      <div><dt>${f.label}</dt><dd>${f.value(account)}</dd></div>`)}
      <div class="wide"><dt>Brand</dt><dd>${account.brand ? account.brand.name : muted('not set')}</dd></div>
    </dl>
    ${join(sections, raw('\n    '))}`;
  return layout({ title: `Account ${account.id} · ${PRODUCT}`, refresh: pending !== undefined, dump, current: account.id, body });
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

/** What the first noun that has something in progress in the account says about it, or undefined. */
function pendingWork(account: AccountDump): string | undefined {
  return pageFacets().map((f) => f.pending?.(account)).find((p) => p !== undefined);
}

function refreshNotice(dump: EmulatorStateDump, pending: string): Html {
  return html`<p class="notice" role="status">${pending}. This page reloads every ${REFRESH_SECONDS} seconds until it is ready (last updated ${clock(dump.now)}).</p>`;
}

function money(amount: number): string {
  return amount.toFixed(2);
}

