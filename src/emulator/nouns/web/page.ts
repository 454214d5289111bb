import type { AccountDump, PackageDump } from '../../snapshot';
import { Html, html, join } from '../../page/html';
import { muted } from '../../page/parts';

/** The web section of an account's page: per package, HTTPS, PHP, and its certificates (issued, issuing, waiting for DNS). */
export function webSection(account: AccountDump): Html {
  return html`
    <section aria-labelledby="web-heading">
      <h2 id="web-heading">HTTPS and PHP</h2>
      ${account.packages.length === 0
        ? html`<p class="empty">No hosting packages in this account yet.</p>`
        : html`<table>
        <caption class="vh">Force HTTPS, PHP version and certificates of each package</caption>
        <thead><tr><th scope="col">Package</th><th scope="col">HTTPS</th><th scope="col">PHP</th><th scope="col">Certificates</th></tr></thead>
        <tbody>${account.packages.map(row)}
        </tbody>
      </table>`}
    </section>`;
}

function row(p: PackageDump): Html {
  const web = p.web;
  const certificates = [
    ...web.certificates.map((c) => html`<span class="sub">${c.commonName} (${c.provider}${c.state === 'issuing' ? ', being issued' : ''})</span>`),
    ...web.waitingForDns.map((w) => html`<span class="sub">${w.name} (free, waiting for DNS to point here)</span>`),
  ];
  return html`
          <tr>
            <th scope="row">${p.name}</th>
            <td>${web.forceHttps ? html`<span class="badge ok">forced</span>` : muted('not forced')}</td>
            <td>${web.phpVersion}</td>
            <td>${certificates.length ? join(certificates, '') : muted('none')}</td>
          </tr>`;
}

/** Free certificates being issued, or waiting for DNS: what keeps the page reloading. */
export function issuingNotice(account: AccountDump): string | undefined {
  const issuing = account.packages.reduce((n, p) => n + p.web.certificates.filter((c) => c.state === 'issuing').length, 0);
  return issuing ? `${issuing} free certificate(s) being issued` : undefined;
}

/** Certificates of the account (issued and being issued). */
export function certificateCount(account: AccountDump): number {
  return account.packages.reduce((n, p) => n + p.web.certificates.length, 0);
}
