import type { ResellerClient } from '../client';
import { NotFoundError } from '../client';
import type { Identity, Kind } from '../protocol';
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
}

type Lister = (client: ResellerClient) => Promise<SweepCandidate[]>;

const MAIL_READS_IN_FLIGHT = 8;

const identity = (kind: Kind, key: string, placement = ''): Identity => ({ kind, key, placement, parent: '' });

const listPackagesAndMail: Lister = async (client) => {
  const packages = await client.packages.list();
  const out: SweepCandidate[] = packages.map((p) => ({
    kind: 'package', name: p.name, names: p.names.length ? p.names : [p.name], identity: identity('package', p.name.toLowerCase()),
  }));
  const domains = packages.flatMap((p) => [...new Set(p.names)].map((domain) => ({ pkg: p, domain })));
  const mail = await mapConcurrent(domains, MAIL_READS_IN_FLIGHT, async ({ pkg, domain }) => {
    try {
      const read = await client.mail.get(pkg.id, domain);
      const address = (local: string) => `${local}@${domain}`.toLowerCase();
      return [
        ...read.mailboxes.map((m): SweepCandidate => ({ kind: 'mailbox', name: address(m.local), names: [address(m.local)], identity: identity('mailbox', address(m.local), pkg.name) })),
        ...read.forwarders.map((f): SweepCandidate => ({ kind: 'forwarder', name: address(f.local), names: [address(f.local)], identity: identity('forwarder', address(f.local), pkg.name) })),
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

/** One lister per API noun. DNS records: add their lister here when the client has the noun. */
const LISTERS: readonly Lister[] = [listPackagesAndMail, listUsers, listCloudServers];

export async function listSweepCandidates(client: ResellerClient): Promise<SweepCandidate[]> {
  return (await Promise.all(LISTERS.map((list) => list(client)))).flat();
}
