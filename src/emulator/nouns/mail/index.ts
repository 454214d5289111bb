import type { Package } from '../../backend/model';
import type { ApiNoun } from '../registry';
import { dropMailOfRemovedNames } from './assumed';
import { MailDomainDump, packageChecks } from './model';
import { mailCount, mailSection } from './page';
import { addMailRoutes } from './routes';

/**
 * Mail (spec 4.4; api-notes "Mail"): mailboxes and forwarders on the domain names of a
 * package, read and changed through `…/package/{id}/email/{domain}`. A name's mail
 * goes when the name leaves its package. Autoresponders belong here too (the same
 * endpoint, the `responder` member: state version 3).
 */
export const mail = {
  name: 'mail',
  // Grew autoresponders (`responders`) in state version 3.
  since: 3,
  counters: { mailId: 1 },
  package: {
    check: packageChecks,
    fresh: () => ({ mailboxes: [], forwarders: [], responders: [] }),
    dump: (pkg) => ({ mail: mailDump(pkg) }),
  },
  routes: addMailRoutes,
  on: {
    packageNamesChanged: ({ pkg, removed }) => dropMailOfRemovedNames(pkg, removed),
  },
  page: {
    figures: [{ label: 'Mail objects', value: mailCount, listCell: mailCount }],
    section: mailSection,
  },
} satisfies ApiNoun;

/** The package's mail, one entry per domain name that has mail objects. */
function mailDump(p: Package): MailDomainDump[] {
  const domains = p.names.filter((d) => p.mailboxes.some((m) => m.domain === d) || p.forwarders.some((f) => f.domain === d) || p.responders.some((r) => r.domain === d));
  return domains.map((domain) => ({
    domain,
    mailboxes: p.mailboxes.filter((m) => m.domain === domain).map((m) => ({
      id: `m${m.id}`,
      local: m.local,
      address: `${m.local}@${domain}`,
      send: m.send,
      receive: m.receive,
      enabled: m.enabled,
      quotaMB: m.quotaMB,
      usageMB: m.usageMB,
      passwordSha256: m.passwordSha256,
    })),
    forwarders: p.forwarders.filter((f) => f.domain === domain).map((f) => ({
      id: `f${f.id}`,
      local: f.local,
      address: `${f.local}@${domain}`,
      remote: f.remote,
    })),
    responders: p.responders.filter((r) => r.domain === domain).map(({ id, domain: _domain, ...r }) => ({ ...r, id: `r${id}`, address: `${r.local}@${domain}` })),
  }));
}
