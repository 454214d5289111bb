import { arrayOf, Check, fields, hex64, int, str } from '../../shape';

/**
 * MySQL databases: their part of the state (a package's `mysqlDatabases`, the
 * `mysqlDatabaseId` counter), the checks and their part of the state dump. Each
 * database comes with a MySQL user of the same name (api-notes "MySQL databases"),
 * whose password is kept as a sha256 hash only. FTP credentials hold no state: see
 * assumed.ts (`ftpCredentialsOf`).
 */

declare module '../../backend/model' {
  interface Package {
    /** The package's MySQL databases, oldest first. */
    mysqlDatabases: MysqlDatabase[];
  }
  interface Counters {
    /** Next database id (also its user's id: see assumed.ts). */
    mysqlDatabaseId: number;
  }
}

declare module '../../snapshot' {
  interface PackageDump {
    /** The package's MySQL databases, oldest first (never a password: its hash only). */
    mysqlDatabases: MysqlDatabaseDump[];
  }
}

export interface MysqlDatabase {
  id: number;
  /** The name the service stored (see assumed.ts `storedDatabaseName`); its user has the same name. */
  name: string;
  /** The host a site on the package connects to. */
  host: string;
  /** The host to connect to from outside the platform. */
  externalHostname: string;
  /** The database server's name. */
  server: string;
  quotaMb: number;
  quotaUsed: number;
  /** sha256 hex of the user's password; the password itself is never kept. */
  passwordSha256: string;
}

export type MysqlDatabaseDump = MysqlDatabase;

export const FIRST_MYSQL_DATABASE_ID = 410_001;

const database: Check = (v) => fields(v, {
  id: int, name: str, host: str, externalHostname: str, server: str, quotaMb: int, quotaUsed: int, passwordSha256: hex64,
});

export const packageChecks: Record<string, Check> = { mysqlDatabases: arrayOf(database) };
