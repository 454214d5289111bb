import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import {
  checkMailboxPassword, forwarderCreatedItem, isResponderType, MAILBOX_LIST_UPDATE, mailboxFlag, mailboxUpdatedItem, responderCreatedItem, responderTime,
  toleratesMailboxListUpdate,
} from './assumed';
import type { Package } from '../../backend/model';
import {
  createForwarder,
  createMailbox,
  createResponder,
  requireResponder,
  respondersView,
  ResponderSettings,
  deleteMail,
  mailDomainView,
  MailboxChange,
  requireMailbox,
  requireMailDomain,
  updateMailbox,
} from './backend';
import { requirePackage } from '../packages/backend';
import { withAssumed } from '../../profile';
import { expectBody, expectObject, expectString } from '../../validate';
import { canonicalEmail, canonicalLocalPart, checkEmailAddress, checkLocalPart } from '../../../protocol/names';

/**
 * Mail objects (mailboxes, forwarders, autoresponders): one endpoint for every change, `POST /package/{id}/email/{domain}`
 * (spec 4.4, api-notes "Mail"). A body may carry `new`, `update` and `delete`; they
 * are applied in that order and the envelope lists what was created or updated.
 */
export function addMailRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/email/:domain', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return bare(mailDomainView(pkg, requireMailDomain(pkg, ctx.params.domain), ctx.profile));
  });
  router.add('GET', '/package/:pkg/email/:domain/responder', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return bare(respondersView(pkg, requireMailDomain(pkg, ctx.params.domain)));
  });
  router.add('POST', '/package/:pkg/email/:domain', postMail);
}

function postMail(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const pkg = requirePackage(ctx.account, ctx.params.pkg);
  const domain = requireMailDomain(pkg, ctx.params.domain);
  if (body.new === undefined && body.update === undefined && body.delete === undefined) {
    throw validationError('request body must have new, update or delete');
  }
  const items: Array<Record<string, unknown>> = [];

  if (body.new !== undefined) {
    const what = expectObject(body.new, 'new');
    const kinds = Object.keys(what).filter((k) => what[k] !== undefined);
    if (kinds.length !== 1 || !['mailbox', 'forward', 'responder'].includes(kinds[0])) {
      throw validationError('new must have exactly one member: mailbox, forward or responder');
    }
    if (kinds[0] === 'responder') {
      const r = expectObject(what.responder, 'new.responder');
      const responder = createResponder(ctx.state, pkg, domain, readLocal(r.local, 'new.responder.local'), responderSettings(r, 'new.responder'));
      if (withAssumed(ctx.profile)) items.push(responderCreatedItem(responder));
    } else if (kinds[0] === 'mailbox') {
      const m = expectObject(what.mailbox, 'new.mailbox');
      const input = {
        local: readLocal(m.local, 'new.mailbox.local'),
        send: expectStringBoolean(m.send, 'new.mailbox.send'),
        receive: expectStringBoolean(m.receive, 'new.mailbox.receive'),
        password: readPassword(m.password, 'new.mailbox.password'),
      };
      const mailbox = createMailbox(ctx.state, pkg, domain, input);
      items.push({ type: 'mailbox', id: mailbox.local, generatedId: null, password: input.password });
    } else {
      const f = expectObject(what.forward, 'new.forward');
      const local = readLocal(f.local, 'new.forward.local');
      const remote = expectString(f.remote, 'new.forward.remote');
      const problem = checkEmailAddress(remote);
      if (problem) throw validationError(`new.forward.remote: ${problem}`);
      const forwarder = createForwarder(ctx.state, pkg, domain, local, canonicalEmail(remote.trim()));
      // The response item of a new forwarder is assumed: the documented profile lists none.
      if (withAssumed(ctx.profile)) items.push(forwarderCreatedItem(forwarder));
    }
  }

  if (body.update !== undefined) {
    // The update request and its response items are assumed: the documented profile lists none.
    const updated = applyUpdates(ctx, pkg, domain, body.update);
    if (withAssumed(ctx.profile)) items.push(...updated);
  }

  // Live behaviour: only a flat array of type-prefixed ids deletes anything; any other
  // shape (e.g. {"mailbox": ["m1"]}) is accepted with 200 and silently ignored.
  if (Array.isArray(body.delete)) deleteMail(pkg, domain, body.delete);

  return wrapped({ result: items, name: domain });
}

/**
 * `update`: keyed by type-prefixed id, as the service's own clients send it (api-notes
 * "Mail"): `{"update": {"m123": {"password"?, "send"?, "receive"?}}}`. The password is
 * `code`; send/receive in the keyed object are assumed (accepted in both profiles, or
 * the documented profile could change no mailbox's flags). The list shape
 * `{"update": {"mailbox": [{"id", …}]}}` is a tolerance only (see
 * `toleratesMailboxListUpdate`). Unknown id: 404. Returns the envelope's items.
 */
