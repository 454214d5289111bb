import type { PackageType } from '../../client';
import { canonicalDomain, checkDomainName } from '../../protocol';
import { list, listPackageTypes, Observed, packageWebIpv4, ReconcileContext } from '../../reconcile';
import type { TfObject, TfValue } from '../wire/values';
import {
  ArgumentProblem, computed, DataSource, flagArg, listOf, lookup, numberArg, optional, ReadResult, stringArg,
} from './data-source';
import { kindAttribute, kindAttributes, kindValues } from './from-kind';

/** reseller_package, reseller_packages and reseller_package_types. */

type Args = Readonly<Record<string, TfValue>>;

/** Facts of a package beyond its kind's fields: every name and every linked user. */
const PACKAGE_EXTRAS = [
  computed('names', ['list', 'string'], 'Every domain name of the package, the primary first.'),
  computed('stack_users', ['list', 'string'], 'The control-panel users linked to the package (`stack-user:N`).'),
];

/** A package's attributes (fields of its kind, then PACKAGE_EXTRAS). */
function packageValues(o: Observed): TfObject {
  const values = kindValues(o);
  const primary = String(o.fields.domainName);
  return {
    ...values,
    names: [primary, ...((o.fields.extraDomainNames as string[] | undefined) ?? [])],
    stack_users: [...((o.computed.stackUsers as string[] | undefined) ?? [])],
  };
}

const namesOf = (o: Observed): string[] => [String(o.fields.domainName), ...((o.fields.extraDomainNames as string[] | undefined) ?? [])];

function checkDomainArgs(args: Args, names: readonly string[]): ArgumentProblem[] {
  const out: ArgumentProblem[] = [];
  for (const name of names) {
    const value = stringArg(args, name);
    const problem = value === undefined ? undefined : checkDomainName(value);
    if (problem) out.push({ attribute: name, message: problem });
  }
  return out;
}

export function packageDataSources(): DataSource[] {
  const fields = kindAttributes('package');
  const keyed = new Set(['domain_name', 'package_id']);
  const single: DataSource = {
    typeName: 'reseller_package',
    description:
      'Reads a hosting package the configuration does not manage, found by its primary domain (`domain_name`), ' +
      'any of its domain names (`name`) or its id (`package_id`). A package that does not exist fails the plan.',
    attributes: [
      computed('id', 'string', 'The primary domain of the package (its natural key).'),
      kindAttribute('package', 'domainName', lookup),
      optional('name', 'string', 'Any domain name of the package (the primary or an extra one) to find it by.'),
      kindAttribute('package', 'packageId', lookup),
      ...fields.filter((a) => !keyed.has(a.name)),
      ...PACKAGE_EXTRAS,
      optional('read_web_ipv4', 'bool', 'Read `web_ipv4`: the package list has no address, so this reads the package itself, one more request per package. Default false: `web_ipv4` is null and the look-up costs no request beyond the shared package list.'),
      computed('web_ipv4', 'string', 'IPv4 address of the package\'s web server, when `read_web_ipv4` is true and the API gives one; null otherwise.'),
    ],
    oneOf: ['domain_name', 'name', 'package_id'],
    check: (args) => checkDomainArgs(args, ['domain_name', 'name']),
    async read(args, ctx): Promise<ReadResult> {
      const all = await list(ctx(), 'package');
      const domain = stringArg(args, 'domain_name');
      const name = stringArg(args, 'name');
      const id = numberArg(args, 'package_id');
      let found: Observed | undefined;
      let key: { attribute: string; value: string };
      if (domain !== undefined) {
        found = all.find((o) => o.fields.domainName === canonicalDomain(domain));
        key = { attribute: 'domain_name', value: domain };
      } else if (name !== undefined) {
        found = all.find((o) => namesOf(o).includes(canonicalDomain(name)));
        key = { attribute: 'name', value: name };
      } else {
        found = all.find((o) => o.computed.packageId === id);
        key = { attribute: 'package_id', value: String(id) };
      }
      if (!found) {
        const existing = key.attribute === 'package_id' ? all.map((o) => String(o.computed.packageId)) : all.flatMap(key.attribute === 'name' ? namesOf : (o) => [String(o.fields.domainName)]);
        return { notFound: { ...key, what: 'package', existing } };
      }
      // Opt-in: one detail read per package; without it, 100 look-ups cost the one package list.
      const ip = flagArg(args, 'read_web_ipv4') ? await packageWebIpv4(ctx(), Number(found.computed.packageId)) : undefined;
      return { values: { ...packageValues(found), id: String(found.fields.domainName), web_ipv4: ip ?? null } };
    },
  };

  const element = [...fields, ...PACKAGE_EXTRAS];
  const plural: DataSource = {
    typeName: 'reseller_packages',
    description: 'Lists the hosting packages of the account, optionally filtered by type, linked user, name suffix or cloud server. No match is an empty list.',
    attributes: [
      optional('package_type', 'string', 'Only packages of this type (name, case-insensitive, or numeric id).'),
      optional('stack_user', 'string', 'Only packages linked to this control-panel user (`stack-user:N` or an e-mail).'),
      optional('name_suffix', 'string', 'Only packages with a domain name ending in this suffix (e.g. ".example.com").'),
      optional('cloud_server', 'string', 'Only packages on the managed cloud server with this host name.'),
      computed('packages', listOf(element), 'The matching packages, by primary domain.'),
      computed('domain_names', ['list', 'string'], 'The primary domains of the matching packages, sorted.'),
    ],
    async read(args, ctx): Promise<ReadResult> {
      let all = await list(ctx(), 'package');
      const type = stringArg(args, 'package_type');
      if (type !== undefined) {
        const t = type.trim().toLowerCase();
        all = all.filter((o) => String(o.computed.packageTypeId) === t || String(o.fields.packageType).toLowerCase() === t);
      }
      const user = stringArg(args, 'stack_user');
      if (user !== undefined) {
        const refs = await userRefsOf(ctx(), user);
        all = all.filter((o) => ((o.computed.stackUsers as string[] | undefined) ?? []).some((u) => refs.has(u)));
      }
      const suffix = stringArg(args, 'name_suffix')?.toLowerCase();
      if (suffix !== undefined) all = all.filter((o) => namesOf(o).some((n) => n.endsWith(suffix)));
      const server = stringArg(args, 'cloud_server');
      if (server !== undefined) all = all.filter((o) => o.fields.cloudServer === canonicalDomain(server));
      const sorted = [...all].sort((a, b) => String(a.fields.domainName).localeCompare(String(b.fields.domainName)));
      return { values: { packages: sorted.map(packageValues), domain_names: sorted.map((o) => String(o.fields.domainName)) } };
    },
  };

  return [single, plural, packageTypesDataSource()];
}

