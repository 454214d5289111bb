import { ApiContext } from './context';
import { bare, Router, wrapped } from '../router';
import { parseGrantServiceKey, validationError } from '../assumed';
import { notFound } from '../errors';
import { createUser, deleteUser, requireUser, setGrant, userListing } from '../backend/users';
import { expectBody, expectBoolean, expectObject, expectString, expectUserRef } from '../validate';
import { checkEmailAddress } from '../../protocol/names';

/** Control-panel users (api-notes "Control-panel users", "link / unlink user") and package types. */
export function addUserRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/reseller/:reseller/susers', (ctx) => bare(userListing(ctx.account)));
  router.add('GET', '/reseller/:reseller/packageTypes', (ctx) => bare(ctx.account.packageTypes.map((t) => ({ ...t }))));
  router.add('POST', '/reseller/:reseller/susers', postSusers);
}

/** One endpoint, three operations, told apart by the body's single member. */
function postSusers(ctx: ApiContext) {
  const body = expectBody(ctx.body);
  const ops = ['grant_map', 'newUser', 'users'].filter((k) => body[k] !== undefined);
  if (ops.length !== 1) throw validationError('request body must have exactly one of grant_map, newUser, users');
  if (ops[0] === 'grant_map') return wrapped({ updated: changeGrants(ctx, expectObject(body.grant_map, 'grant_map')) });
  if (ops[0] === 'newUser') return newUser(ctx, expectObject(body.newUser, 'newUser'));
  return wrapped({ updated: deleteUsers(ctx, expectObject(body.users, 'users')) });
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
  const email = expectString(input.email, 'newUser.email');
  const problem = checkEmailAddress(email);
  if (problem) throw validationError(`newUser.email: ${problem}`);
  const personName = input.person_name === undefined || input.person_name === null
    ? ''
    : expectString(input.person_name, 'newUser.person_name', { max: 255 });
  const user = createUser(ctx.state, ctx.account, email.trim(), personName, ctx.nowMs);
  return wrapped({ ref: `stack-user:${user.id}`, updated: 1 });
}

/** `{"stack-user:N": {"delete": true}}`: the user goes, with its grants. */
function deleteUsers(ctx: ApiContext, users: Record<string, unknown>): number {
  let updated = 0;
  for (const [ref, change] of Object.entries(users)) {
    const id = expectUserRef(ref, `users key "${ref}"`);
    const del = expectObject(change, `users.${ref}`).delete;
    if (!expectBoolean(del, `users.${ref}.delete`, ctx.form)) throw validationError(`users.${ref}.delete must be true`);
    deleteUser(ctx.account, id);
    updated++;
  }
  return updated;
}
