import type { MailDomain } from '../client';
import { isDuplicateError, isMissingObject, NotFoundError } from '../client';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { createdThisRun } from './created';
import { ReconcileError } from './errors';
import { packageIndex } from './package-index';
import { listedPackages } from './package';
import type { Identity } from '../protocol';
import { splitMailKey } from '../protocol';

/** Where a mail object lives: the package (by its primary domain, which the API accepts as id) and the mail domain. */
export interface MailPlace {
  path: string;
  packageDomain: string;
  domain: string;
}

/**
 * How long the confirmation of a mail object on a package this apply created waits
 * for its siblings: Terraform starts a new package's mailboxes and forwarders together,
 * but their requests reach the provider up to 100 ms or so apart (each
 * waits for a free slot of -parallelism). One read then confirms them all. Only while
 * siblings do come (ListCache: most packages of the apply got a second mail object):
 * where each package gets one, every wait would hold a slot for nothing.
 */
const SIBLINGS_GATHER_MS = 150;

/** The name of a domain's mail in the context's lists. */
export const mailListName = (packageDomain: string, domain: string) => `mail:${packageDomain}:${domain}`;

/** A mail object is confirmed through its domain's mail read. */
export const mailConfirmList = (spec: Pick<MailPlace, 'packageDomain' | 'domain'>): string => mailListName(spec.packageDomain, spec.domain);

/**
 * The domain's mail objects, or a clear error when the package or domain does not exist.
 * With shared lists (a provider), through them: `fresh` asks for a read that started
 * now or later (to confirm a write; concurrent writers share it), otherwise any read
 * (a look-up before a create: a 409 answers a stale one).
 */
export async function readMail(ctx: ReconcileContext, place: MailPlace, fresh = true): Promise<MailDomain> {
  const mail = ctx.lists.shared
    ? await ctx.lists.get(
      mailListName(place.packageDomain, place.domain), () => readMailIfPresent(ctx, place),
      fresh ? ctx.lists.tick() : 0, fresh && createdThisRun(ctx, place.packageDomain) ? SIBLINGS_GATHER_MS : 0,
    )
    : await readMailIfPresent(ctx, place);
  if (!mail) {
    throw new ReconcileError(
      `${place.path}: package ${place.packageDomain} or its domain ${place.domain} does not exist in the account. ` +
        'If Terraform\'s state says it was created, an earlier apply was interrupted (or it was deleted outside Terraform): ' +
        "run 'reseller-hosting drift --fix' to create what is missing, then apply again",
    );
  }
  return mail;
}

/** Undefined when the package or the domain is gone (for deletes, which then have nothing to do). */
export async function readMailIfPresent(ctx: ReconcileContext, place: MailPlace): Promise<MailDomain | undefined> {
  try {
    return await ctx.client.mail.get(place.packageDomain, place.domain);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Thrown by the first create of a mail object that nobody looked for first (its
 * package was created by this apply) when the API refuses it in a way that a look-up
 * explains: 409 (it existed after all: read and adopt it) or 404 (the package or the
 * domain is gone: the look-up reports it clearly).
 */
export class LookUpFirst extends Error {
  constructor() {
    super('the unchecked create was refused; look the object up first');
    this.name = 'LookUpFirst';
  }
}

/** Whether a refusal of an unchecked first create calls for a look-up (see LookUpFirst). */
export function callsForLookUp(err: unknown): boolean {
  return isDuplicateError(err) || isMissingObject(err);
}

/** The mail of a domain through the context's lists (one read per domain per context); undefined when gone. */
export function observeMail(ctx: ReconcileContext, packageDomain: string, domain: string): Promise<MailDomain | undefined> {
  return ctx.lists.get(mailListName(packageDomain, domain), () => readMailIfPresent(ctx, { path: '', packageDomain, domain }));
}

/**
 * The primary domain of the package that holds mail domain `domain`. An import id
 * `local@domain` cannot say which package the domain belongs to, so its placement
 * defaults to the domain itself; for a package's extra domain that would record the
 * wrong package (and the next plan would replace the object), so the account's
 * package list (shared with every other read of the run) decides.
 */
export async function packageOfMailDomain(ctx: ReconcileContext, placement: string, domain: string): Promise<string> {
  if (placement !== domain) return placement;
  const packages = await listedPackages(ctx);
  const holder = packageIndex(packages).byName.get(domain);
  return holder ? holder.name.toLowerCase() : placement;
}

/** The mail of one domain, as listed: the package that holds the domain (its primary domain, lowercase), and the mail. */
export interface ListedMail {
  readonly packageDomain: string;
  readonly domain: string;
  readonly mail: MailDomain;
}

/**
 * The mail of every domain of every package (a domain held by two packages: the first),
 * through the context's lists: one read per domain, at most `ctx.readsAtOnce` at once,
 * shared by mailboxes and forwarders (and with observe).
 */
export async function listMail(ctx: ReconcileContext): Promise<ListedMail[]> {
  const places: Array<{ packageDomain: string; domain: string }> = [];
  const seen = new Set<string>();
  for (const pkg of await listedPackages(ctx)) {
    for (const name of pkg.names) {
      const domain = name.toLowerCase();
      if (seen.has(domain)) continue;
      seen.add(domain);
      places.push({ packageDomain: pkg.name.toLowerCase(), domain });
    }
  }
  const out: Array<ListedMail | undefined> = new Array(places.length);
  let next = 0;
  const worker = async () => {
    while (next < places.length) {
      const i = next++;
      const mail = await observeMail(ctx, places[i].packageDomain, places[i].domain);
      // The package or the name went away between the list and this read: no mail there.
      out[i] = mail && { ...places[i], mail };
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.readsAtOnce, places.length) }, worker));
  return out.filter((m): m is ListedMail => m !== undefined);
}

