import type { MysqlDatabaseEntry } from '../client';
import { isDuplicateError, isMissingObject, isStoredNameOf, WriteOutcomeUnknownError } from '../client';
import type { Identity, MysqlDatabaseSpec } from '../protocol';
import type { ReconcileContext } from './context';
import { converge } from './converge';
import { ReconcileError } from './errors';
import type { AccountCheck, KindReconciler } from './kind';
import { Observed, observed } from './observed';
import { listedPackages } from './package';
import { packageIndex } from './package-index';
import { findPackageType } from './refs';
import { secretDue } from './secret';
import type { ListCache } from './list-cache';

/**
 * MySQL databases (api-notes "MySQL databases"). One read of a package's databases
 * (`GET /package/{id}/web/mysqlDatabases`) serves every database declared on it, through
 * the context's list cache. The create answers no id: the database is found by its
 * name (`isStoredNameOf`: the stored name of a requested name) in the list read after
 * it, as every write is confirmed. Nothing of a database changes in place; its user's
 * password is written at its first ensure (adopting it) and when its version changes.
 */

/** The name of a package's databases in the context's lists. */
const databasesList = (packageDomain: string) => `mysql:${packageDomain}`;

function splitKey(key: string): { packageDomain: string; name: string } {
  const slash = key.lastIndexOf('/');
  return { packageDomain: key.slice(0, slash), name: key.slice(slash + 1) };
}

const describe = (packageDomain: string, name: string) => `MySQL database ${name} of package ${packageDomain}`;

async function readIfPresent(ctx: ReconcileContext, packageDomain: string): Promise<MysqlDatabaseEntry[] | undefined> {
  try {
    return await ctx.client.databases.list(packageDomain);
  } catch (err) {
    if (isMissingObject(err)) return undefined;
    throw err;
  }
}

/**
 * The package's databases; `after` > 0 asks for a read started after that tick (to
 * confirm a write). Undefined: no such package. Also what the data sources and the
 * ephemeral connection read (account.ts): one read per package per context.
 */
export function databasesOf(ctx: ReconcileContext, packageDomain: string, after = 0): Promise<MysqlDatabaseEntry[] | undefined> {
  return ctx.lists.get(databasesList(packageDomain), () => readIfPresent(ctx, packageDomain), after);
}

/** The listed database whose stored name is that of the requested `name`. */
export function findDatabase(entries: readonly MysqlDatabaseEntry[] | undefined, name: string): MysqlDatabaseEntry | undefined {
  return entries?.find((e) => isStoredNameOf(e.name, name));
}

function observedDatabase(packageDomain: string, entry: MysqlDatabaseEntry, name = entry.name.toLowerCase(), parent = ''): Observed {
  const computed: Record<string, unknown> = { databaseId: String(entry.id), storedName: entry.name };
  // Tolerant reader: a host the API leaves out is not known (null), never a failure.
  computed.host = entry.host ?? null;
  computed.externalHost = entry.externalHostname ?? null;
  return observed({ kind: 'mysql-database', key: `${packageDomain}/${name}`, placement: packageDomain, parent }, entry.id, { packageDomain, name }, computed);
}

async function observeDatabase(ctx: ReconcileContext, id: Identity): Promise<Observed | undefined> {
  const { packageDomain, name } = splitKey(id.key);
  const entry = findDatabase(await databasesOf(ctx, packageDomain), name);
  return entry && observedDatabase(packageDomain, entry, name, id.parent);
}

/**
 * Every database of every package (one read per package), or of the package whose
 * primary domain is `within` alone (one read; none when no package has it).
 */
async function listDatabases(ctx: ReconcileContext, within?: string): Promise<Observed[]> {
  const primaries = [...new Set((await listedPackages(ctx)).map((p) => p.name.toLowerCase()))];
  const packages = within === undefined ? primaries : primaries.filter((p) => p === within);
  const out: Observed[][] = new Array(packages.length);
  let next = 0;
  const worker = async () => {
    while (next < packages.length) {
      const i = next++;
      out[i] = ((await databasesOf(ctx, packages[i])) ?? []).map((e) => observedDatabase(packages[i], e));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.readsAtOnce, packages.length) }, worker));
  return out.flat();
}

/** A write to a package's databases: with shared lists, reads scheduled meanwhile wait for it (ListCache). */
function writeDatabases(ctx: ReconcileContext, packageDomain: string, write: () => Promise<void>): Promise<void> {
  return ctx.lists.shared ? ctx.lists.writing(databasesList(packageDomain), write) : write();
}

