import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { checkMailboxPassword, forwarderCreatedItem, MAILBOX_LIST_UPDATE, mailboxFlag, mailboxUpdatedItem, toleratesMailboxListUpdate } from './assumed';
import type { Package } from '../../backend/model';
import {
  createForwarder,
  createMailbox,
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
 * Mail objects: one endpoint for every change, `POST /package/{id}/email/{domain}`
 * (spec 4.4, api-notes "Mail"). A body may carry `new`, `update` and `delete`; they
 * are applied in that order and the envelope lists what was created or updated.
 */
export function addMailRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/email/:domain', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return bare(mailDomainView(pkg, requireMailDomain(pkg, ctx.params.domain), ctx.profile));
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
    if (kinds.length !== 1 || (kinds[0] !== 'mailbox' && kinds[0] !== 'forward')) {
      throw validationError('new must have exactly one member: mailbox or forward');
    }
    if (kinds[0] === 'mailbox') {
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
    throw validationError(`update: "${id}" is not a type-prefixed id of this domain's mail ("m123")`);
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