/** Why a mail object of this identity is not listed: its package or domain is gone, or the domain's mail could not be read. */
export async function whyMailMissing(ctx: ReconcileContext, id: Identity): Promise<string | undefined> {
  const { domain } = splitMailKey(id.key);
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(id.placement);
  if (!pkg) return `its package ${id.placement} does not exist`;
  if (!pkg.names.map((n) => n.toLowerCase()).includes(domain)) return `${domain} is not a domain of package ${id.placement}`;
  const listed = await listMail(ctx);
  return listed.some((m) => m.domain === domain) ? undefined : `the mail of ${domain} could not be read`;
}

/** A write to a domain's mail: with shared lists, reads scheduled meanwhile wait for it (ListCache). */
export function writeMail<T>(ctx: ReconcileContext, place: Pick<MailPlace, 'packageDomain' | 'domain'>, write: () => Promise<T>): Promise<T> {
  return ctx.lists.shared ? ctx.lists.writing(mailListName(place.packageDomain, place.domain), write) : write();
}

/** Within a shared-lists ensure: the object is confirmed by the read of `tick` (see ReconcileContext.confirmed). */
export function confirmedBy(ctx: ReconcileContext, place: Pick<MailPlace, 'packageDomain' | 'domain'>, tick: number): void {
  ctx.confirmed?.set(mailListName(place.packageDomain, place.domain), tick);
}

/** One address's entry in a domain's mail read (a mailbox, an autoresponder): `local` is its local part. */
type AddressEntry = { readonly local: string };

/**
 * Deletes the entry of one address (`id.key`, local@domain) of a mail kind, as every mail
 * kind deletes: absent already is done; else the kind's delete write, converged until a
 * read no longer shows it. `noun` names it in messages ("mailbox", "autoresponder").
 */
export async function deleteAddressEntry<E extends AddressEntry>(
  ctx: ReconcileContext,
  id: Identity,
  noun: string,
  entries: (mail: MailDomain) => readonly E[],
  remove: (domain: string, live: E) => Promise<void>,
): Promise<void> {
  const { localPart, domain } = splitMailKey(id.key);
  const place = { path: id.key, packageDomain: id.placement, domain };
  const find = async () => {
    const mail = await readMailIfPresent(ctx, place);
    return mail && entries(mail).find((e) => e.local.toLowerCase() === localPart);
  };
  const live = await find();
  if (!live) {
    ctx.info(`${noun} ${id.key} is already absent`);
    return;
  }
  await converge(ctx, {
    what: `delete ${noun} ${id.key}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await find()) === undefined,
    write: () => remove(domain, live),
  });
  ctx.info(`deleted ${noun} ${id.key}`);
}