/** The package's databases as the account shows them now, or the error that names the missing package. */
async function freshDatabases(ctx: ReconcileContext, spec: MysqlDatabaseSpec): Promise<MysqlDatabaseEntry[]> {
  const entries = await databasesOf(ctx, spec.packageDomain, ctx.lists.tick());
  if (!entries) {
    throw new ReconcileError(
      `${spec.path}: package ${spec.packageDomain} does not exist in the account (deleted outside Terraform?); run 'reseller-hosting drift --fix'`,
      'packageDomain',
    );
  }
  return entries;
}

async function ensureDatabase(ctx: ReconcileContext, spec: MysqlDatabaseSpec): Promise<Observed | void> {
  const what = describe(spec.packageDomain, spec.name);
  const password = ctx.secret(spec) || undefined;
  const live = findDatabase(await databasesOf(ctx, spec.packageDomain) ?? await freshDatabases(ctx, spec), spec.name);
  if (live) {
    const due = password ? secretDue(ctx, spec) : 'no';
    if (password && due === 'yes') {
      await writePassword(ctx, spec, live, password);
      ctx.info(`${ctx.history?.replaced ? 'set the password of' : 'adopted'} ${what}${ctx.history?.replaced ? '' : '; set its password'} (version ${spec.passwordVersion ?? 1})`);
    } else if (due === 'undeclared-before') {
      ctx.info(`${what}: kept its current password: none was declared for it before; raise passwordVersion to ${(spec.passwordVersion ?? 1) + 1} to set the declared one`);
    } else ctx.info(ctx.history?.replaced ? `${what} is up to date` : `adopted ${what}`);
    return observedDatabase(spec.packageDomain, live, spec.name);
  }
  if (!password) {
    throw new ReconcileError(
      `${spec.path}: ${what} does not exist and no password was given ` +
        `(${spec.passwordEnv ? `environment variable ${spec.passwordEnv} is empty` : 'set password or passwordEnv'}); a database cannot be created without one`,
      'password',
    );
  }
  const problem = await limitProblem(ctx, spec, new Set());
  if (problem) throw new ReconcileError(`${spec.path}: ${problem.field === 'packageDomain' ? 'package' : problem.field} ${problem.rule}`, problem.field);
  let created: MysqlDatabaseEntry | undefined;
  let attempts = 0;
  await converge(ctx, {
    what: `${spec.path}: create ${what}`,
    // A 409 after a write whose outcome was unknown may be that write: read back first.
    conflictMayBeOurs: true,
    log: (l) => ctx.warn(l),
    isDone: async () => {
      const tick = ctx.lists.tick();
      created = findDatabase(await freshDatabases(ctx, spec), spec.name);
      if (created) ctx.confirmed?.set(databasesList(spec.packageDomain), tick);
      return created !== undefined;
    },
    write: async () => {
      attempts++;
      try {
        await writeDatabases(ctx, spec.packageDomain, () => ctx.client.databases.create(spec.packageDomain, spec.name, password));
      } catch (err) {
        // Looked up just before: a first create refused as a duplicate is another's name, not a write of ours.
        if (attempts === 1 && isDuplicateError(err) && !findDatabase(await freshDatabases(ctx, spec), spec.name)) {
          throw new ReconcileError(
            `${spec.path}: the account already has a MySQL database named ${spec.name} (on another package): a database's name is also its ` +
              'MySQL user\'s, and names are unique in the account; choose another name, or declare the database on its package',
            'name',
          );
        }
        throw err;
      }
    },
  });
  ctx.info(`created ${what}`);
  return observedDatabase(spec.packageDomain, created!, spec.name);
}

/** Sets the user's password; the write is idempotent, so an unknown outcome is answered by writing once more. */
async function writePassword(ctx: ReconcileContext, spec: MysqlDatabaseSpec, live: MysqlDatabaseEntry, password: string): Promise<void> {
  ctx.confirmed?.clear();
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.client.databases.setPassword(spec.packageDomain, live, password);
      return;
    } catch (err) {
      if (!(err instanceof WriteOutcomeUnknownError) || attempt >= 3) throw err;
      ctx.warn(`${spec.path}: setting the password of ${describe(spec.packageDomain, spec.name)}: outcome unknown, writing again`);
    }
  }
}