function applyUpdates(ctx: ApiContext, pkg: Package, domain: string, value: unknown): Array<Record<string, unknown>> {
  const update = expectObject(value, 'update');
  if (Array.isArray(update.mailbox)) {
    if (!toleratesMailboxListUpdate(ctx.profile)) {
      throw validationError('update must be keyed by type-prefixed id ({"update": {"m123": {...}}}); the {"update": {"mailbox": [...]}} shape is not accepted');
    }
    ctx.tolerate(MAILBOX_LIST_UPDATE);
    return update.mailbox.map((entry, i) => {
      const u = expectObject(entry, `update.mailbox[${i}]`);
      return changeMailbox(pkg, domain, expectString(u.id, `update.mailbox[${i}].id`), u, `update.mailbox[${i}]`);
    });
  }
  return Object.entries(update).map(([id, entry]) => {
    const path = `update.${id}`;
    const u = expectObject(entry, path);
    if (/^m[0-9]+$/.test(id)) return changeMailbox(pkg, domain, id, u, path);
    if (/^r[0-9]+$/.test(id)) return changeResponder(pkg, domain, id, u, path);
    throw validationError(`update: "${id}" is not a type-prefixed id of this domain's mail ("m123", "r123")`);
  });
}

function changeMailbox(pkg: Package, domain: string, id: string, u: Record<string, unknown>, path: string): Record<string, unknown> {
  const mailbox = requireMailbox(pkg, domain, id);
  const change: MailboxChange = {};
  if (u.send !== undefined) change.send = expectStringBoolean(u.send, `${path}.send`);
  if (u.receive !== undefined) change.receive = expectStringBoolean(u.receive, `${path}.receive`);
  if (u.password !== undefined) change.password = readPassword(u.password, `${path}.password`);
  updateMailbox(mailbox, change);
  return mailboxUpdatedItem(mailbox, change.password);
}

/**
 * An autoresponder's update (api-notes "Autoresponders": `{"update": {"r123": {same
 * fields}}}`, code): the fields given change, the others stay.
 */
function changeResponder(pkg: Package, domain: string, id: string, u: Record<string, unknown>, path: string): Record<string, unknown> {
  const responder = requireResponder(pkg, domain, id);
  Object.assign(responder, responderSettings(u, path, responder));
  return { type: 'responder', id: responder.local, generatedId: null };
}

/** The settings of a new responder (`base` absent: the create's defaults) or of an update (given ones over `base`). */
function responderSettings(r: Record<string, unknown>, path: string, base?: ResponderSettings): ResponderSettings {
  const text = (key: 'subject' | 'content') => {
    if (r[key] === undefined && base) return base[key];
    return expectString(r[key], `${path}.${key}`);
  };
  const time = (key: 'startTime' | 'endTime') => {
    if (r[key] === undefined) return base ? base[key] : null;
    const value = responderTime(r[key]);
    if (value === undefined) throw validationError(`${path}.${key} must be an ISO 8601 date and time, or null`);
    return value;
  };
  const type = r.type === undefined ? (base?.type ?? 'text/plain') : r.type;
  if (!isResponderType(type)) throw validationError(`${path}.type must be "text/plain" or "text/html"`);
  const enabled = r.enabled === undefined ? (base?.enabled ?? true) : mailboxFlag(r.enabled);
  if (enabled === undefined) throw validationError(`${path}.enabled must be true or false`);
  let forwardTo = r.forwardTo === undefined ? (base?.forwardTo ?? null) : r.forwardTo === null || r.forwardTo === '' ? null : expectString(r.forwardTo, `${path}.forwardTo`);
  if (forwardTo !== null) {
    const problem = checkEmailAddress(forwardTo);
    if (problem) throw validationError(`${path}.forwardTo: ${problem}`);
    forwardTo = canonicalEmail(forwardTo.trim());
  }
  const startTime = time('startTime');
  const endTime = time('endTime');
  if (startTime !== null && endTime !== null && endTime <= startTime) throw validationError(`${path}.endTime must be after startTime`);
  return { subject: text('subject'), content: text('content'), type: type as string, enabled, startTime, endTime, forwardTo };
}

function readLocal(value: unknown, path: string): string {
  const problem = checkLocalPart(value);
  if (problem) throw validationError(`${path}: ${problem}`);
  return canonicalLocalPart(value as string);
}

function readPassword(value: unknown, path: string): string {
  const problem = checkMailboxPassword(value);
  if (problem) throw validationError(`${path} ${problem}`);
  return value as string;
}

/**
 * The API's mailbox flags: the strings `"true"`/`"false"` (spec 4.4), and JSON booleans,
 * which PHP clients send (see `mailboxFlag`).
 */
function expectStringBoolean(value: unknown, path: string): boolean {
  const flag = mailboxFlag(value);
  if (flag === undefined) throw validationError(`${path} must be "true" or "false" (or a JSON boolean)`);
  return flag;
}
