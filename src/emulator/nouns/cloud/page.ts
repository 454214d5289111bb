import { CLOUD_SIZES, providerFromApi } from '../../../protocol/cloud';
import type { AccountDump } from '../../snapshot';
import { Html, HtmlValue, html, httpUrl, join } from '../../page/html';
import { clock, muted, plural } from '../../page/parts';
import { countryOfZone } from './geo';
import type { CloudServerDump } from './model';

/** The cloud servers section of an account's page: size, zone, provider, state, packages and brand of each. */
export function serversSection(account: AccountDump): Html {
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

/** The account list's cell: how many servers, and a badge while one is provisioning. */
export function serversCell(account: AccountDump): HtmlValue {
  return html`${account.cloudServers.length}${provisioning(account) ? html` <span class="badge busy">provisioning</span>` : null}`;
}

/** The page reloads itself while a server is provisioning. */
export function provisioningNotice(account: AccountDump): string | undefined {
  return provisioning(account) ? 'A cloud server is provisioning' : undefined;
}

function provisioning(account: AccountDump): boolean {
  return account.cloudServers.some((s) => s.state === 'provisioning');
}

function brandCell(account: AccountDump, s: CloudServerDump): HtmlValue {
  if (!s.branded) return muted('not branded');
  if (!account.brand) return muted('branded (no brand set)');
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

function packageName(account: AccountDump, id: number): string {
  return account.packages.find((p) => p.id === id)?.name ?? `package ${id}`;
}
