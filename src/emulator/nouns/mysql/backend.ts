import type { Account, Package, State } from '../../backend/model';
import { packageTypeLimits } from '../packages/model';
import { databaseLimitError, duplicateDatabaseError, newDatabaseDefaults, storedDatabaseName } from './assumed';
import type { MysqlDatabase } from './model';
import { sha256Hex } from '../../util';

/** MySQL databases of a package (api-notes "MySQL databases"): each with a user of the same name. */

/** A database as `GET /package/{id}/web/mysqlDatabases` lists it (never its password). */
export function databaseView(db: MysqlDatabase): Record<string, unknown> {
  return {
    id: db.id,
    externalHostname: db.externalHostname,
    name: db.name,
    host: db.host,
    quotaMb: db.quotaMb,
    quotaUsed: db.quotaUsed,
    server: db.server,
    type: 'mysql',
  };
}

/** The package type's `mysqlDatabases` limit, or undefined when unlimited. */
function databaseLimit(pkg: Package): number | undefined {
  const limit = packageTypeLimits(pkg.typeId).mysqlDatabases;
  return typeof limit === 'number' ? limit : undefined;
}

/** Creates a database and its user; the answer names neither (api-notes: `{"result": []}`). */
export function createDatabase(state: State, account: Account, pkg: Package, requested: string, password: string, allowRandom: boolean): MysqlDatabase {
  const limit = databaseLimit(pkg);
  if (limit !== undefined && pkg.mysqlDatabases.length >= limit) throw databaseLimitError(pkg, limit);
  const taken = (name: string) => account.packages.some((p) => p.mysqlDatabases.some((d) => d.name === name));
  const name = storedDatabaseName(account, requested, allowRandom, taken);
  if (taken(name)) throw duplicateDatabaseError(name);
  const db: MysqlDatabase = { id: state.counters.mysqlDatabaseId++, name, ...newDatabaseDefaults(), passwordSha256: sha256Hex(password) };
  pkg.mysqlDatabases.push(db);
  return db;
}

/** Deletes a database, its user and its data. */
export function deleteDatabase(pkg: Package, db: MysqlDatabase): void {
  pkg.mysqlDatabases = pkg.mysqlDatabases.filter((d) => d !== db && d.id !== db.id);
}

export function setUserPassword(db: MysqlDatabase, password: string): void {
  db.passwordSha256 = sha256Hex(password);
}
