import { Construct } from 'constructs';
import type { MysqlDatabaseSpec } from '../protocol';
import type { IHostingPackage } from './hosting-package';
import { IResolvable, TerraformStack } from './private/cdk';
import { ResellerDataSource } from './private/data-source';
import { ResellerEphemeralResource } from './private/ephemeral';
import { canonDomain, literal } from './private/names';
import { declaredSecret } from './private/secret';
import { checkBoolean } from './private/validation';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/** A MySQL database of a hosting package, with the MySQL user of the same name the API creates with it. */
export interface MysqlDatabaseProps extends ManagedObjectProps {
  /** The package the database belongs to (managed, or `HostingPackage.fromDomainName`). */
  readonly package: IHostingPackage;
  /**
   * Name of the database and of its MySQL user: 1-32 lowercase letters, digits or `_`,
   * starting with a letter. With the package, its natural key: a new name replaces the
   * database, and the old one's data is deleted (unless `keepOnDestroy`).
   */
  readonly name: string;
  /**
   * The password of the database's user, usually the value of a sensitive and ephemeral
   * `TerraformVariable`. With the provider it is the write-only attribute `password_wo`
   * (never in state or plan); with the carriers it reaches the handler only through the
   * provisioner environment. A literal string gets a synth warning. Needed to create the
   * database; an existing one is adopted with its password unless one is declared. Set
   * it again by bumping `passwordVersion`.
   * @default - none (see passwordEnv)
   */
  readonly password?: string;
  /**
   * Name of an environment variable that holds the password when `terraform apply`
   * runs (instead of `password`). Carriers only: the provider takes `password`.
   * @default - none
   */
  readonly passwordEnv?: string;
  /**
   * Version of the password: bumping it sets the password again (rotation). Only the
   * version is in the plan, never the password.
   * @default 1
   */
  readonly passwordVersion?: number;
  /**
   * Destroying the database's resource (removing the construct, a replacement, `absent`)
   * only forgets it: it stays in the account with its data and user, unmanaged (and still
   * counts against the package type's limit). Deploy it before the destroy: it is read
   * from what was last applied. The default deletes, as every other object of this
   * library: removing a construct deletes what it declares, the plan and review say so,
   * and a forgotten database would keep a live MySQL user and a slot of the package's
   * limit that no stack knows of. `protect: true` refuses the destroy altogether.
   * @default false
   */
  readonly keepOnDestroy?: boolean;
}

/**
 * A managed MySQL database of a package: created with its user, found by
 * package and name. Nothing of it changes in place; deleting or replacing it deletes its
 * data (the provider's plan warns, review says DESTRUCTIVE), unless `keepOnDestroy`.
 *
 * ```ts
 * const dbPassword = new TerraformVariable(stack, 'db_password', { type: 'string', sensitive: true });
 * dbPassword.addOverride('ephemeral', true);
 * const shop = new MysqlDatabase(stack, 'shop_db', { package: site, name: 'shop', password: dbPassword.value, passwordVersion: 1 });
 * ```
 */
export class MysqlDatabase extends ManagedObject {
  /** The requested name (as given when a token). */
  public readonly name: string;
  /** Primary domain of the package. */
  public readonly packageDomain: string;

  constructor(scope: Construct, id: string, props: MysqlDatabaseProps) {
    super(scope, id, props);
    const pkg = props.package;
    this.name = props.name;
    this.packageDomain = canonDomain(pkg?.domainName);
    const secret = declaredSecret(this, 'mysql-database', props);
    const spec: MysqlDatabaseSpec = {
      kind: 'mysql-database',
      path: this.node.path,
      packageDomain: this.packageDomain,
      name: props.name,
      ...secret.specFields,
      ...(props.keepOnDestroy !== undefined ? { keepOnDestroy: props.keepOnDestroy } : {}),
    };
    const name = literal(props.name, (n) => n);
    const domain = literal(this.packageDomain, (d) => d);
    this.manage({
      spec,
      parent: { field: 'package', what: 'package', referBy: 'HostingPackage.fromDomainName', construct: pkg, objectId: pkg?.objectId, isAbsent: pkg?.isAbsent ?? false },
      secret: secret.request,
      // A database's name is also its MySQL user's: unique in the account, whatever the package.
      claims: () => (name && domain ? [{
        key: `mysql-database:${name}`,
        field: 'name',
        conflict: (first) => `"${name}" is already declared by MySQL database ${first} (database names are unique in the account, across packages)`,
      }] : []),
    }, (p) => {
      if (!pkg || typeof pkg !== 'object' || !('domainName' in pkg)) {
        p.field('package', 'must be a HostingPackage or HostingPackage.fromDomainName(...)');
        return;
      }
      p.definition(spec, ['packageDomain', 'name', 'passwordVersion']);
      secret.validate(p);
      p.check('keepOnDestroy', props.keepOnDestroy, checkBoolean);
    });
  }

  /**
   * The name the service stored the database under (what a site connects to; its user's
   * name too). With the provider engine, the resource's `stored_name`, known once the
   * database exists: an `EphemeralResellerMysqlConnection` given it is opened after the
   * database is created. With the carriers, the declared name.
   */
  public get storedName(): string {
    const type = (this.objectResource as unknown as { terraformResourceType?: string }).terraformResourceType;
    return type === 'reseller_mysql_database' ? `\${reseller_mysql_database.${this.logicalId}.stored_name}` : this.name;
  }
}

