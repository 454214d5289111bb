import type { AccountDump, PackageDump } from '../../snapshot';
import { Html, html } from '../../page/html';
import type { MysqlDatabaseDump } from './model';

/** The MySQL section of an account's page: each package's databases (names, hosts, use; never a password or its hash). */
export function mysqlSection(account: AccountDump): Html {
  const withDatabases = account.packages.filter((p) => databasesOf(p).length > 0);
  return html`
    <section aria-labelledby="mysql-heading">
      <h2 id="mysql-heading">MySQL databases</h2>
      ${withDatabases.length === 0 ? html`<p class="empty">No MySQL databases in this account yet.</p>` : withDatabases.map(databaseTable)}
    </section>`;
}

/** MySQL databases of the account. */
export function databaseCount(account: AccountDump): number {
  return account.packages.reduce((n, p) => n + databasesOf(p).length, 0);
}

/** A package's databases; none in a dump made before the noun existed (a hand-made or older dump). */
const databasesOf = (p: PackageDump): MysqlDatabaseDump[] => p.mysqlDatabases ?? [];

function databaseTable(p: PackageDump): Html {
  const rows = databasesOf(p).map((d: MysqlDatabaseDump) => html`
          <tr>
            <th scope="row">${d.name}</th>
            <td>${d.host}<span class="sub">external ${d.externalHostname}</span></td>
            <td>${d.name}</td>
            <td>${d.quotaUsed} of ${d.quotaMb} MB</td>
          </tr>`);
  return html`
      <div class="mail">
        <h3>${p.name}</h3>
        <table>
          <caption class="vh">MySQL databases of package ${p.name}</caption>
          <thead><tr><th scope="col" class="c-addr">Database</th><th scope="col">Host</th><th scope="col" class="c-kind">User</th><th scope="col" class="c-status">Used</th></tr></thead>
          <tbody>${rows}
          </tbody>
        </table>
      </div>`;
}
