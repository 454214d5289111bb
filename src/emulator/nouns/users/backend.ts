import { Account, State } from '../../backend/model';
import { User } from './model';
import { contactForNewUser, NewUserContact, susersFtpLockMember, susersServiceByTupleMember, susersUsersMember } from './assumed';
import { conflictingObjectError } from '../../assumed';
import { notFound } from '../../errors';
import { canonicalEmail } from '../../../protocol/names';
import { isoWithOffset } from '../../util';

/** Control-panel users and their grants (spec 2.2, 2.3; api-notes "Control-panel users"). */

export function userRef(user: User): string {
  return `stack-user:${user.id}`;
}

export function findUser(account: Account, id: number): User | undefined {
  return account.users.find((u) => u.id === id);
}

export function requireUser(account: Account, id: number): User {
  const user = findUser(account, id);
  if (!user) throw notFound(`user stack-user:${id} not found`);
  return user;
}

/** `stack-user:<n>` identifiers of the users granted a package, ascending. */
export function stackUsersOf(account: Account, packageId: number): string[] {
  return account.users.filter((u) => u.packageGrants.includes(packageId)).map(userRef);
}

/** GET /reseller/{id}/susers. Grant values are the number 1 (spec 2.3). */
export function userListing(account: Account): Record<string, unknown> {
  const contact: Record<string, unknown> = {};
  const grantMap: Record<string, Record<string, 1>> = {};
  for (const user of account.users) {
    contact[userRef(user)] = { ...user.contact };
    const grants: Record<string, 1> = {};
    for (const id of user.packageGrants) grants[`package:${id}`] = 1;
    grantMap[userRef(user)] = grants;
  }
  return {
    contact,
    grant_map: grantMap,
    users: susersUsersMember(account),
    service_by_tuple: susersServiceByTupleMember(account),
    ftpLock: susersFtpLockMember(account),
  };
}

/** Grants (on = true) or revokes a package; both are idempotent. */
export function setGrant(user: User, packageId: number, on: boolean): void {
  const has = user.packageGrants.includes(packageId);
  if (on && !has) user.packageGrants = [...user.packageGrants, packageId].sort((a, b) => a - b);
  if (!on && has) user.packageGrants = user.packageGrants.filter((id) => id !== packageId);
}

/** Removes every grant of a package (it is being deleted). */
export function dropGrantsOf(account: Account, packageId: number): void {
  for (const user of account.users) setGrant(user, packageId, false);
}

function assertEmailFree(account: Account, email: string, except: User | null): void {
  if (account.users.some((u) => u !== except && u.contact.email.toLowerCase() === email.toLowerCase())) {
    throw conflictingObjectError(`a user with e-mail ${email} already exists`);
  }
}

/** POST susers {newUser}: e-mails are unique in the account, case-insensitively. */
export function createUser(state: State, account: Account, email: string, contact: NewUserContact, nowMs: number): User {
  const canon = canonicalEmail(email);
  assertEmailFree(account, canon, null);
  const user: User = { id: state.counters.userId++, contact: contactForNewUser(canon, contact, isoWithOffset(nowMs)), packageGrants: [] };
  account.users.push(user);
  return user;
}

/** POST susers {contact: {ref: {…}}}: the given fields change, the others stay. */
export function updateContact(account: Account, user: User, email: string | undefined, given: NewUserContact): void {
  const c = user.contact;
  if (email !== undefined) {
    const canon = canonicalEmail(email);
    assertEmailFree(account, canon, user);
    c.email = canon;
  }
  const fields = ['company_name', 'company_number', 'trading_name', 'address', 'city', 'sp', 'pc', 'voice', 'notes', 'nominet_contact_type'] as const;
  for (const field of fields) if (given[field] !== undefined) c[field] = given[field]!;
  if (given.billing_ref !== undefined) c.ext_billing_ref = given.billing_ref;
  if (given.country) Object.assign(c, { cc: given.country.alpha3, ccAlpha2: given.country.alpha2, ccAlpha3: given.country.alpha3 });
  if (given.person_name !== undefined) {
    const [firstName, ...rest] = given.person_name.trim().split(/\s+/);
    Object.assign(c, { person_name: given.person_name, firstName: firstName ?? '', lastName: rest.join(' ') });
  }
}

/** POST susers {users: {ref: {delete: true}}}: the user and its grants go. */
export function deleteUser(account: Account, id: number): void {
  requireUser(account, id);
  account.users = account.users.filter((u) => u.id !== id);
}
