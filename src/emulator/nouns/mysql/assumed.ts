import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, notFound } from '../../errors';
import { conflictingObjectError, validationError } from '../../assumed';
import type { Account, Package } from '../../backend/model';
import type { MysqlDatabase } from './model';

/**
 * The MySQL noun's assumed behaviours (api-notes "MySQL databases", "FTP credentials"):
 * everything no public source shows, behind one function each. When the real API is
 * observed to differ, correct it here only. docs/emulator.md lists them.
 *
 * Both profiles answer the same: every member of these routes' answers is documented;
 * what is assumed is how the service checks, names and refuses.
 */

/** ASSUMED: a requested name is 1-32 lowercase letters, digits or `_`, starting with a letter (a MySQL identifier the service accepts as a user name too). */
export function checkDatabaseName(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  return /^[a-z][a-z0-9_]{0,31}$/.test(name) ? undefined : 'must be 1-32 lowercase letters, digits or "_", starting with a letter';
}

/** ASSUMED: a database user's password is a string of 8 to 128 characters. */
export function checkDatabasePassword(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  return password.length < 8 || password.length > 128 ? 'must be 8 to 128 characters long' : undefined;
}

/**
 * ASSUMED (api-notes: one live note shows `<account prefix>_<name>-<digits>` with
 * `allow_random`): the name stored for a requested one. With `allow_random: false` (what
 * every client sends) the requested name itself; with `true`, the account's prefix
 * before it and a number after it.
 */
export function storedDatabaseName(account: Account, requested: string, allowRandom: boolean, taken: (name: string) => boolean): string {
  if (!allowRandom) return requested;
  for (let n = 1; ; n++) {
    const name = `r${account.id}_${requested}-${n}`;
    if (!taken(name)) return name;
  }
}

/** ASSUMED (api-notes "Conventions": ConflictingObject is 409): a name that another database of the account has already. */
export function duplicateDatabaseError(name: string): ApiError {
  return conflictingObjectError(`a MySQL database named ${name} exists already`);
}

/** ASSUMED (api-notes: "a type without the feature refuses it"; status not shown): the package type's `mysqlDatabases` limit is reached: 400. */
export function databaseLimitError(pkg: Package, limit: number): ApiError {
  return validationError(`package ${pkg.id} has ${limit} MySQL database${limit === 1 ? '' : 's'}, the most its package type allows (mysqlDatabases)`);
}

/** ASSUMED (api-notes: "where user_id comes from is not shown"): the database's user has the database's id. */
export function databaseOfUserId(pkg: Package, userId: number): MysqlDatabase {
  const db = pkg.mysqlDatabases.find((d) => d.id === userId);
  if (!db) throw notFound(`MySQL user ${userId} not found on package ${pkg.id}`);
  return db;
}

/** ASSUMED: removing an id the package does not have is 404 (a client reads the list before it deletes). */
export function requireDatabase(pkg: Package, id: number): MysqlDatabase {
  const db = pkg.mysqlDatabases.find((d) => d.id === id);
  if (!db) throw notFound(`MySQL database ${id} not found on package ${pkg.id}`);
  return db;
}

/** ASSUMED: where a new database lives (one server per emulator) and its quota. */
export function newDatabaseDefaults(): Pick<MysqlDatabase, 'host' | 'externalHostname' | 'server' | 'quotaMb' | 'quotaUsed'> {
  return { host: 'mysql-01.emulator.internal', externalHostname: 'mysql-01.emulator.example', server: 'mysql-01', quotaMb: 1024, quotaUsed: 0 };
}

/** The key the FTP passwords of this process are derived from: never written anywhere. */
const FTP_KEY = randomBytes(32);

/**
 * ASSUMED (api-notes "FTP credentials" shows `[{"username", "password"}]` only): a
 * package has one FTP user, named after its primary domain, and its password is stable
 * while the emulator runs. The emulator keeps no FTP password: it derives it from the
 * package id with a key of the running process, so no data file, state dump or page can
 * hold it (a restart gives every package a new one, as a reset in the control panel would).
 */
export function ftpCredentialsOf(pkg: Package): { username: string; password: string } {
  const password = createHmac('sha256', FTP_KEY).update(`ftp:${pkg.id}`).digest('base64url').slice(0, 20);
  return { username: pkg.names[0], password };
}
