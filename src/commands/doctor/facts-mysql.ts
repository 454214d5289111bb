import {
  assumedFact, badFields, documentedFields, DoctorArea, held, idOf, isId, isObject, isString, listOf, notHeld, notReadOnly, segment, unknowable,
} from './fact';
import { mergedShapeOf, shapeOf } from './shapes';

/**
 * MySQL databases and FTP credentials (api-notes "MySQL databases", "FTP credentials"):
 * GET /package/{id}/web/mysqlDatabases of the packages in order until one lists a
 * database (at most MAX_PACKAGES), and GET /package/{id}/web/ftpCredentials of the
 * first package. The FTP answer holds a password: only its fields' types are looked at,
 * and nothing of it reaches the report.
 */
interface MysqlSample {
  readonly hasPackage: boolean;
  /** Every database entry read. */
  readonly databases: unknown[];
  /** The FTP credentials answer of the first package (2xx body), undefined when none arrived. */
  readonly ftp?: unknown;
}

const MAX_PACKAGES = 5;
/** A stored name with what the service adds when asked to (`allow_random`): `<prefix>_<name>-<digits>`. */
const ADDED_TO = /^[a-z0-9]+_.+-[0-9]+$/i;

export const MYSQL: DoctorArea<MysqlSample> = {
  async read(api) {
    const ids = listOf(api.packageList).map(idOf).filter((id): id is string => id !== undefined);
    if (ids.length === 0) return { hasPackage: false, databases: [] };
    const databases: unknown[] = [];
    for (const id of ids.slice(0, MAX_PACKAGES)) {
      databases.push(...listOf(await api.body(`/package/${segment(id)}/web/mysqlDatabases`)));
      if (databases.length) break;
    }
    const ftp = await api.body(`/package/${segment(ids[0])}/web/ftpCredentials`);
    api.found('mysql databases', databases.length, mergedShapeOf(databases));
    api.found('ftp users', listOf(ftp).length, Array.isArray(ftp) && ftp.length ? shapeOf(ftp[0]) : undefined);
    return { hasPackage: true, databases, ftp };
  },

  facts: [
    documentedFields<MysqlSample>('mysql database entry', 'the database list gives each database an id and a name',
      (s) => s.databases, 'MySQL database(s)', { id: isId, name: isString }),

    assumedFact('isStoredNameOf', 'a database is listed under the name that was requested (with allow_random false, the service adds no prefix or suffix)', (sample) => {
      const names = sample.databases.filter(isObject).map((d) => d.name).filter(isString);
      if (names.length === 0) return unknowable(sample.hasPackage ? 'no MySQL database was read' : 'the account has no package');
      const added = names.filter((n) => ADDED_TO.test(n)).length;
      if (added === 0) return held(`${names.length} name(s) read, none with an added prefix and number`);
      if (added === names.length) return notHeld(`all ${names.length} name(s) carry a prefix and a number (<prefix>_<name>-<digits>): the service may add them to every name`);
      return unknowable(`${added} of ${names.length} name(s) carry a prefix and a number (made with allow_random, or added by the service?)`);
    }),

    notReadOnly('mysqlUserIdOf', 'the user created with a database has the database\'s id (what mysqlUserPassword takes as user_id)',
      'only the answer to a password change shows which user an id names'),

    assumedFact('primaryFtpCredentials', 'a package\'s FTP credentials are a non-empty list of {username, password}, the first being its primary user', (sample) => {
      if (!sample.hasPackage) return unknowable('the account has no package');
      if (sample.ftp === undefined) return unknowable('GET /package/{id}/web/ftpCredentials did not answer 2xx');
      if (!Array.isArray(sample.ftp)) return notHeld('the answer is not a list');
      if (sample.ftp.length === 0) return notHeld('the list is empty');
      const bad = badFields(sample.ftp, { username: isString, password: isString });
      return bad.length ? notHeld(`missing or of another type: ${bad.join(', ')}`) : held(`${sample.ftp.length} FTP user(s) listed`);
    }),
  ],
};
