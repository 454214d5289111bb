import type { AccountDump, PackageDump } from '../../snapshot';
import { Html, html } from '../../page/html';
import { muted } from '../../page/parts';
import type { DnsZoneDump } from './model';

/** Every zone of every package: the records a reseller would otherwise edit by hand here. */
export function dnsSection(account: AccountDump): Html {
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
            <td>${r.ref === null ? muted('none') : String(r.ref)}</td>
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
