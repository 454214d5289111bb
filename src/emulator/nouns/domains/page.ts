import type { AccountDump } from '../../snapshot';
import { Html, html } from '../../page/html';
import { muted, plural } from '../../page/parts';
import type { RegistrationDump } from './model';

/** The registered domains section of an account's page: expiry, nameservers, lock, privacy and where its DNS zone is. */
export function domainsSection(account: AccountDump): Html {
  const rows = account.domains.map((d) => html`
        <tr>
          <th scope="row" class="nw">${d.name}<span class="sub">domain ${d.id}</span></th>
          <td class="nw">${d.expiresAt.slice(0, 10)}${d.pendingTransfer ? html`<span class="sub">transfer pending</span>` : null}</td>
          <td><ul class="plain">${d.nameservers.map((n) => html`<li>${n}</li>`)}</ul></td>
          <td>${d.transferAllowed ? html`<span class="badge off">unlocked</span>` : html`<span class="badge ok">locked</span>`}</td>
          <td>${d.hasPrivacy ? 'yes' : muted('no')}</td>
          <td>${zoneCell(d)}</td>
        </tr>`);
  return html`
    <section aria-labelledby="domains-heading">
      <h2 id="domains-heading">Domain names</h2>
      ${account.domains.length === 0
        ? html`<p class="empty">No domain names registered in this account.</p>`
        : html`<table>
        <caption>${plural(account.domains.length, 'registered domain name')}: nameservers at the registry, the transfer lock, and where the DNS zone is kept</caption>
        <thead><tr><th scope="col">Domain</th><th scope="col">Expires</th><th scope="col">Nameservers</th><th scope="col">Transfer</th><th scope="col">Privacy</th><th scope="col">DNS zone</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>`}
    </section>`;
}

function zoneCell(d: RegistrationDump): Html {
  const records = plural(d.dnsZone.records.length, 'record');
  return d.dnsZone.onPackage ? html`${records}<span class="sub">the zone of package ${d.dnsZone.onPackage}</span>` : html`${records}<span class="sub">its own zone</span>`;
}
