import type { Brand, MailDomain, PackageType } from '../client';
import type { ReconcileContext } from './context';
import { observeMail } from './mail-common';
import type { Observed } from './observed';
import { observeCloudServer } from './cloud-server';
import { observePackage, PACKAGES } from './package';
import { observeStackUser } from './stack-user';

/** The names under which observe() keeps these lists in the context (cloud-server.ts, stack-user.ts). */
const CLOUD_SERVERS_LIST = 'cloud-servers';
const USERS_LIST = 'users';

/**
 * Reads of the whole account for the provider's data sources, through the context's
 * lists: with a provider's shared context, a plan that reads any number of data
 * sources and refreshes any number of resources makes one request per list (plus one
 * per mail domain, and one per object whose detail is asked for).
 */

/** The kinds whose every object a data source lists. */
export type ListedKind = 'package' | 'stack-user' | 'cloud-server';

const LISTERS: { [K in ListedKind]: (ctx: ReconcileContext) => Promise<Observed[]> } = {
  async package(ctx) {
    const packages = await ctx.lists.get(PACKAGES, () => ctx.client.listPackages());
    const keys = [...new Set(packages.map((p) => p.name.toLowerCase()))];
    return present(await Promise.all(keys.map((key) => observePackage(ctx, { kind: 'package', key, placement: '', parent: '' }))));
  },
  async 'stack-user'(ctx) {
    const users = await ctx.lists.get(USERS_LIST, () => ctx.client.listUsers());
    return present(await Promise.all(Object.keys(users.contact).map((key) => observeStackUser(ctx, { kind: 'stack-user', key, placement: '', parent: '' }))));
  },
  async 'cloud-server'(ctx) {
    const servers = await ctx.lists.get(CLOUD_SERVERS_LIST, () => ctx.client.listCloudServers());
    const keys = [...new Set(servers.map((s) => s.name.toLowerCase()))];
    return present(await Promise.all(keys.map((key) => observeCloudServer(ctx, { kind: 'cloud-server', key, placement: '', parent: '' }))));
  },
};

const present = (all: (Observed | undefined)[]): Observed[] => all.filter((o): o is Observed => o !== undefined);

/** Every object of the kind in the account, as observe() reads each one (same lists). */
export function listObjects(ctx: ReconcileContext, kind: ListedKind): Promise<Observed[]> {
  return LISTERS[kind](ctx);
}

/** The account's package types (with their limits), one read per context. */
export function listPackageTypes(ctx: ReconcileContext): Promise<PackageType[]> {
  return ctx.lists.get('package-types', () => ctx.client.listPackageTypes());
}

/** The mail of one domain of a package (one read per domain per context); undefined when the package or domain is gone. */
export function readMailDomain(ctx: ReconcileContext, packageDomain: string, domain: string): Promise<MailDomain | undefined> {
  return observeMail(ctx, packageDomain, domain);
}

/** The web IPv4 address of a package (its detail read, once per package per context); undefined when the API gives none. */
export async function packageWebIpv4(ctx: ReconcileContext, packageId: number): Promise<string | undefined> {
  const detail = await ctx.lists.get(`package:${packageId}`, () => ctx.client.getPackage(packageId));
  return detail?.webIpv4;
}

/** The reseller brand a cloud server was ordered under (its read by id, once per server per context). */
export async function cloudServerBrand(ctx: ReconcileContext, serverId: number): Promise<Brand | undefined> {
  const read = await ctx.lists.get(`cloud-server:${serverId}`, () => ctx.client.getCloudServer(serverId));
  return read?.brand;
}
