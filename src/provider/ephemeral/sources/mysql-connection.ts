import { findDatabase, packageDomainOf, packageDomains, readMysqlDatabases } from '../../../reconcile';
import { computed, optional, required, stringArg } from '../../data-sources/data-source';
import { EphemeralResource, sensitive } from '../ephemeral-resource';

/**
 * `ephemeral "reseller_mysql_connection"`: what a site needs to connect to one of its
 * package's MySQL databases (host, database, user, and the password it is given), in one
 * value that reaches another provider's configuration, a provisioner's environment or a
 * write-only attribute without ever being stored. The API never gives a password back:
 * the one passed in (an ephemeral variable, the same the database's `password_wo` takes)
 * is handed on as it is.
 */
export const mysqlConnection: EphemeralResource = {
  typeName: 'reseller_mysql_connection',
  description:
    'The connection details of a MySQL database of a hosting package (host, database, user) with the password given to it, read when Terraform opens it ' +
    '(at plan and apply time) and never stored in state or plan (Terraform >= 1.10). The API never gives a password back: `password` is handed on as it is given. ' +
    'Give `name` as `reseller_mysql_database.<name>.stored_name` (known once the database exists), so that Terraform opens this after the database is created.',
  attributes: [
    required('package', 'string', 'The package: one of its domain names, or its id.'),
    required('name', 'string', 'The database: the name it was requested with, or its `stored_name`.'),
    sensitive(optional('password', 'string', 'The password of the database\'s user (an ephemeral variable): handed on in `password` and `url`, never sent to the API.')),
    computed('package_domain', 'string', 'Primary domain of the package.'),
    computed('database', 'string', 'The database\'s name as stored (what to connect to).'),
    computed('user', 'string', 'The database\'s MySQL user (the same name).'),
    computed('host', 'string', 'Host name a site on the package connects to (null when the API does not say).'),
    computed('external_host', 'string', 'Host name to connect to from outside the platform (null when the API does not say).'),
    computed('port', 'number', 'The MySQL port: 3306.'),
    sensitive(computed('url', 'string', '`mysql://user:password@host:3306/database` (the password left out when none is given; null without a host), for a `DATABASE_URL`.')),
  ],
  async open(args, ctx) {
    const ref = stringArg(args, 'package') ?? '';
    const name = stringArg(args, 'name') ?? '';
    const packageDomain = await packageDomainOf(ctx(), ref);
    const entries = packageDomain ? await readMysqlDatabases(ctx(), packageDomain) : undefined;
    if (!packageDomain || !entries) return { notFound: { attribute: 'package', value: ref, what: 'package', existing: await packageDomains(ctx()) } };
    const entry = entries.find((e) => e.name === name) ?? findDatabase(entries, name);
    if (!entry) return { notFound: { attribute: 'name', value: name, what: `MySQL database of package ${packageDomain}`, existing: entries.map((e) => e.name) } };
    const password = stringArg(args, 'password');
    const host = entry.host ?? null;
    const credentials = `${encodeURIComponent(entry.name)}${password !== undefined ? `:${encodeURIComponent(password)}` : ''}`;
    return {
      values: {
        package_domain: packageDomain, database: entry.name, user: entry.name, host, external_host: entry.externalHostname ?? null, port: 3306,
        url: host ? `mysql://${credentials}@${host}:3306/${encodeURIComponent(entry.name)}` : null,
      },
    };
  },
};
