import type { DomainRegistration } from '../client';
import { closestNames, Identity } from '../protocol';
import type { ReconcileContext } from './context';
import type { AccountCheck } from './kind';
import type { Observed } from './observed';

/**
 * Reads of registered domain names through the context's lists (api-notes "Domain names
 * (registrations)"), shared by the registration kinds (nameservers, transfer lock), the
 * DNS records of a registration's zone and the `reseller_domain(s)` data sources: one
 * read of the list per context, and one read per registration of each thing read of it
 * (its nameservers, its lock, its zone), whatever the number of resources and data
 * sources that ask.
 */

/** The list of registrations in the context's lists. */
const LIST = 'domains';
const nameserversList = (domain: string) => `domain-ns:${domain}`;
const lockList = (domain: string) => `domain-lock:${domain}`;
const zoneList = (domain: string) => `domain-dns:${domain}`;

/** Every registration of the account (one read per context). */
export function listedRegistrations(ctx: ReconcileContext): Promise<DomainRegistration[]> {
  return ctx.lists.get(LIST, () => ctx.client.domains.list());
}

/**
 * The nameservers of `domain` as the registry holds them; undefined when the account
 * does not hold it. `after` > 0 asks for a read started after that tick (to confirm a write).
 */
export function registrationNameservers(ctx: ReconcileContext, domain: string, after = 0): Promise<string[] | undefined> {
  return ctx.lists.get(nameserversList(domain), () => ctx.client.domains.nameservers(domain), after);
}

/** Whether a transfer of `domain` is allowed (false: locked); undefined when the account does not hold it. */
export function registrationTransferAllowed(ctx: ReconcileContext, domain: string, after = 0): Promise<boolean | undefined> {
  return ctx.lists.get(lockList(domain), () => ctx.client.domains.transferAllowed(domain), after);
}

/** A write to one registration's nameservers or lock: with shared lists, reads scheduled meanwhile wait for it (ListCache). */
export function writeRegistration<T>(ctx: ReconcileContext, what: 'nameservers' | 'lock', domain: string, write: () => Promise<T>): Promise<T> {
  const name = what === 'nameservers' ? nameserversList(domain) : lockList(domain);
  return ctx.lists.shared ? ctx.lists.writing(name, write) : write();
}

/** The list a registration's DNS zone is read through (DNS records in a registration's zone). */
export const registrationZoneList = zoneList;

/** The rule a declared domain name breaks when the account does not hold it, naming the closest registrations; undefined when it holds it. */
export async function notHeld(ctx: ReconcileContext, domain: string): Promise<string | undefined> {
  const names = (await listedRegistrations(ctx)).map((r) => r.name);
  if (names.includes(domain)) return undefined;
  const near = closestNames(domain, names);
  return `"${domain}" is not a domain name this account holds (it is adopted, never registered)` +
    (near.length ? `; the closest it holds: ${near.join(', ')}` : '; the account holds none');
}

/** checkAccount of a registration kind: the `domain` it names must be one the account holds. */
export async function checkRegistrationHeld(ctx: ReconcileContext, domain: string, checked: (field: string) => boolean): Promise<AccountCheck> {
  if (!checked('domain')) return { problems: [] };
  const rule = await notHeld(ctx, domain);
  return { problems: rule ? [{ field: 'domain', rule }] : [] };
}

/** whyMissing of a registration kind: the account does not hold the name. */
export async function whyRegistrationMissing(ctx: ReconcileContext, id: Identity): Promise<string | undefined> {
  const names = (await listedRegistrations(ctx)).map((r) => r.name);
  return names.includes(id.key) ? undefined : `the account does not hold the domain name ${id.key}`;
}

/**
 * `list` of a registration kind: the registration list, then one read per registration
 * (`read`, through the lists), at most `ctx.readsAtOnce` at once; a registration that
 * went away between the two reads is left out.
 */
export async function listPerRegistration<T>(
  ctx: ReconcileContext, read: (domain: string) => Promise<T | undefined>, observed: (domain: string, value: T) => Observed,
): Promise<Observed[]> {
  const names = (await listedRegistrations(ctx)).map((r) => r.name);
  const out: Array<Observed | undefined> = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      const value = await read(names[i]);
      out[i] = value === undefined ? undefined : observed(names[i], value);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.readsAtOnce, names.length) }, worker));
  return out.filter((o): o is Observed => o !== undefined);
}
