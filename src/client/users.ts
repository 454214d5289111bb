import { AmbiguousUserError } from './errors';
import { nonEmptyString, toId, toUserRef } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { ContactRecord, CreateUserRequest, GrantMap, UserList } from './types';

/**
 * Control-panel users: `GET /reseller/{id}/susers` and the writes on the same path
 * (api-notes "Control-panel users", "link / unlink user").
 */

const CONTACT_STRING_FIELDS = [
  'address', 'avatarUrl', 'cc', 'ccAlpha2', 'ccAlpha3', 'city', 'company_name', 'company_number', 'createdAt',
  'nominet_contact_type', 'notes', 'pc', 'person_name', 'sp', 'trading_name', 'voice', 'firstName', 'lastName',
] as const;

export function parseUserList(data: unknown): UserList {
  const body = shape.object(data, '');
  const contacts = shape.map(body.contact, 'contact');
  const contact: Record<string, ContactRecord> = {};
  for (const [ref, value] of Object.entries(contacts)) contact[ref] = parseContact(value, shape.at('contact', ref));
  const grants = shape.map(body.grant_map, 'grant_map');
  const grantMap: GrantMap = {};
  for (const [ref, value] of Object.entries(grants)) {
    const where = shape.at('grant_map', ref);
    const services: Record<string, 1> = {};
    for (const [service, granted] of Object.entries(shape.map(value, where))) {
      // The spec's values are the number 1; presence means "granted". An explicit
      // false/0 is read as not granted rather than trusted as presence.
      if (granted !== false && granted !== 0 && granted !== null) services[service] = 1;
    }
    grantMap[ref] = services;
  }
  return { contact, grantMap };
}

function parseContact(value: unknown, where: string): ContactRecord {
  const record = shape.object(value, where);
  const out = {
    email: shape.string(record.email, shape.at(where, 'email')),
    ext_billing_ref: record.ext_billing_ref === undefined || record.ext_billing_ref === null
      ? null
      : shape.optText(record.ext_billing_ref, shape.at(where, 'ext_billing_ref')),
  } as ContactRecord;
  // PHP back ends may send numbers for text (a postcode, a phone number, a name).
  for (const field of CONTACT_STRING_FIELDS) out[field] = shape.optText(record[field], shape.at(where, field));
  return out;
}

function userNumber(ref: string): number {
  const n = Number(ref.slice(ref.indexOf(':') + 1));
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

/** Control-panel users and their package grants (`/reseller/{id}/susers`). */
export class Users extends Resource {
  /** `GET /reseller/{id}/susers`: contact records and grant map (`grant_map` -> `grantMap`). */
  async list(): Promise<UserList> {
    return this.ctx.transport.call({
      operation: 'listUsers',
      method: 'GET',
      path: `${this.ctx.resellerPath}/susers`,
      parse: (data) => parseUserList(data),
    });
  }

  /** Creates a control-panel user (`newUser`) -> its `stack-user:N` identifier. */
  async create(request: CreateUserRequest): Promise<string> {
    const operation = 'createUser';
    const newUser: Record<string, string> = { email: nonEmptyString(request?.email, operation, 'email') };
    if (request.personName !== undefined) newUser.person_name = request.personName;
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/susers`,
      body: { newUser },
      parse: (data) => {
        const result = shape.object(data, 'result');
        const ref = shape.string(result.ref, 'result.ref');
        if (!/^stack-user:[0-9]+$/.test(ref)) {
          throw new shape.ShapeMismatch('expected result.ref to be a "stack-user:<number>" identifier, got another string');
        }
        return ref;
      },
    });
  }

  /** Deletes a control-panel user. */
  async delete(ref: string): Promise<void> {
    const operation = 'deleteUser';
    const user = toUserRef(ref, operation);
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/susers`,
      body: { users: { [user]: { delete: true } } },
      parse: () => undefined,
    });
  }

  /** Links (`granted`) or unlinks a user and a package: the grant map entry `package:<id>`. */
  async setPackageGrant(userRef: string, packageId: string | number, granted: boolean): Promise<void> {
    const operation = 'setPackageGrant';
    const user = toUserRef(userRef, operation);
    const id = toId(packageId, operation, 'package id');
    if (typeof granted !== 'boolean') throw new TypeError(`${operation}: granted must be a boolean`);
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/susers`,
      body: { grant_map: { [user]: { [`package:${id}`]: granted } } },
      parse: () => undefined,
    });
  }

  /**
   * The user whose contact e-mail is `email` (case-insensitive, surrounding spaces
   * ignored), or undefined. Several matches raise `AmbiguousUserError`: picking one
   * silently could link a package to the wrong person.
   */
  async findByEmail(email: string): Promise<string | undefined> {
    const wanted = nonEmptyString(email, 'findUserByEmail', 'email').trim().toLowerCase();
    const { contact } = await this.list();
    const matches = Object.entries(contact)
      .filter(([, record]) => record.email.trim().toLowerCase() === wanted)
      .map(([ref]) => ref)
      .sort((a, b) => userNumber(a) - userNumber(b));
    if (matches.length > 1) throw new AmbiguousUserError(email, matches);
    return matches[0];
  }
}
