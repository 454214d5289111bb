import type { Brand, MailDomain, PackageType } from '../client';
import type { ReconcileContext } from './context';
import { observeMail } from './mail-common';

/**
 * Reads for the provider's data sources beyond each kind's `list`, through the context's
 * lists: with a provider's shared context, a plan that reads any number of data
 * sources and refreshes any number of resources makes one request per list (plus one
 * per mail domain, and one per object whose detail is asked for).
 */

/** The account's package types (with their limits), one read per context. */
export function listPackageTypes(ctx: ReconcileContext): Promise<PackageType[]> {
  return ctx.lists.get('package-types', () => ctx.client.packageTypes.list());
}

/** The mail of one domain of a package (one read per domain per context); undefined when the package or domain is gone. */
export function readMailDomain(ctx: ReconcileContext, packageDomain: string, domain: string): Promise<MailDomain | undefined> {
  return observeMail(ctx, packageDomain, domain);
}

/** The web IPv4 address of a package (its detail read, once per package per context); undefined when the API gives none. */
export async function packageWebIpv4(ctx: ReconcileContext, packageId: number): Promise<string | undefined> {
  const detail = await ctx.lists.get(`package:${packageId}`, () => ctx.client.packages.get(packageId));
  return detail?.webIpv4;
}

/** The reseller brand a cloud server was ordered under (its read by id, once per server per context). */
export async function cloudServerBrand(ctx: ReconcileContext, serverId: number): Promise<Brand | undefined> {
  const read = await ctx.lists.get(`cloud-server:${serverId}`, () => ctx.client.cloudServers.get(serverId));
  return read?.brand;
}
