import type { AccountDump, PackageDump } from '../../snapshot';
import { Html, html, join } from '../../page/html';
import { enabledBadge } from '../../page/parts';
import type { MailDomainDump } from './model';

/** The mail section of an account's page: one table of mailboxes and forwarders per package that has any. */
export function mailSection(account: AccountDump): Html {
  const withMail = account.packages.filter((p) => p.mail.some((d) => d.mailboxes.length + d.forwarders.length + (d.responders?.length ?? 0) > 0));
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

/** Mailboxes, forwarders and autoresponders of the account. */
export function mailCount(account: AccountDump): number {
  return account.packages.reduce((n, p) => n + p.mail.reduce((k, d) => k + d.mailboxes.length + d.forwarders.length + (d.responders?.length ?? 0), 0), 0);
}

function mailTable(p: PackageDump): Html {
  const rows = p.mail.flatMap((d: MailDomainDump) => [
    ...d.mailboxes.map((m) => html`
          <tr>
            <th scope="row">${m.address}</th>
            <td>Mailbox</td>
            <td>${mailboxFlow(m.send, m.receive)}<span class="sub">${m.usageMB} of ${m.quotaMB} MB used</span></td>
            <td>${enabledBadge(m.enabled)}</td>
          </tr>`),
    ...d.forwarders.map((f) => html`
          <tr>
            <th scope="row">${f.address}</th>
            <td>Forwarder</td>
            <td>Forwards to ${f.remote}</td>
            <td><span class="badge ok">active</span></td>
          </tr>`),
    // A dump made before autoresponders (state version 3) has none.
    ...(d.responders ?? []).map((r) => html`
          <tr>
            <th scope="row">${r.address}</th>
            <td>Autoresponder</td>
            <td>Replies “${r.subject}”${responderWindow(r.startTime, r.endTime)}${r.forwardTo ? html`<span class="sub">Also forwards to ${r.forwardTo}</span>` : null}</td>
            <td>${enabledBadge(r.enabled)}</td>
          </tr>`),
  ]);
  return html`
      <div class="mail">
        <h3>${p.name}</h3>
        <table>
          <caption class="vh">Mailboxes, forwarders and autoresponders of package ${p.name}</caption>
          <thead><tr><th scope="col" class="c-addr">Address</th><th scope="col" class="c-kind">Kind</th><th scope="col">Delivery</th><th scope="col" class="c-status">Status</th></tr></thead>
          <tbody>${rows}
          </tbody>
        </table>
      </div>`;
}

function responderWindow(start: string | null, end: string | null): string {
  const day = (t: string) => t.slice(0, 16).replace('T', ' ');
  if (start && end) return ` from ${day(start)} to ${day(end)} UTC`;
  if (start) return ` from ${day(start)} UTC`;
  if (end) return ` until ${day(end)} UTC`;
  return '';
}

function mailboxFlow(send: boolean, receive: boolean): string {
  if (send && receive) return 'Sends and receives';
  if (send) return 'Sends only';
  if (receive) return 'Receives only';
  return 'Neither sends nor receives';
}
