import { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { NewUserContact, parseGrantServiceKey } from './assumed';
import { notFound } from '../../errors';
import { createUser, deleteUser, requireUser, setGrant, updateContact, userListing } from './backend';
import { resolveCountry } from './countries';
import { expectBody, expectBoolean, expectObject, expectString, expectUserRef, readText } from '../../validate';
import { checkEmailAddress } from '../../../protocol/names';

/** Control-panel users (api-notes "Control-panel users", "link / unlink user"). */
export function addUserRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/reseller/:reseller/susers', (ctx) => bare(userListing(ctx.account)));
  router.add('POST', '/reseller/:reseller/susers', postSusers);
  router.add('POST', '/reseller/:reseller/explicitStackUserCheck', explicitStackUserCheck);
}

/** One endpoint, four operations, told apart by the body's single member. */
function postSusers(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const ops = ['grant_map', 'newUser', 'users', 'contact'].filter((k) => body[k] !== undefined);
  if (ops.length !== 1) throw validationError('request body must have exactly one of grant_map, newUser, users, contact');
  if (ops[0] === 'grant_map') return wrapped({ updated: changeGrants(ctx, expectObject(body.grant_map, 'grant_map')) });
  if (ops[0] === 'newUser') return newUser(ctx, expectObject(body.newUser, 'newUser'));
  if (ops[0] === 'contact') return wrapped({ updated: changeContacts(ctx, expectObject(body.contact, 'contact')) });
  return wrapped({ updated: changeUsers(ctx, expectObject(body.users, 'users')) });
}

/**
 * `POST /reseller/{id}/explicitStackUserCheck {"email"}` -> the `stack-user:<n>` whose
 * e-mail it is, or null (Upmind's 20i provider finds a user this way; confidence: code).
 */
function explicitStackUserCheck(ctx: ApiContext) {
  const email = expectString(expectBody(ctx.body).email, 'email').trim().toLowerCase();
  const user = ctx.account.users.find((u) => u.contact.email.toLowerCase() === email);
  return wrapped(user ? `stack-user:${user.id}` : null);
}

/** `{"stack-user:N": {"package:123": true|false}}`: true grants, false revokes. */
function changeGrants(ctx: ApiContext, grantMap: Record<string, unknown>): number {
  let updated = 0;
  for (const [ref, services] of Object.entries(grantMap)) {
    const user = requireUser(ctx.account, expectUserRef(ref, `grant_map key "${ref}"`));
    for (const [key, value] of Object.entries(expectObject(services, `grant_map.${ref}`))) {
      const service = parseGrantServiceKey(key);
      if ('problem' in service) throw validationError(`grant_map.${ref}: ${service.problem}`);
      const on = expectBoolean(value, `grant_map.${ref}.${key}`, ctx.form);
      if (!ctx.account.packages.some((p) => p.id === service.packageId)) throw notFound(`package ${service.packageId} not found`);
      setGrant(user, service.packageId, on);
      updated++;
    }
  }
  return updated;
}

function newUser(ctx: ApiContext, input: Record<string, unknown>) {
  const email = readEmail(input.email, 'newUser.email');
  const user = createUser(ctx.state, ctx.account, email, readContact(input, 'newUser'), ctx.nowMs);
  return wrapped({ ref: `stack-user:${user.id}`, updated: 1 });
}

function readEmail(value: unknown, path: string): string {
  const email = expectString(value, path);
  const problem = checkEmailAddress(email);
  if (problem) throw validationError(`${path}: ${problem}`);
  return email.trim();
}

/** Text fields of a contact, each optional; 2-letter `cc` codes are translated (see countries.ts). */
const CONTACT_TEXT_FIELDS = [
  'person_name', 'company_name', 'company_number', 'trading_name', 'address', 'city', 'sp', 'pc', 'voice', 'notes',
  'billing_ref', 'nominet_contact_type',
] as const;

/**
 * The contact fields of a `newUser` or `contact` entry. PHP clients send numbers for
 * strings (20i's own live test sends a number as `person_name`) and null for fields
 * they leave empty; both are accepted. Fields the emulator does not know are ignored.
 */
function readContact(input: Record<string, unknown>, path: string): NewUserContact {
  const out: NewUserContact = {};
  for (const field of CONTACT_TEXT_FIELDS) {
    const text = readText(input[field], `${path}.${field}`, { max: field === 'address' || field === 'notes' ? 1000 : 255 });
    if (text !== undefined) out[field] = text;
  }
  if (out.nominet_contact_type === '') delete out.nominet_contact_type;
  const cc = readText(input.cc, `${path}.cc`, { max: 3 });
  if (cc !== undefined && cc !== '') {
    const country = resolveCountry(cc);
    if (!country) throw validationError(`${path}.cc must be a 2- or 3-letter country code`);
    out.country = country;
  }
  return out;
}

/** `{"contact": {"stack-user:N": {fields}}}`: changes the given contact fields (Upmind's 20i provider does this). */
function changeContacts(ctx: ApiContext, contacts: Record<string, unknown>): number {
  let updated = 0;
  for (const [ref, value] of Object.entries(contacts)) {
    const user = requireUser(ctx.account, expectUserRef(ref, `contact key "${ref}"`));
    const input = expectObject(value, `contact.${ref}`);
    const email = input.email === undefined || input.email === null ? undefined : readEmail(input.email, `contact.${ref}.email`);
    updateContact(ctx.account, user, email, readContact(input, `contact.${ref}`));
    updated++;
  }
  return updated;
}

/**
 * `{"stack-user:N": {"delete": true}}`: the user goes, with its grants.
 * `{"stack-user:N": {"password": "…"}}` sets the user's control-panel password (Upmind's
 * 20i provider): accepted and checked, never kept (the emulator models no logins).
 */
function changeUsers(ctx: ApiContext, users: Record<string, unknown>): number {
  let updated = 0;
  for (const [ref, value] of Object.entries(users)) {
    const id = expectUserRef(ref, `users key "${ref}"`);
    const change = expectObject(value, `users.${ref}`);
    if (change.delete !== undefined) {
      if (!expectBoolean(change.delete, `users.${ref}.delete`, ctx.form)) throw validationError(`users.${ref}.delete must be true`);
      deleteUser(ctx.account, id);
    } else if (change.password !== undefined) {
      requireUser(ctx.account, id);
      expectString(change.password, `users.${ref}.password`, { min: 1, max: 255 });
    } else {
      throw validationError(`users.${ref} must have delete or password`);
    }
    updated++;
  }
  return updated;
}
