import { labelOf, ResellerClient } from '../../src/client';

/** A plain-text picture of what exists in the account, read back through the client. */
export async function accountTable(client: ResellerClient): Promise<string> {
  const [packages, servers] = await Promise.all([client.packages.list(), client.cloudServers.list()]);
  const serverOf = new Map<number, string>();
  for (const s of servers) for (const id of s.packageIds) serverOf.set(id, s.name);

  const rows: string[][] = [['PACKAGE', 'ID', 'TYPE', 'LABEL', 'DOMAINS', 'USERS', 'ENABLED', 'PLACEMENT']];
  const siteRows: string[][] = [['SITE', 'HTTPS ONLY', 'PHP', 'MYSQL DATABASES']];
  const mailRows: string[][] = [['MAIL OBJECT', 'KIND', 'DETAILS']];
  for (const p of [...packages].sort((a, b) => a.name.localeCompare(b.name))) {
    rows.push([
      p.name, String(p.id), p.packageTypeName, labelOf(p), p.names.filter((n) => n !== p.name).join(' ') || '-',
      p.stackUsers.join(' ') || '-', p.enabled ? 'yes' : 'no', serverOf.get(p.id) ?? 'reseller account',
    ]);
    const [https, php, databases] = await Promise.all([client.web.forceHttps(p.id), client.web.phpVersion(p.id), client.databases.list(p.id)]);
    siteRows.push([p.name, https ? 'yes' : 'no', php ?? '-', databases.map((d) => d.name).join(' ') || '-']);
    for (const domain of p.names) {
      const mail = await client.mail.get(p.id, domain);
      for (const m of mail.mailboxes) {
        mailRows.push([`${m.local}@${domain}`, 'mailbox', `send=${m.send} receive=${m.receive}`]);
      }
      for (const f of mail.forwarders) mailRows.push([`${f.local}@${domain}`, 'forwarder', `-> ${f.remote}`]);
      for (const r of mail.responders) {
        mailRows.push([`${r.local}@${domain}`, 'autoresponder', `"${r.subject}"${r.forwardTo ? ` -> ${r.forwardTo}` : ''}${r.enabled ? '' : ' (disabled)'}`]);
      }
    }
  }
  const serverRows: string[][] = [['CLOUD SERVER', 'ID', 'SPEC', 'ZONE', 'PROVIDER', 'BRAND', 'PACKAGES']];
  for (const s of servers) {
    const withBrand = await client.cloudServers.get(s.id);
    serverRows.push([
      s.name, String(s.id), s.configuration.spec, s.configuration.Zone || s.location, s.configuration.Provider,
      withBrand?.brand ? withBrand.brand.name : '-', String(s.packageIds.length),
    ]);
  }
  return [formatTable(rows), formatTable(siteRows), formatTable(mailRows), formatTable(serverRows)].join('\n\n');
}

export function formatTable(rows: string[][]): string {
  if (rows.length === 1) rows = [...rows, rows[0].map(() => '(none)').slice(0, 1)];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (cell ?? '').padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}
