import type { PackageSummary, ResellerClient } from '../client';
import { NotFoundError } from '../client';
import { DNS_RECORD_TYPES, keyValue } from '../protocol';
import type { DnsRecordSpec, Identity, Kind } from '../protocol';
import { mapConcurrent } from './io';

/**
 * What `sweep` can see in the account: every object, its name(s) and the identity the
 * core deletes it by. THE one place the sweeper reads the account through the client:
 * when the core gains a per-kind `list(ctx)` (and a generic list entry), this module
 * becomes a loop over it and nothing else in sweep changes. A new kind (DNS records)
 * is one more entry of LISTERS until then.
 */
export interface SweepCandidate {
  readonly kind: Kind;
  /** The name shown to the user: a domain, an address or a host name. */
  readonly name: string;
  /**
   * Every name that must carry the prefix for the object to be swept: a package's
   * domain names (deleting a package deletes the mail of all of them), else its name.
   */
  readonly names: readonly string[];
  /** How the core (reconcile `remove`) finds the object. */
  readonly identity: Identity;
  /**
   * The primary domain of the package that holds it (mail, DNS records): when that
   * package is swept too, the object goes with it and is not deleted on its own.
   */
  readonly package?: string;
}

/** Lists one noun's candidates; `packages` is the account's package list, read once for every lister that needs it. */
type Lister = (client: ResellerClient, packages: () => Promise<PackageSummary[]>) => Promise<SweepCandidate[]>;

const MAIL_READS_IN_FLIGHT = 8;

const identity = (kind: Kind, key: string, placement = ''): Identity => ({ kind, key, placement, parent: '' });

const listPackagesAndMail: Lister = async (client, listed) => {
  const packages = await listed();
  const out: SweepCandidate[] = packages.map((p) => ({
    kind: 'package', name: p.name, names: p.names.length ? p.names : [p.name], identity: identity('package', p.name.toLowerCase()),
  }));
  const domains = packages.flatMap((p) => [...new Set(p.names)].map((domain) => ({ pkg: p, domain })));
  const mail = await mapConcurrent(domains, MAIL_READS_IN_FLIGHT, async ({ pkg, domain }) => {
    try {
      const read = await client.mail.get(pkg.id, domain);
      const address = (local: string) => `${local}@${domain}`.toLowerCase();
      return [
        ...read.mailboxes.map((m): SweepCandidate => ({ kind: 'mailbox', name: address(m.local), names: [address(m.local)], identity: identity('mailbox', address(m.local), pkg.name), package: pkg.name.toLowerCase() })),
        ...read.forwarders.map((f): SweepCandidate => ({ kind: 'forwarder', name: address(f.local), names: [address(f.local)], identity: identity('forwarder', address(f.local), pkg.name), package: pkg.name.toLowerCase() })),
      ];
    } catch (err) {
      if (err instanceof NotFoundError) return []; // gone since the list: nothing there
      throw err;
    }
  });
  return [...out, ...mail.flat()];
};

const listUsers: Lister = async (client) => {
  const users = await client.users.list();
  return Object.values(users.contact).map((c) => ({
    kind: 'stack-user', name: c.email, names: [c.email.toLowerCase()], identity: identity('stack-user', c.email.toLowerCase()),
  }));
};

const listCloudServers: Lister = async (client) =>
  (await client.cloudServers.list()).map((s) => ({ kind: 'cloud-server', name: s.name, names: [s.name.toLowerCase()], identity: identity('cloud-server', s.name.toLowerCase()) }));

const ZONE_READS_IN_FLIGHT = 8;
const WRITABLE: readonly string[] = DNS_RECORD_TYPES;

/**
 * Every record of every zone of every package (one zone read per package) that a user
 * can write: the service's own (the SOA, which has no ref, and NS) are never listed, so
 * never deleted. Its name is its owner; `name` shows `owner TYPE value` (unique in an
 * account), `identity` is the kind's natural key (zone/owner/type/value).
 */
const listDnsRecords: Lister = async (client, listed) => {
  const packages = await listed();
  const zones = await mapConcurrent(packages, ZONE_READS_IN_FLIGHT, async (pkg) => {
    try {
      return { pkg: pkg.name.toLowerCase(), zones: await client.dns.listZones(pkg.id) };
    } catch (err) {
      if (err instanceof NotFoundError) return { pkg: pkg.name.toLowerCase(), zones: [] }; // gone since the list
      throw err;
    }
  });
  return zones.flatMap(({ pkg, zones: list }) => list.flatMap((zone) => zone.records
    .filter((r) => r.ref !== null && WRITABLE.includes(r.type))
    .map((r): SweepCandidate => {
      const value = keyValue({ type: r.type as DnsRecordSpec['type'], value: r.value, priority: r.priority, weight: r.weight, port: r.port });
      return {
        kind: 'dns-record', name: `${r.host} ${r.type} ${value}`, names: [r.host],
        identity: identity('dns-record', `${zone.name}/${r.host}/${r.type}/${value}`, pkg), package: pkg,
      };
    })));
};

/** One lister per API noun. */
const LISTERS: readonly Lister[] = [listPackagesAndMail, listUsers, listCloudServers, listDnsRecords];

export async function listSweepCandidates(client: ResellerClient): Promise<SweepCandidate[]> {
  let packages: Promise<PackageSummary[]> | undefined;
  const listed = () => (packages ??= client.packages.list());
  return (await Promise.all(LISTERS.map((list) => list(client, listed)))).flat();
}
