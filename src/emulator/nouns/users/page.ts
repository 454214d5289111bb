import type { AccountDump } from '../../snapshot';
import { Html, HtmlValue, html } from '../../page/html';
import { muted, plural } from '../../page/parts';
import type { UserDump } from './model';

/** The control-panel users section of an account's page: who may sign in, and to which services. */
export function usersSection(account: AccountDump): Html {
  const rows = account.users.map((u) => {
    const c = u.contact;
    const place = [c.city, c.ccAlpha2].filter((v): v is string => Boolean(v)).join(', ');
    return html`
        <tr>
          <th scope="row">${personName(u)}<span class="sub">${u.ref}</span></th>
          <td>${c.email ?? ''}</td>
          <td>${c.company_name || muted('none')}</td>
          <td>${place}</td>
          <td>${u.grants.length === 0
            ? muted('none')
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

/** The users of `refs` by name, each with its ref (another noun's section lists its users with it). */
export function userList(account: AccountDump, refs: readonly string[]): HtmlValue {
  if (refs.length === 0) return muted('none');
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
