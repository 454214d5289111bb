import {
  CLOUD_PROVIDERS, CLOUD_SIZES, canonicalDomain, checkCloudProvider, checkHostName, CloudProvider, cloudSizesText, SPEC_NAMES,
} from '../../protocol';
import { cloudServerBrand, list, Observed, ReconcileContext } from '../../reconcile';
import type { TfObject, TfValue } from '../wire/values';
import { computed, DataSource, flagArg, listOf, numberArg, optional, ReadResult, required, stringArg } from './data-source';
import { kindAttribute, kindAttributes, kindValues } from './from-kind';

/** reseller_cloud_server, reseller_cloud_servers and reseller_cloud_server_specs (spec 2.7). */

const SERVER_EXTRAS = [
  computed('package_ids', ['list', 'number'], 'Ids of the hosting packages on the server.'),
  computed('packages', ['list', 'string'], 'Primary domains of the hosting packages on the server, sorted.'),
];

async function serverValues(ctx: ReconcileContext, servers: Observed[]): Promise<TfObject[]> {
  const packages = servers.length ? await list(ctx, 'package') : [];
  const domainOf = new Map(packages.map((p) => [Number(p.computed.packageId), String(p.fields.domainName)]));
  return servers.map((o) => {
    const ids = [...((o.computed.packageIds as number[] | undefined) ?? [])].sort((a, b) => a - b);
    return { ...kindValues(o), package_ids: ids, packages: ids.map((id) => domainOf.get(id)).filter((d): d is string => d !== undefined).sort() };
  });
}

function checkProvider(args: Readonly<Record<string, TfValue>>) {
  const provider = stringArg(args, 'cloud_provider');
  const problem = provider === undefined ? undefined : checkCloudProvider(provider);
  return problem ? [{ attribute: 'cloud_provider', message: problem }] : [];
}

export function cloudServerDataSources(): DataSource[] {
  const fields = kindAttributes('cloud-server');
  const single: DataSource = {
    typeName: 'reseller_cloud_server',
    description: 'Reads a managed cloud server the configuration does not manage, found by its host name. A server that does not exist (or is not listed yet) fails the plan.',
    attributes: [
      computed('id', 'string', 'The host name of the server (its natural key).'),
      kindAttribute('cloud-server', 'hostName', required),
      ...fields.filter((a) => a.name !== 'host_name'),
      ...SERVER_EXTRAS,
      optional('read_brand', 'bool', 'Read `brand_name`: the API gives the brand only on a read of the server itself (response headers), one more request per server. Default false: `brand_name` is null and the look-up costs no request beyond the shared server list.'),
      computed('brand_name', 'string', 'The reseller brand the server was ordered under, when `read_brand` is true; null when it is not branded or `read_brand` is not set.'),
    ],
    check(args) {
      const host = stringArg(args, 'host_name');
      const problem = host === undefined ? undefined : checkHostName(host);
      return problem ? [{ attribute: 'host_name', message: problem }] : [];
    },
    async read(args, ctx): Promise<ReadResult> {
      const host = String(stringArg(args, 'host_name'));
      const all = await list(ctx(), 'cloud-server');
      const found = all.find((o) => o.fields.hostName === canonicalDomain(host));
      if (!found) return { notFound: { attribute: 'host_name', value: host, what: 'cloud server', existing: all.map((o) => String(o.fields.hostName)) } };
      const [values] = await serverValues(ctx(), [found]);
      // Opt-in: the brand is only in the headers of the server's own read (spec 2.9), not in the list.
      const brand = flagArg(args, 'read_brand') ? await cloudServerBrand(ctx(), Number(found.computed.serverId)) : undefined;
      return { values: { ...values, id: String(found.fields.hostName), brand_name: brand?.name || null } };
    },
  };
  const plural: DataSource = {
    typeName: 'reseller_cloud_servers',
    description: 'Lists the managed cloud servers of the account, optionally of one provider or zone. No match is an empty list.',
    attributes: [
      optional('cloud_provider', 'string', `Only servers of this provider: ${CLOUD_PROVIDERS.join(', ')}.`),
      optional('zone', 'string', 'Only servers in this zone.'),
      computed('cloud_servers', listOf([...fields, ...SERVER_EXTRAS]), 'The matching servers, by host name.'),
      computed('host_names', ['list', 'string'], 'The host names of the matching servers, sorted.'),
    ],
    check: checkProvider,
    async read(args, ctx): Promise<ReadResult> {
      const provider = stringArg(args, 'cloud_provider');
      const zone = stringArg(args, 'zone');
      const all = (await list(ctx(), 'cloud-server'))
        .filter((o) => (provider === undefined || o.fields.provider === provider) && (zone === undefined || o.fields.zone === zone))
        .sort((a, b) => String(a.fields.hostName).localeCompare(String(b.fields.hostName)));
      return { values: { cloud_servers: await serverValues(ctx(), all), host_names: all.map((o) => String(o.fields.hostName)) } };
    },
  };
  return [single, plural, specsDataSource()];
}

const SPEC_ELEMENT = [
  computed('cloud_provider', 'string', `The provider: ${CLOUD_PROVIDERS.join(', ')}.`),
  computed('spec', 'string', 'The size name, what `spec` of a cloud server takes.'),
  computed('cpu', 'number', 'CPU count.'),
  computed('ram_gb', 'number', 'RAM in GB.'),
  computed('disk_gb', 'number', 'Disk in GB.'),
  computed('bandwidth', 'number', 'Bandwidth, as the spec gives it (unit unlabelled).'),
];

/** The size table of spec 2.7: no request, the same in every account. */
function specsDataSource(): DataSource {
  return {
    typeName: 'reseller_cloud_server_specs',
    description: `The cloud server sizes of each provider (CPU, RAM, disk, bandwidth), smallest first, optionally those that meet minimums, so that a configuration can choose a size by need. Reads no API. The sizes: ${cloudSizesText()}.`,
    attributes: [
      optional('cloud_provider', 'string', `Only sizes of this provider: ${CLOUD_PROVIDERS.join(', ')}.`),
      optional('min_cpu', 'number', 'Only sizes with at least this many CPUs.'),
      optional('min_ram_gb', 'number', 'Only sizes with at least this much RAM (GB).'),
      optional('min_disk_gb', 'number', 'Only sizes with at least this much disk (GB).'),
      computed('specs', listOf(SPEC_ELEMENT), 'The matching sizes, by provider, then smallest first.'),
    ],
    check: checkProvider,
    async read(args): Promise<ReadResult> {
      const provider = stringArg(args, 'cloud_provider');
      const min = (name: string) => numberArg(args, name) ?? 0;
      const specs = CLOUD_PROVIDERS.filter((p) => provider === undefined || p === provider).flatMap((p: CloudProvider) =>
        SPEC_NAMES.filter((name) => CLOUD_SIZES[p][name]).map((name) => ({ provider: p, name, size: CLOUD_SIZES[p][name] })))
        .filter(({ size }) => size.cpu >= min('min_cpu') && size.ramGb >= min('min_ram_gb') && size.diskGb >= min('min_disk_gb'))
        .map(({ provider: p, name, size }) => ({ cloud_provider: p, spec: name, cpu: size.cpu, ram_gb: size.ramGb, disk_gb: size.diskGb, bandwidth: size.bandwidth }));
      return { values: { specs } };
    },
  };
}
