import { canonicalJson } from '../canonical-json';
import { canonicalDomain, checkDomainName } from '../names';
import { checkBool, checkPositiveInt, describeValue } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList, SecretFacet } from './definition';
import { secretFields } from './secret-fields';
import type { Identity } from './identity';

/**
 * A MySQL database of a hosting package, with the MySQL user of the same name that the
 * API creates with it (api-notes "MySQL databases"), found by package + name. Its
 * password is write-only (the secret facet); nothing about it can change in place, and
 * deleting it (or replacing it: a new name) deletes its data, unless `keepOnDestroy`.
 */
export type MysqlDatabaseSpec = {
  readonly kind: 'mysql-database';
  readonly path: string;
  /** Primary domain of the package the database belongs to. */
  readonly packageDomain: string;
  /** The requested name of the database and of its user. */
  readonly name: string;
  /** Bumping it sets the password again (rotation). */
  readonly passwordVersion?: number;
  /** Name of an environment variable that holds the password, when not given as a value (carriers). */
  readonly passwordEnv?: string;
  /** Deleting the resource forgets the database instead: it stays in the account with its data. */
  readonly keepOnDestroy?: boolean;
};

/** A requested name: what the check accepts, and the emulator's (assumed) rule too. */
const NAME = /^[a-z][a-z0-9_]{0,31}$/;

export function checkDatabaseName(name: unknown): string | undefined {
  if (typeof name !== 'string' || !NAME.test(name)) {
    return `must be 1-32 lowercase letters, digits or "_", starting with a letter (it also names the database's MySQL user), not ${describeValue(name)}`;
  }
  return undefined;
}

/** The password of the database's user: the carriers pass it in RESELLER_MYSQL_PASSWORD. */
const MYSQL_SECRET = {
  field: 'password', versionField: 'passwordVersion', envField: 'passwordEnv', environment: 'RESELLER_MYSQL_PASSWORD',
  words: 'password', requiredToCreate: true,
} as const satisfies SecretFacet;

export const MYSQL_DATABASE_FIELDS: readonly FieldDefinition[] = [
  { name: 'packageDomain', attribute: 'package', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'package',
    description: 'Primary domain of the hosting package the database belongs to; changing it replaces the database (its data is deleted).' },
  { name: 'name', attribute: 'name', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: 'Name of the database and of its MySQL user: 1-32 lowercase letters, digits or `_`, starting with a letter; changing it replaces the database (its data is deleted).' },
  ...secretFields(MYSQL_SECRET, { value: 'The password of the database\'s user', creates: 'the database' }),
  { name: 'keepOnDestroy', attribute: 'keep_on_destroy', type: 'bool', role: 'setting', presence: 'default', defaultValue: false, readable: false,
    words: 'keep on destroy',
    description: 'When true, destroying the resource (or replacing it) only forgets the database: it stays in the account with its data and user, and still counts against the package type\'s limit. Applied before the destroy: set it, apply, then remove the resource.' },
  { name: 'databaseId', attribute: 'database_id', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'name'],
    description: 'Id of the database in the API.' },
  { name: 'storedName', attribute: 'stored_name', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'name'],
    description: 'The name the service stored the database under (what a site connects to), which is also its user\'s name.' },
  { name: 'host', attribute: 'host', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'name'],
    description: 'Host name a site on the package connects to (null when the API does not say).' },
  { name: 'externalHost', attribute: 'external_host', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'name'],
    description: 'Host name to connect to from outside the platform (null when the API does not say).' },
];

export function checkMysqlDatabase(raw: MysqlDatabaseSpec, path: string = raw.path): Checked<MysqlDatabaseSpec> {
  const p = new ProblemList(path);
  p.add('packageDomain', checkDomainName(raw.packageDomain));
  p.add('name', checkDatabaseName(raw.name));
  if (raw.passwordVersion !== undefined) p.add('passwordVersion', checkPositiveInt(raw.passwordVersion));
  p.add('keepOnDestroy', checkBool(raw.keepOnDestroy ?? undefined));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const spec: MysqlDatabaseSpec = { ...raw, packageDomain: canonicalDomain(raw.packageDomain), keepOnDestroy: raw.keepOnDestroy ?? false };
  return { spec, problems: [] };
}

