import type { DnsRecord } from '../../client';
import { canonicalDomain, canonicalRecordName, checkDomainName, DNS_RECORD_TYPES } from '../../protocol';
import { list, Observed, readDnsZones } from '../../reconcile';
import type { TfObject } from '../wire/values';
import { computed, DataSource, listOf, lookup, optional, ReadResult, required, stringArg } from './data-source';
import { kindAttribute } from './from-kind';

/**
 * reseller_dns_records: the records of one zone of a package. The zone read is the one
 * the `reseller_dns_record` resources make (the context's `dns:<package>` list), so a
 * plan that reads records and refreshes records sends one DNS read per package.
 *
 * Only the types a `reseller_dns_record` can manage are listed (A, AAAA, CNAME, MX, TXT,
 * SRV): the SOA and the NS records are the service's own, cannot be written, and
 * would make every record list differ from what the stack can declare.
 */

const TYPES: readonly string[] = DNS_RECORD_TYPES;

function recordElement() {
  return [
    kindAttribute('dns-record', 'name'),
    kindAttribute('dns-record', 'fqdn'),
    kindAttribute('dns-record', 'type'),
    kindAttribute('dns-record', 'value'),
    computed('priority', 'number', 'MX and SRV: priority; null for other types.'),
    computed('weight', 'number', 'SRV: weight; null for other types.'),
    computed('port', 'number', 'SRV: port; null for other types.'),
    kindAttribute('dns-record', 'ref'),
  ];
}

const listed = (r: DnsRecord) => r.ref !== null && TYPES.includes(r.type);

function recordValues(r: DnsRecord, zone: string): TfObject {
  return {
    name: canonicalRecordName(r.host, zone), fqdn: r.host, type: r.type, value: r.value,
    priority: r.type === 'MX' || r.type === 'SRV' ? (r.priority ?? null) : null,
    weight: r.type === 'SRV' ? (r.weight ?? null) : null,
    port: r.type === 'SRV' ? (r.port ?? null) : null,
    ref: String(r.ref),
  };
}

const namesOf = (o: Observed): string[] => [String(o.fields.domainName), ...((o.fields.extraDomainNames as string[] | undefined) ?? [])];

export function dnsDataSources(): DataSource[] {
  const source: DataSource = {
    typeName: 'reseller_dns_records',
    description:
      'Reads the DNS records of one zone of a hosting package, optionally only those at one name or of one type. ' +
      'Lists the types `reseller_dns_record` manages (A, AAAA, CNAME, MX, TXT, SRV); the SOA and NS records are the service\'s own and are left out. ' +
      'A package or zone that does not exist fails the plan; no matching record is an empty list.',
    attributes: [
      required('package', 'string', 'A domain name of the hosting package (its primary domain or an extra one).'),
      lookup('zone', 'string', 'Zone apex: one of the package\'s apex names; defaults to its primary domain.'),
      optional('name', 'string', 'Only records at this owner name, relative to the zone (`@`, `www`) or fully qualified.'),
      optional('type', 'string', `Only records of this type: one of ${DNS_RECORD_TYPES.join(', ')}.`),
      computed('package_domain', 'string', 'Primary domain of the package.'),
      computed('records', listOf(recordElement()), 'The matching records, by name, type and value.'),
      computed('values', ['list', 'string'], 'The values of the matching records, in the order of `records`.'),
    ],
    check(args) {
      const problems = ['package', 'zone'].flatMap((attribute) => {
        const value = stringArg(args, attribute);
        const problem = value === undefined ? undefined : checkDomainName(value);
        return problem ? [{ attribute, message: problem }] : [];
      });
      const type = stringArg(args, 'type');
      if (type !== undefined && !TYPES.includes(type.trim().toUpperCase())) {
        problems.push({ attribute: 'type', message: `must be one of ${DNS_RECORD_TYPES.join(', ')}, got "${type}" (SOA and NS records are not listed)` });
      }
      return problems;
    },
    async read(args, ctx): Promise<ReadResult> {
      const wanted = canonicalDomain(String(stringArg(args, 'package')));
      const packages = await list(ctx(), 'package');
      const pkg = packages.find((o) => namesOf(o).includes(wanted));
      if (!pkg) return { notFound: { attribute: 'package', value: String(args.package), what: 'package', existing: packages.flatMap(namesOf) } };
      const primary = String(pkg.fields.domainName);
      const zoneName = canonicalDomain(stringArg(args, 'zone') ?? primary);
      const zones = await readDnsZones(ctx(), primary);
      if (!zones) return { notFound: { attribute: 'package', value: String(args.package), what: 'package', existing: packages.flatMap(namesOf).filter((n) => n !== primary) } };
      const zone = zones.find((z) => z.name === zoneName);
      if (!zone) return { notFound: { attribute: 'zone', value: zoneName, what: `DNS zone of package ${primary}`, existing: zones.map((z) => z.name) } };
      const name = stringArg(args, 'name');
      const owner = name === undefined ? undefined : canonicalRecordName(name, zone.name);
      const type = stringArg(args, 'type')?.trim().toUpperCase();
      const records = zone.records
        .filter(listed)
        .map((r) => recordValues(r, zone.name))
        .filter((r) => (owner === undefined || r.name === owner) && (type === undefined || r.type === type))
        .sort((a, b) => String(a.name).localeCompare(String(b.name)) || String(a.type).localeCompare(String(b.type)) || String(a.value).localeCompare(String(b.value)));
      return { values: { zone: zone.name, package_domain: primary, records, values: records.map((r) => r.value) } };
    },
  };
  return [source];
}