/** Props of {@link DataResellerMysqlDatabase}. */
export interface DataResellerMysqlDatabaseProps {
  /** The package: its primary domain, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
  /** The database's name. */
  readonly name: string;
}

/** `data "reseller_mysql_database"`: a MySQL database the stack does not manage (a missing one fails the plan). */
export class DataResellerMysqlDatabase extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerMysqlDatabaseProps) {
    super(scope, id, 'reseller_mysql_database', { package: packageArg(props.package), name: props.name });
  }

  /** Id of the database in the API. */
  public get databaseId(): string {
    return this.getStringAttribute('database_id');
  }

  /** The name the service stored it under (its user's name too). */
  public get storedName(): string {
    return this.getStringAttribute('stored_name');
  }

  /** Host name a site on the package connects to (null when the API does not say). */
  public get host(): string {
    return this.getStringAttribute('host');
  }

  /** Host name to connect to from outside the platform (null when the API does not say). */
  public get externalHost(): string {
    return this.getStringAttribute('external_host');
  }
}

/** Props of {@link DataResellerMysqlDatabases}. */
export interface DataResellerMysqlDatabasesProps {
  /**
   * Only the databases of this package (its primary domain, or a package construct): one
   * read of that package's databases.
   * @default - every package's databases (one read per package)
   */
  readonly package?: string | IHostingPackage;
}

/** `data "reseller_mysql_databases"`: MySQL databases of one package, or of the account. */
export class DataResellerMysqlDatabases extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerMysqlDatabasesProps = {}) {
    super(scope, id, 'reseller_mysql_databases', { package: props.package === undefined ? undefined : packageArg(props.package) });
  }

  /** Their natural keys (`package/name`), sorted. */
  public get ids(): string[] {
    return this.getListAttribute('ids');
  }

  /** The databases: `package`, `name`, `database_id`, `stored_name`, `host`, `external_host`. */
  public get mysqlDatabases(): IResolvable {
    return this.interpolationForAttribute('mysql_databases');
  }
}

const packageArg = (pkg: string | IHostingPackage): string => (typeof pkg === 'string' ? pkg : pkg.domainName);

/** Props of {@link EphemeralResellerFtpCredentials}. */
export interface EphemeralResellerFtpCredentialsProps {
  /**
   * The package: a domain name of it, or its id. For a package this stack creates, give
   * its id (known once created: with the provider engine, `${reseller_package.<name>.package_id}`),
   * so that Terraform reads the credentials after the package exists.
   */
  readonly package: string;
  /** Resources to read after (Terraform `depends_on`). @default - none */
  readonly dependsOn?: readonly { readonly fqn: string }[];
}

/**
 * `ephemeral "reseller_ftp_credentials"` (Terraform >= 1.10): a package's primary FTP user
 * and password, read at plan and apply time and never stored in state or plan. Use its
 * values where Terraform accepts ephemeral ones: a provisioner's `environment`, a
 * write-only attribute, another provider's configuration.
 */
export class EphemeralResellerFtpCredentials extends ResellerEphemeralResource {
  constructor(scope: Construct, id: string, props: EphemeralResellerFtpCredentialsProps) {
    super(scope, id, 'reseller_ftp_credentials', { package: props.package }, props.dependsOn);
  }

  /** The FTP user name. */
  public get username(): string {
    return this.expression('username');
  }

  /** The FTP password (sensitive, ephemeral). */
  public get password(): string {
    return this.expression('password');
  }
}

/** Props of {@link EphemeralResellerMysqlConnection}. */
export interface EphemeralResellerMysqlConnectionProps {
  /** The database: a `MysqlDatabase` of this stack (read once it exists), or a package and name. */
  readonly database: MysqlDatabase | { readonly package: string; readonly name: string };
  /**
   * The password of the database's user (the value of the same ephemeral variable its
   * `password` takes): handed on in `password` and `url`, never sent to the API.
   * @default - none: `password` is null
   */
  readonly password?: string;
}

/**
 * `ephemeral "reseller_mysql_connection"` (Terraform >= 1.10): what a site needs to
 * connect to a MySQL database (host, database, user, and the password it is given),
 * never stored in state or plan: for a deploy step's environment or another provider.
 */
export class EphemeralResellerMysqlConnection extends ResellerEphemeralResource {
  constructor(scope: Construct, id: string, props: EphemeralResellerMysqlConnectionProps) {
    const db = props.database;
    const managed = db instanceof MysqlDatabase;
    const args = managed ? { package: db.packageDomain, name: db.storedName } : { package: db.package, name: db.name };
    // With the carriers the declared name is known at plan: read only after the database's settings resource ran.
    const after = managed && TerraformStack.of(db) === TerraformStack.of(scope) && args.name === db.name ? [db.settingsResource as unknown as { fqn: string }] : undefined;
    super(scope, id, 'reseller_mysql_connection', { ...args, password: props.password }, after);
  }

  /** Host name a site on the package connects to. */
  public get host(): string {
    return this.expression('host');
  }

  /** The database's name as stored. */
  public get database(): string {
    return this.expression('database');
  }

  /** The database's MySQL user. */
  public get user(): string {
    return this.expression('user');
  }

  /** The password given (sensitive, ephemeral). */
  public get password(): string {
    return this.expression('password');
  }

  /** `mysql://user:password@host:3306/database` (sensitive, ephemeral). */
  public get url(): string {
    return this.expression('url');
  }
}