function identityOf(spec: Pick<MysqlDatabaseSpec, 'packageDomain' | 'name'>, parent = ''): Identity {
  return { kind: 'mysql-database', key: `${spec.packageDomain}/${spec.name}`, placement: spec.packageDomain, parent };
}

/** `package/name` (example.com/shop). */
function parseImportId(text: string): Identity | string {
  const slash = text.lastIndexOf('/');
  const help = `import id "${text}" must be package/name (example.com/shop)`;
  if (slash <= 0) return help;
  const packageDomain = text.slice(0, slash);
  const name = text.slice(slash + 1);
  const problem = checkDomainName(packageDomain) ?? checkDatabaseName(name);
  if (problem) return `${help}: ${checkDomainName(packageDomain) ? 'package' : 'name'} ${problem}`;
  return identityOf({ packageDomain: canonicalDomain(packageDomain), name });
}

export const mysqlDatabaseDefinition = {
  kind: 'mysql-database',
  label: 'MySQL database',
  shortLabel: 'database',
  description: 'A MySQL database of a hosting package, with the MySQL user of the same name the API creates with it, found by package and name. Its password is write-only. Nothing of it changes in place: a new name or package replaces it, and deleting or replacing it deletes its data (unless `keep_on_destroy`).',
  order: 8,
  resourceType: 'reseller_mysql_database',
  keyName: 'database',
  importIdHelp: 'the package and the name, package/name',
  fields: MYSQL_DATABASE_FIELDS,
  check: checkMysqlDatabase,
  identity: (spec: MysqlDatabaseSpec, parent = ''): Identity => identityOf(spec, parent),
  jsonSettings: ['keepOnDestroy'],
  settings: (spec: MysqlDatabaseSpec): Record<string, string> => ({ keepOnDestroy: canonicalJson(spec.keepOnDestroy ?? false) }),
  checkIdentity(id: Identity): string[] {
    const parsed = parseImportId(id.key);
    return typeof parsed === 'string' ? [`key ${parsed}`] : [];
  },
  canonicalIdentity(id: Identity): Identity {
    const parsed = parseImportId(id.key);
    return typeof parsed === 'string' ? id : { ...parsed, parent: id.parent };
  },
  parseImportId,
  formatImportId: (id: Identity): string => id.key,
  parent: { field: 'packageDomain', kind: 'package', placesKey: true } as const,
  lifecycle: { deletes: 'its data (every table and row)', keepOnDestroy: 'keepOnDestroy' },
  secret: MYSQL_SECRET,
  dataSources: { plural: 'reseller_mysql_databases' },
  // A customer's own databases (made in the control panel for their site) are theirs: drift
  // does not call them unmanaged, and a drift pass reads no package's databases unless a
  // stack declares one (one read per package otherwise, every run).
  reportsUnmanaged: false,
  import: {
    construct: 'MysqlDatabase',
    idPrefix: 'mysql',
    // One read per package, and every database found is declared with its data at stake:
    // declared on request (--kinds mysql-database).
    byDefault: false,
    idName: (spec: MysqlDatabaseSpec) => `${spec.packageDomain}_${spec.name}`,
    props: [{ field: 'packageDomain', prop: 'package' }, 'name'],
    header: [
      'MySQL databases are declared without a password: adoption keeps the current one. Add one',
      '(a sensitive, ephemeral TerraformVariable with passwordVersion) only when you want to set it.',
      'Removing a MysqlDatabase deletes its data: set keepOnDestroy: true (and deploy) to only forget it.',
    ],
    notes: (live) => ({ after: `database id ${live.liveId}` }),
  },
} satisfies KindDefinition<'mysql-database', MysqlDatabaseSpec>;
