import type { Brand, DnsZone, MailDomain, MysqlDatabaseEntry, PackageType } from '../client';
import type { ReconcileContext } from './context';
import { zonesOf } from './dns-record';
import { observeMail } from './mail-common';
import { databasesOf } from './mysql-database';
import { listedPackages } from './package';
import { packageIndex } from './package-index';

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

/**
 * The primary domain of the package that a domain name (primary or extra) or a package
 * id names, from the shared package list; undefined when the account has none such.
 */
export async function packageDomainOf(ctx: ReconcileContext, ref: string | number): Promise<string | undefined> {
  const packages = await listedPackages(ctx);
  const text = String(ref).trim().toLowerCase();
  const found = /^[0-9]+$/.test(text) ? packages.find((p) => p.id === Number(text)) : packageIndex(packages).byName.get(text);
  return found?.name.toLowerCase();
}

/** The primary domains of the account's packages (the shared package list), for a look-up that found none to suggest from. */
export async function packageDomains(ctx: ReconcileContext): Promise<string[]> {
  return (await listedPackages(ctx)).map((p) => p.name.toLowerCase());
}

/**
 * The MySQL databases of a package (by its primary domain), through the list the
 * `reseller_mysql_database` resources read: one read per package per context.
 * Undefined when the package is gone.
 */
export function readMysqlDatabases(ctx: ReconcileContext, packageDomain: string): Promise<MysqlDatabaseEntry[] | undefined> {
  return databasesOf(ctx, packageDomain.toLowerCase());
}
