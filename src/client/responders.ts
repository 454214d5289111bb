import { responderDeleteBody, responderListOfMailRead, responderTimeForWrite, responderTimeOfRead } from './assumptions';
import { booleanArg, nonEmptyString, packageSegment, pathSegment } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { ResponderEntry, ResponderFields } from './types';

/**
 * Autoresponders of one domain of a package (api-notes "Autoresponders"): read in the
 * `responder` list of the domain's mail read (`client.mail.get`, which every mail kind
 * shares) or alone (`GET …/email/{domain}/responder`), and changed through the mail
 * endpoint `POST /package/{id or domain}/email/{domain}`: `new.responder`, an update
 * keyed by the `r…` id, and the flat `delete` array.
 */

function mailPath(packageRef: string | number, domain: string, operation: string): string {
  return `/package/${packageSegment(packageRef, operation)}/email/${pathSegment(domain, operation, 'domain')}`;
}

/** One entry of the `responder` list. Tolerant: a missing flag or type takes the API's create defaults. */
export function parseResponderEntry(value: unknown, where: string): ResponderEntry {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  return {
    id: shape.string(entry.id, f('id')),
    local: shape.string(entry.local, f('local')),
    subject: shape.optText(entry.subject, f('subject')),
    content: shape.optText(entry.content, f('content')),
    type: shape.optString(entry.type, f('type'), 'text/plain'),
    enabled: shape.optBoolean(entry.enabled, f('enabled'), true),
    startTime: responderTimeOfRead(entry.startTime, f('startTime')),
    endTime: responderTimeOfRead(entry.endTime, f('endTime')),
    forwardTo: entry.forwardTo === undefined || entry.forwardTo === null || entry.forwardTo === '' ? null : shape.string(entry.forwardTo, f('forwardTo')),
  };
}

/** The `responder` list of a mail read's body. */
export function respondersOfMailRead(body: shape.JsonObject): ResponderEntry[] {
  return responderListOfMailRead(body).map((v, i) => parseResponderEntry(v, shape.at('responder', i)));
}

/** The settings as the API's create and update bodies carry them. */
function wireFields(fields: ResponderFields, operation: string): Record<string, unknown> {
  return {
    subject: nonEmptyString(fields.subject, operation, 'subject'),
    content: nonEmptyString(fields.content, operation, 'content'),
    type: nonEmptyString(fields.type, operation, 'type'),
    enabled: booleanArg(fields.enabled, operation, 'enabled'),
    startTime: responderTimeForWrite(fields.startTime),
    endTime: responderTimeForWrite(fields.endTime),
    forwardTo: fields.forwardTo,
  };
}

/** Autoresponders of a package's domains. */
export class Responders extends Resource {
  /** The domain's autoresponders alone (`GET …/email/{domain}/responder`); `client.mail.get` lists them too. */
  async list(packageRef: string | number, domain: string): Promise<ResponderEntry[]> {
    const operation = 'listResponders';
    return this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${mailPath(packageRef, domain, operation)}/responder`,
      parse: (data) => shape.arrayOf(data, '', parseResponderEntry),
    });
  }

  /** Creates the autoresponder of `local@domain`. The answer is not needed: callers read the domain back. */
  async create(packageRef: string | number, domain: string, local: string, fields: ResponderFields): Promise<void> {
    const operation = 'createResponder';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: { new: { responder: { local: nonEmptyString(local, operation, 'local'), ...wireFields(fields, operation) } } },
      parse: () => undefined,
    });
  }

  /** Sets every setting of autoresponder `id` ("r123"): `{"update": {"r123": {…}}}`. */
  async update(packageRef: string | number, domain: string, id: string, fields: ResponderFields): Promise<void> {
    const operation = 'updateResponder';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: { update: { [nonEmptyString(id, operation, 'id')]: wireFields(fields, operation) } },
      parse: () => undefined,
    });
  }

  /** Deletes autoresponder `id` ("r123"). Like every mail delete, a 200 proves nothing: read back. */
  async delete(packageRef: string | number, domain: string, id: string): Promise<void> {
    const operation = 'deleteResponder';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: mailPath(packageRef, domain, operation),
      body: responderDeleteBody(nonEmptyString(id, operation, 'id')),
      parse: () => undefined,
    });
  }
}