/** The `stack-user:N` refs a user argument names (a ref, or every user with that e-mail). */
async function userRefsOf(ctx: ReconcileContext, user: string): Promise<Set<string>> {
  if (/^stack-user:[0-9]+$/.test(user)) return new Set([user]);
  const wanted = user.trim().toLowerCase();
  const users = await list(ctx, 'stack-user');
  return new Set(users.filter((u) => String(u.fields.email).trim().toLowerCase() === wanted).map((u) => String(u.computed.userRef)));
}

const TYPE_ELEMENT = [
  computed('id', 'number', 'Numeric id of the package type (what `package_type` of a package may give instead of the name).'),
  computed('name', 'string', 'Name of the package type, e.g. "Linux Unlimited".'),
  computed('platform', 'string', '"linux" or "windows".'),
  computed('limits', ['map', 'number'], 'What the type allows (e.g. domains, webspace in MB, mailboxes): a number, or null for unlimited.'),
  computed('unlimited', ['list', 'string'], 'The names of the limits that are unlimited (null in `limits`).'),
];

function typeValues(t: PackageType): TfObject {
  const limits = t.limits ?? {};
  return {
    id: t.id, name: t.label, platform: t.platform,
    limits: { ...limits },
    unlimited: Object.keys(limits).filter((k) => limits[k] === null).sort(),
  };
}

function packageTypesDataSource(): DataSource {
  return {
    typeName: 'reseller_package_types',
    description: 'Lists the package types of the account with their limits, optionally of one platform. No match is an empty list.',
    attributes: [
      optional('platform', 'string', 'Only types of this platform: "linux" or "windows".'),
      computed('package_types', listOf(TYPE_ELEMENT), 'The package types, by id.'),
      computed('ids_by_name', ['map', 'number'], 'Package type id by name, to choose a type by name.'),
    ],
    check(args) {
      const platform = stringArg(args, 'platform');
      return platform === undefined || ['linux', 'windows'].includes(platform) ? [] : [{ attribute: 'platform', message: `must be "linux" or "windows", got "${platform}"` }];
    },
    async read(args, ctx): Promise<ReadResult> {
      const platform = stringArg(args, 'platform');
      const types = (await listPackageTypes(ctx())).filter((t) => platform === undefined || t.platform === platform).sort((a, b) => a.id - b.id);
      return { values: { package_types: types.map(typeValues), ids_by_name: Object.fromEntries(types.map((t) => [t.label, t.id])) } };
    },
  };
}
