import { mysqlUserIdOf } from './assumptions';
import { nonEmptyString, packageSegment, toId } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { MysqlDatabaseEntry } from './types';

/**
 * MySQL databases of a package (api-notes "MySQL databases"), under
 * `/package/{id or domain}/web/…`: list, create (a database and a user of the same
 * name; the answer holds no id, so list again to find it), delete, and set the user's
 * password. Passwords go into request bodies and nowhere else (never a log line or an
 * error: the request layer blanks them out of the API's error text).
 */
export class Databases extends Resource {
  /** The package's databases, in the order the API lists them. */
  async list(packageRef: string | number): Promise<MysqlDatabaseEntry[]> {
    const operation = 'listMysqlDatabases';
    return this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${webPath(packageRef, operation)}/mysqlDatabases`,
      parse: (data) => shape.arrayOf(data, '', parseDatabaseEntry),
    });
  }

  /**
   * Creates a database and its user, named as requested (`allow_random: false`: the
   * service adds nothing of its own). Resolves when the API accepted it; the answer
   * names nothing, so `list` finds the new database by its name.
   */
  async create(packageRef: string | number, name: string, password: string): Promise<void> {
    const operation = 'createMysqlDatabase';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${webPath(packageRef, operation)}/mysqlDatabases`,
      body: { name: nonEmptyString(name, operation, 'name'), password: secret(password, operation), allow_random: false },
      secrets: [password],
      parse: () => undefined, // `{"result": []}`: nothing to read
    });
  }

  /** Deletes a database by its id: its user and its data go with it. */
  async delete(packageRef: string | number, id: number): Promise<void> {
    const operation = 'deleteMysqlDatabase';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${webPath(packageRef, operation)}/removeMysqlDatabase`,
      body: { id: toId(id, operation, 'database id') },
      parse: () => undefined,
    });
  }

  /** Sets the password of the database's user (its user id: see `mysqlUserIdOf`). */
  async setPassword(packageRef: string | number, database: Pick<MysqlDatabaseEntry, 'id'>, password: string): Promise<void> {
    const operation = 'setMysqlUserPassword';
    await this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${webPath(packageRef, operation)}/mysqlUserPassword`,
      body: { user_id: mysqlUserIdOf(database), password: secret(password, operation) },
      secrets: [password],
      parse: () => undefined,
    });
  }
}

/** `/package/{id or domain}/web`. */
export function webPath(packageRef: string | number, operation: string): string {
  return `/package/${packageSegment(packageRef, operation)}/web`;
}

/** A password argument: a non-empty string (never echoed in the message). */
function secret(password: unknown, operation: string): string {
  if (typeof password !== 'string' || password === '') throw new TypeError(`${operation}: password must be a non-empty string`);
  return password;
}

/** One entry of the list: `id` and `name` are required, the rest is read when present. */
export function parseDatabaseEntry(value: unknown, where: string): MysqlDatabaseEntry {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  const out: MysqlDatabaseEntry = { id: shape.id(entry.id, f('id')), name: shape.string(entry.name, f('name')) };
  const text = (key: 'host' | 'externalHostname' | 'server') => {
    const v = entry[key];
    if (v !== undefined && v !== null && v !== '') out[key] = shape.string(v, f(key));
  };
  text('host');
  text('externalHostname');
  text('server');
  if (entry.quotaMb !== undefined && entry.quotaMb !== null) out.quotaMb = shape.number(entry.quotaMb, f('quotaMb'));
  if (entry.quotaUsed !== undefined && entry.quotaUsed !== null) out.quotaUsed = shape.number(entry.quotaUsed, f('quotaUsed'));
  return out;
}
