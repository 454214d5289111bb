import { Package, State } from '../../backend/model';
import { Forwarder, Mailbox, Responder } from './model';
import { duplicateMailError, forwarderEntry, newMailboxDefaults, responderLimitProblem, showEmptyForwardList } from './assumed';
import { packageTypeLimits } from '../packages/model';
import { validationError } from '../../assumed';
import { EmulatorProfile, withAssumed } from '../../profile';
import { notFound } from '../../errors';
import { canonicalDomain } from '../../../protocol/names';
import { sha256Hex } from '../../util';

/** Mailboxes and forwarders on a domain of a package (spec 4.4; api-notes "Mail"). */

/** The package's name that `domain` denotes (canonical), or 404. */
export function requireMailDomain(pkg: Package, domain: string): string {
  const name = canonicalDomain(domain);
  if (name === '' || !pkg.names.includes(name)) throw notFound(`domain ${domain} is not a name of package ${pkg.id}`);
  return name;
}

/**
 * GET /package/{id}/email/{domain}, with the `domain` member of the published
 * blueprint. The `documented` profile leaves out an empty `forward` (its shape is
 * assumed, see showEmptyForwardList).
 */
export function mailDomainView(pkg: Package, domain: string, profile: EmulatorProfile): Record<string, unknown> {
  const forward = pkg.forwarders.filter((f) => f.domain === domain).map(forwarderEntry);
  const view: Record<string, unknown> = {
    name: domain,
    domain,
    mailbox: pkg.mailboxes.filter((m) => m.domain === domain).map((m) => ({
      id: `m${m.id}`,
      local: m.local,
      send: m.send,
      receive: m.receive,
      enabled: m.enabled,
      quotaMB: m.quotaMB,
      usageMB: m.usageMB,
    })),
  };
  if (forward.length > 0 || (withAssumed(profile) && showEmptyForwardList())) view.forward = forward;
  view.responder = respondersView(pkg, domain);
  return view;
}

/** The `responder` list of a domain's mail read (api-notes "Autoresponders": docs + code), both profiles. */
export function respondersView(pkg: Package, domain: string): Array<Record<string, unknown>> {
  return pkg.responders.filter((r) => r.domain === domain).map((r) => ({
    id: `r${r.id}`, local: r.local, subject: r.subject, content: r.content, forwardTo: r.forwardTo,
    enabled: r.enabled, startTime: r.startTime, endTime: r.endTime, type: r.type,
  }));
}

export type ResponderSettings = Omit<Responder, 'id' | 'domain' | 'local'>;

/** A new autoresponder of local@domain: one per address (409), within the package type's limit (400). */
export function createResponder(state: State, pkg: Package, domain: string, local: string, settings: ResponderSettings): Responder {
  if (pkg.responders.some((r) => r.domain === domain && r.local === local)) {
    throw duplicateMailError(`autoresponder ${local}@${domain} already exists`);
  }
  const problem = responderLimitProblem(packageTypeLimits(pkg.typeId), pkg.responders.length);
  if (problem) throw validationError(`new.responder: ${problem}`);
  const responder: Responder = { id: state.counters.mailId++, domain, local, ...settings };
  pkg.responders.push(responder);
  return responder;
}

export function requireResponder(pkg: Package, domain: string, id: string): Responder {
  const responder = pkg.responders.find((r) => r.domain === domain && `r${r.id}` === id);
  if (!responder) throw notFound(`autoresponder ${id} not found on ${domain}`);
  return responder;
}

export interface NewMailbox {
  local: string;
  send: boolean;
  receive: boolean;
  password: string;
}

export function createMailbox(state: State, pkg: Package, domain: string, input: NewMailbox): Mailbox {
  if (pkg.mailboxes.some((m) => m.domain === domain && m.local === input.local)) {
    throw duplicateMailError(`mailbox ${input.local}@${domain} already exists`);
  }
  const mailbox: Mailbox = {
    id: state.counters.mailId++,
    domain,
    local: input.local,
    send: input.send,
    receive: input.receive,
    ...newMailboxDefaults(),
    passwordSha256: sha256Hex(input.password),
  };
  pkg.mailboxes.push(mailbox);
  return mailbox;
}

/**
 * A forwarder is unique by (local, remote): the same local part may forward to several
 * addresses, because clients change a target by creating the new one, then deleting
 * the old (api-notes, live practice).
 */
export function createForwarder(state: State, pkg: Package, domain: string, local: string, remote: string): Forwarder {
  if (pkg.forwarders.some((f) => f.domain === domain && f.local === local && f.remote.toLowerCase() === remote.toLowerCase())) {
    throw duplicateMailError(`forwarder ${local}@${domain} -> ${remote} already exists`);
  }
  const forwarder: Forwarder = { id: state.counters.mailId++, domain, local, remote };
  pkg.forwarders.push(forwarder);
  return forwarder;
}

/** Deletes `m<n>`/`f<n>`/`r<n>` objects of this domain; ids that are unknown here are ignored (live). */
export function deleteMail(pkg: Package, domain: string, ids: readonly unknown[]): void {
  const wanted = new Set(ids.filter((id): id is string => typeof id === 'string'));
  pkg.mailboxes = pkg.mailboxes.filter((m) => !(m.domain === domain && wanted.has(`m${m.id}`)));
  pkg.forwarders = pkg.forwarders.filter((f) => !(f.domain === domain && wanted.has(`f${f.id}`)));
  pkg.responders = pkg.responders.filter((r) => !(r.domain === domain && wanted.has(`r${r.id}`)));
}

export function requireMailbox(pkg: Package, domain: string, id: string): Mailbox {
  const mailbox = pkg.mailboxes.find((m) => m.domain === domain && `m${m.id}` === id);
  if (!mailbox) throw notFound(`mailbox ${id} not found on ${domain}`);
  return mailbox;
}

export interface MailboxChange {
  send?: boolean;
  receive?: boolean;
  password?: string;
}

export function updateMailbox(mailbox: Mailbox, change: MailboxChange): void {
  if (change.send !== undefined) mailbox.send = change.send;
  if (change.receive !== undefined) mailbox.receive = change.receive;
  if (change.password !== undefined) mailbox.passwordSha256 = sha256Hex(change.password);
}
