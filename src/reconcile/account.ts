import type { Brand, DnsZone, MailDomain, PackageType } from '../client';
import type { ReconcileContext } from './context';
import { zonesOf } from './dns-record';
import { observeMail } from './mail-common';

/**
 * Reads for the provider's data sources beyond each kind's `list`, through the context's
 * lists: with a provider's shared context, a plan that reads any number of data
 * sources and refreshes any number of resources makes one request per list (plus one
 * per mail domain, one per package whose DNS zones are read, and one per object whose
 * detail is asked for).
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

/**
 * Every DNS zone of a package, with all its records (the SOA and NS included), through
 * the same list the DNS record resources read: one read per package per context.
 * Undefined when the package is gone.
 */
export function readDnsZones(ctx: ReconcileContext, packageDomain: string): Promise<DnsZone[] | undefined> {
  return zonesOf(ctx, packageDomain.toLowerCase());
}
