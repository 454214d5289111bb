import type { ApiNoun } from '../registry';
import { FIRST_MYSQL_DATABASE_ID, packageChecks } from './model';
import { databaseCount, mysqlSection } from './page';
import { addMysqlRoutes } from './routes';

/**
 * MySQL databases and FTP credentials (api-notes "MySQL databases", "FTP credentials"):
 * what a site's deploy needs from its package, under `/package/{id}/web/…`. A database
 * comes with a user of the same name; deleting the package deletes its databases.
 * Databases joined the state in version 4 (`since`): an older data file gets an empty
 * list on each package.
 */
export const mysql = {
  name: 'mysql',
  since: 4,
  counters: { mysqlDatabaseId: FIRST_MYSQL_DATABASE_ID },
  package: {
    check: packageChecks,
    fresh: () => ({ mysqlDatabases: [] }),
    dump: (pkg) => ({ mysqlDatabases: pkg.mysqlDatabases.map((d) => ({ ...d })) }),
  },
  routes: addMysqlRoutes,
  page: {
    figures: [{ label: 'MySQL databases', value: databaseCount }],
    section: mysqlSection,
  },
} satisfies ApiNoun;