async function removeDatabase(ctx: ReconcileContext, id: Identity): Promise<void> {
  const { packageDomain, name } = splitKey(id.key);
  const find = async () => findDatabase(await databasesOf(ctx, packageDomain, ctx.lists.tick()), name);
  const live = await find();
  if (!live) {
    ctx.info(`${describe(packageDomain, name)} is already absent`);
    return;
  }
  await converge(ctx, {
    what: `delete ${describe(packageDomain, name)}`,
    log: (l) => ctx.warn(l),
    isDone: async () => (await find()) === undefined,
    write: () => writeDatabases(ctx, packageDomain, () => ctx.client.databases.delete(packageDomain, live.id)),
  });
  ctx.info(`deleted ${describe(packageDomain, name)} and its data`);
}

async function whyDatabaseMissing(ctx: ReconcileContext, id: Identity): Promise<string | undefined> {
  const { packageDomain } = splitKey(id.key);
  return packageIndex(await listedPackages(ctx)).byPrimary.get(packageDomain) ? undefined : `its package ${packageDomain} does not exist`;
}

/**
 * Creates planned in this context (a provider plans every resource in one process), by
 * package: a plan that declares several new databases on one package is checked against
 * the limit as a whole, the one that would be too many failing.
 */
const plannedCreates = new WeakMap<ListCache, Map<string, Set<string>>>();

function plannedOn(ctx: ReconcileContext, packageDomain: string): Set<string> {
  let byPackage = plannedCreates.get(ctx.lists);
  if (!byPackage) plannedCreates.set(ctx.lists, (byPackage = new Map()));
  let names = byPackage.get(packageDomain);
  if (!names) byPackage.set(packageDomain, (names = new Set()));
  return names;
}

/**
 * The package type's `mysqlDatabases` limit, broken by one more database on the package
 * (with `planned`: the names the plan's other new databases on it add, read after the
 * account's lists, so that creates planned at the same time see each other). None when
 * the package is not in the account yet (created by the same apply: checked by the
 * apply), its type is unlimited, or the database exists already.
 */
async function limitProblem(ctx: ReconcileContext, spec: MysqlDatabaseSpec, planned: ReadonlySet<string>): Promise<AccountCheck['problems'][number] | undefined> {
  const pkg = packageIndex(await listedPackages(ctx)).byPrimary.get(spec.packageDomain);
  if (!pkg) return undefined;
  const [found, entries = []] = await Promise.all([findPackageType(ctx, pkg.typeRef), databasesOf(ctx, spec.packageDomain)]);
  const type = 'type' in found ? found.type : undefined;
  const limit = type?.limits?.mysqlDatabases;
  if (limit === undefined || limit === null || findDatabase(entries, spec.name)) return undefined;
  const existing = new Set(entries.map((e) => e.name.toLowerCase()));
  const added = [...new Set([...planned, spec.name])].filter((n) => !existing.has(n)).sort();
  if (existing.size + added.length <= limit) return undefined;
  return {
    field: 'packageDomain',
    rule: `${spec.packageDomain} may hold ${limit} MySQL database${limit === 1 ? '' : 's'} (its package type ${type!.label}, limit mysqlDatabases): ` +
      `it has ${existing.size}, and this ${planned.size ? 'plan' : 'apply'} adds ${added.length} (${added.join(', ')}), ${existing.size + added.length} in all. ` +
      'Delete databases, or change the package type',
  };
}

export const mysqlDatabaseReconciler = {
  confirmList: (spec) => databasesList(spec.packageDomain),
  observe: observeDatabase,
  list: listDatabases,
  // Observed by its natural key, and nothing of it changes in place: nothing can differ.
  diff: async () => [],
  ensure: ensureDatabase,
  remove: removeDatabase,
  whyMissing: whyDatabaseMissing,
  entries: (o) => [{ id: o.liveId, detail: `stored as ${String(o.computed.storedName)}${o.computed.host ? ` on ${String(o.computed.host)}` : ''}` }],
  async checkAccount(ctx, spec, checked) {
    // Only a database new to its package adds to the count: a plan that keeps the package (a new name) replaces one by one.
    if (!checked('packageDomain')) return { problems: [] };
    const planned = plannedOn(ctx, spec.packageDomain);
    planned.add(spec.name);
    const problem = await limitProblem(ctx, spec, planned);
    return { problems: problem ? [problem] : [] };
  },
  // A database is a test's when its package is (its own name cannot carry a run's prefix).
  sweepNames: (o) => ({ shown: `${String(o.fields.name)} on ${String(o.fields.packageDomain)}`, names: [String(o.fields.packageDomain)] }),
} satisfies KindReconciler<'mysql-database'>;
