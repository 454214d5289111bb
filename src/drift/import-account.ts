import type { CloudServer, MailDomain, PackageSummary, PackageType, ResellerClient, UserList } from '../client';
import { NotFoundError } from '../client';
import { mapConcurrent } from './io';

/**
 * The account as the API returns it, for `reseller-hosting import`: the generated code
 * says more than the core's observed objects hold (a server's CPU and RAM, a package's
 * type name, a forwarder's several targets, in the API's order). Read with as few
 * requests as the API allows: each list endpoint once (packages, cloud servers, users,
 * package types) and the mail of every domain name of every package, a bounded number
 * at a time. Drift reads through the core instead (compare.ts).
 */
export interface LiveMailDomain {
  /** The package the domain belongs to. */
  readonly packageId: number;
  readonly packageName: string;
  readonly domain: string;
  readonly mail: MailDomain;
}

export interface LiveAccount {
  readonly packages: PackageSummary[];
  readonly servers: CloudServer[];
  readonly users: UserList;
  readonly types: PackageType[];
  /** Keyed by domain name (lowercase). */
  readonly mail: Map<string, LiveMailDomain>;
  /** How many API requests the read made (first attempts; the client may retry). */
  readonly requests: number;
}

export interface ReadLiveOptions {
  /** Mail reads in flight at once. @default 8 */
  readonly concurrency?: number;
}

export async function readLive(client: ResellerClient, options: ReadLiveOptions = {}): Promise<LiveAccount> {
  const [packages, servers, users, types] = await Promise.all([
    client.packages.list(),
    client.cloudServers.list(),
    client.users.list(),
    client.packageTypes.list(),
  ]);
  const domains: Array<{ pkg: PackageSummary; domain: string }> = [];
  for (const pkg of packages) for (const domain of new Set(pkg.names)) domains.push({ pkg, domain });
  const read = await mapConcurrent(domains, options.concurrency ?? 8, async ({ pkg, domain }) => {
    try {
      return { pkg, domain, mail: await client.mail.get(pkg.id, domain) };
    } catch (err) {
      // The package or the name went away between the list and this read: no mail there.
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  });
  const mail = new Map<string, LiveMailDomain>();
  for (const entry of read) {
    if (!entry) continue;
    const key = entry.domain.toLowerCase();
    if (!mail.has(key)) mail.set(key, { packageId: entry.pkg.id, packageName: entry.pkg.name, domain: key, mail: entry.mail });
  }
  return { packages, servers, users, types, mail, requests: 4 + domains.length };
}
