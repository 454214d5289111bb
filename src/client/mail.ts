import { acceptMailboxUpdateResult, forwardListOfMailRead, mailboxUpdateBody, parseForwarderCreateResult, parseForwarderEntry } from './assumptions';
import { booleanArg, nonEmptyString, packageSegment, pathSegment } from './ids';
import { Resource } from './resource';
import { respondersOfMailRead } from './responders';
import * as shape from './shape';
import type {
  CreateForwarderRequest,
  CreateMailboxRequest,
  MailboxEntry,
  MailDomain,
  MailWriteResult,
  UpdateMailboxRequest,
} from './types';

/**
 * Mail objects of one domain of a package: one read and one write endpoint,
 * `GET|POST /package/{id or domain}/email/{domain}` (api-notes "Mail"). `packageRef` is
 * the package id or one of its domain names (the API accepts either in the path).
 *
 * Passwords are write-only: they go into the request body and nowhere else. The API
 * echoes the password in the create response; that field is dropped here.
 */

function mailPath(packageRef: string | number, domain: string, operation: string): string {
  return `/package/${packageSegment(packageRef, operation)}/email/${pathSegment(domain, operation, 'domain')}`;
}

export function parseMailDomain(data: unknown): MailDomain {
  const body = shape.object(data, '');
  return {
    name: shape.string(body.name, 'name'),
    // `mailbox` is required: reading a changed shape as "no mail" would make a delete
    // look confirmed, or a create look needed. `forward` may be left out (assumptions.ts).
    mailboxes: shape.arrayOf(body.mailbox, 'mailbox', parseMailboxEntry),
    forwarders: forwardListOfMailRead(body).map((v, i) => parseForwarderEntry(v, shape.at('forward', i))),
    responders: respondersOfMailRead(body),
  };
}

function parseMailboxEntry(value: unknown, where: string): MailboxEntry {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  const out: MailboxEntry = {
    id: shape.string(entry.id, f('id')),
    local: shape.string(entry.local, f('local')),
    // The API sends booleans or the strings "true"/"false".
    send: shape.boolean(entry.send, f('send')),
    receive: shape.boolean(entry.receive, f('receive')),
    enabled: shape.optBoolean(entry.enabled, f('enabled'), true),
  };
  if (entry.quotaMB !== undefined && entry.quotaMB !== null) out.quotaMB = shape.number(entry.quotaMB, f('quotaMB'));
  if (entry.usageMB !== undefined && entry.usageMB !== null) out.usageMB = shape.number(entry.usageMB, f('usageMB'));
  return out;
}

/**
 * The unwrapped result of a mail write: `{"result": [objects], "name": domain}` (live for
 * a new mailbox). Each object's echoed `password` is dropped here and never kept.
 */
export function parseMailWriteResult(data: unknown, where: string): MailWriteResult {
  const envelope = shape.object(data, where || 'result');
  const base = where || 'result';
  return {
    name: shape.string(envelope.name, shape.at(base, 'name')),
    created: shape.arrayOf(envelope.result, shape.at(base, 'result'), (value, at) => {
      const item = shape.object(value, at);
      // Deliberately no `password` here.
      return {
        type: shape.string(item.type, shape.at(at, 'type')),
        id: shape.string(item.id, shape.at(at, 'id')),
        generatedId: item.generatedId ?? null,
      };
    }),
  };
}

/** Mailboxes and forwarders of one domain of a package. */
export class Mail extends Resource {
  /** The mailboxes and forwarders of one domain of a package. */
  async get(packageRef: string | number, domain: string): Promise<MailDomain> {
    const operation = 'getMail';
    return this.ctx.transport.call({
      operation,
      method: 'GET',
      path: mailPath(packageRef, domain, operation),
      parse: (data) => parseMailDomain(data),
    });
  }

  /** Creates a mailbox; the password goes into the body and nowhere else. */
  async createMailbox(packageRef: string | number, domain: string, request: CreateMailboxRequest): Promise<MailWriteResult> {
    const operation = 'createMailbox';
    const password = request.password;
    if (typeof password !== 'string' || password === '') throw new TypeError(`${operation}: password must be a non-empty string`);
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: {
        new: {
          mailbox: {
            local: nonEmptyString(request.local, operation, 'local'),
            send: booleanArg(request.send, operation, 'send') ? 'true' : 'false',
            receive: booleanArg(request.receive, operation, 'receive') ? 'true' : 'false',
            password,
          },
        },
      },
      secrets: [password],
      parse: (data) => parseMailWriteResult(data, ''),
    });
  }

  /** Creates a forwarder from `local@domain` to `remote`. */
  async createForwarder(packageRef: string | number, domain: string, request: CreateForwarderRequest): Promise<MailWriteResult> {
    const operation = 'createForwarder';
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: {
        new: {
          forward: {
            local: nonEmptyString(request.local, operation, 'local'),
            remote: nonEmptyString(request.remote, operation, 'remote'),
          },
        },
      },
      parse: (data) => parseForwarderCreateResult(data, domain, parseMailWriteResult),
    });
  }

  /** Changes send/receive/password of a mailbox: `{"update": {"m123": {…}}}`, keyed by its id (see assumptions.ts). */
  async updateMailbox(packageRef: string | number, domain: string, request: UpdateMailboxRequest): Promise<void> {
    const operation = 'updateMailbox';
    nonEmptyString(request.id, operation, 'id');
    if (request.send !== undefined) booleanArg(request.send, operation, 'send');
    if (request.receive !== undefined) booleanArg(request.receive, operation, 'receive');
    if (request.password !== undefined && (typeof request.password !== 'string' || request.password === '')) {
      throw new TypeError(`${operation}: password must be a non-empty string when given`);
    }
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: mailboxUpdateBody(request),
      secrets: request.password !== undefined ? [request.password] : [],
      parse: (data) => acceptMailboxUpdateResult(data),
    });
  }

  /**
   * Deletes mail objects by type-prefixed id: `{"delete": ["m1", "f2"]}`, a flat array.
   *
   * Caution: the API answers 200 even to a delete body of the wrong shape (a nested one
   * is accepted and silently ignored), so a 200 here does NOT prove the objects are gone.
   * The handler reads the domain back (getMail) to confirm.
   */
  async delete(packageRef: string | number, domain: string, ids: string[]): Promise<void> {
    const operation = 'deleteMail';
    const path = mailPath(packageRef, domain, operation);
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id.trim() !== '')) {
      throw new TypeError(`${operation}: ids must be an array of type-prefixed ids such as "m123" or "f456"`);
    }
    if (ids.length === 0) return;
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path,
      body: { delete: [...ids] },
      parse: () => undefined,
    });
  }
}
