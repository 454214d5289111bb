import type { ApiContext } from '../../context';
import { bare, Router, wrapped } from '../../router';
import { validationError } from '../../assumed';
import { expectBody, expectId } from '../../validate';
import { requirePackage } from '../packages/backend';
import { checkDatabaseName, checkDatabasePassword, databaseOfUserId, ftpCredentialsOf, requireDatabase } from './assumed';
import { createDatabase, databaseView, deleteDatabase, setUserPassword } from './backend';

/**
 * MySQL databases and FTP credentials of a package (api-notes "MySQL databases", "FTP
 * credentials"), under `/package/{id}/web/…`: list, create (the answer holds no id),
 * delete, a user's password, and the package's primary FTP user.
 */
export function addMysqlRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/web/mysqlDatabases', (ctx) => bare(requirePackage(ctx.account, ctx.params.pkg).mysqlDatabases.map(databaseView)));

  router.add('POST', '/package/:pkg/web/mysqlDatabases', (ctx) => {
    const body = expectBody(ctx.body);
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    const name = checked(body.name, 'name', checkDatabaseName);
    const password = checked(body.password, 'password', checkDatabasePassword);
    const allowRandom = body.allow_random === true || body.allow_random === 'true' || body.allow_random === 1;
    createDatabase(ctx.state, ctx.account, pkg, name, password, allowRandom);
    return wrapped([]);
  });

  router.add('POST', '/package/:pkg/web/removeMysqlDatabase', (ctx) => {
    const body = expectBody(ctx.body);
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    deleteDatabase(pkg, requireDatabase(pkg, expectId(body.id, 'id')));
    return wrapped(true);
  });

  router.add('POST', '/package/:pkg/web/mysqlUserPassword', (ctx) => {
    const body = expectBody(ctx.body);
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    const db = databaseOfUserId(pkg, expectId(body.user_id, 'user_id'));
    setUserPassword(db, checked(body.password, 'password', checkDatabasePassword));
    return wrapped(true);
  });

  router.add('GET', '/package/:pkg/web/ftpCredentials', (ctx) => bare([ftpCredentialsOf(requirePackage(ctx.account, ctx.params.pkg))]));
}

/** The value when `check` finds nothing wrong, else a 400 naming the field (never echoing a password). */
function checked(value: unknown, field: string, check: (v: unknown) => string | undefined): string {
  const problem = check(value);
  if (problem) throw validationError(`${field} ${problem}`);
  return value as string;
}
