import type { AccountDump } from '../../snapshot';
import { Html, html, join } from '../../page/html';
import { enabledBadge, muted, plural } from '../../page/parts';
import { userList } from '../users/page';

/** The hosting packages section of an account's page: domains, label, type, status, linked users, placement. */
export function packagesSection(account: AccountDump): Html {
  const rows = account.packages.map((p) => {
    const server = p.cloudServerId === null ? undefined : account.cloudServers.find((s) => s.id === p.cloudServerId);
    const extra = p.names.filter((n) => n !== p.name);
    return html`
        <tr>
          <th scope="row">${p.name}${extra.length ? html`<span class="sub">also ${join(extra, ', ')}</span>` : null}<span class="sub">package ${p.id}</span></th>
          <td>${p.label ?? muted('none')}</td>
          <td>${p.packageTypeName || p.typeRef}<span class="sub">${p.platform}</span></td>
          <td>${enabledBadge(p.enabled)}</td>
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
