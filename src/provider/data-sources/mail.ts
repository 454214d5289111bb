import { canonicalDomain, checkDomainName } from '../../protocol';
import { list, readMailDomain } from '../../reconcile';
import { computed, DataSource, listOf, lookup, ReadResult, required, stringArg } from './data-source';
import { kindAttribute } from './from-kind';

/** reseller_mail_domain: the mailboxes (never their passwords) and forwarders of one mail domain of a package. */

function mailboxElement() {
  return [
  kindAttribute('mailbox', 'localPart'),
  computed('address', 'string', 'The mailbox\'s address, local_part@domain.'),
  kindAttribute('mailbox', 'send'),
  kindAttribute('mailbox', 'receive'),
  computed('enabled', 'bool', 'Whether the mailbox is enabled.'),
  kindAttribute('mailbox', 'mailboxId'),
  ];
}

function forwarderElement() {
  return [
  kindAttribute('forwarder', 'localPart'),
  computed('address', 'string', 'The forwarded address, local_part@domain.'),
  kindAttribute('forwarder', 'remote'),
  computed('forwarder_id', 'string', 'Id of the forwarder entry in the API (e.g. "f456").'),
  ];
}

export function mailDataSources(): DataSource[] {
  const source: DataSource = {
    typeName: 'reseller_mail_domain',
    description: 'Reads the mailboxes (without passwords: the API never returns them) and forwarders of one mail domain of a hosting package. A package or domain that does not exist fails the plan.',
    attributes: [
      required('package', 'string', 'A domain name of the hosting package (its primary domain or an extra one).'),
      lookup('domain', 'string', 'The mail domain: one of the package\'s domain names; defaults to its primary domain.'),
      computed('package_domain', 'string', 'Primary domain of the package.'),
      computed('mailboxes', listOf(mailboxElement()), 'The mailboxes of the domain, by local part.'),
      computed('forwarders', listOf(forwarderElement()), 'The forwarders of the domain, by local part.'),
      computed('addresses', ['list', 'string'], 'Every address of the domain (mailboxes and forwarders), sorted.'),
    ],
    check(args) {
      return ['package', 'domain'].flatMap((attribute) => {
        const value = stringArg(args, attribute);
        const problem = value === undefined ? undefined : checkDomainName(value);
        return problem ? [{ attribute, message: problem }] : [];
      });
    },
    async read(args, ctx): Promise<ReadResult> {
      const wanted = canonicalDomain(String(stringArg(args, 'package')));
      const packages = await list(ctx(), 'package');
      const names = (o: (typeof packages)[number]) => [String(o.fields.domainName), ...((o.fields.extraDomainNames as string[] | undefined) ?? [])];
      const pkg = packages.find((o) => names(o).includes(wanted));
      if (!pkg) return { notFound: { attribute: 'package', value: String(args.package), what: 'package', existing: packages.flatMap(names) } };
      const primary = String(pkg.fields.domainName);
      const domain = canonicalDomain(stringArg(args, 'domain') ?? primary);
      if (!names(pkg).includes(domain)) return { notFound: { attribute: 'domain', value: domain, what: `mail domain of package ${primary}`, existing: names(pkg) } };
      const mail = await readMailDomain(ctx(), primary, domain);
      if (!mail) return { notFound: { attribute: 'domain', value: domain, what: `mail domain of package ${primary}`, existing: names(pkg) } };
      const byLocal = <T extends { local: string }>(list: T[]) => [...list].sort((a, b) => a.local.localeCompare(b.local));
      const mailboxes = byLocal(mail.mailboxes).map((m) => ({
        local_part: m.local.toLowerCase(), address: `${m.local.toLowerCase()}@${domain}`, send: m.send, receive: m.receive, enabled: m.enabled, mailbox_id: m.id,
      }));
      const forwarders = byLocal(mail.forwarders).map((f) => ({
        local_part: f.local.toLowerCase(), address: `${f.local.toLowerCase()}@${domain}`, remote: f.remote, forwarder_id: f.id,
      }));
      const addresses = [...new Set([...mailboxes, ...forwarders].map((x) => x.address))].sort();
      return { values: { domain, package_domain: primary, mailboxes, forwarders, addresses } };
    },
  };
  return [source];
}
