import { canonicalDomain, checkDomainName } from '../names';
import { canonicalJson } from '../canonical-json';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import {
  canonicalNameserver, canonicalRegistrationIdentity, checkRegistrationIdentity, DOMAIN_FIELD, nameserverProblems, parseRegistrationImportId,
  registrationIdentity,
} from './domain';

/**
 * The nameservers of a registered domain name (api-notes "Domain names
 * (registrations)"): adopted from a registration the account holds (never registered),
 * written as the difference against a fresh read (`ns` added, `old-ns` removed, never a
 * name in both). A set: registries hold a delegation's nameservers unordered, and the
 * API's write (a difference) cannot express an order, so a declaration in any order is
 * the same one. Destroy leaves the registration's nameservers as they are: no one can
 * say what they were before Terraform, and a registration without nameservers is not
 * possible.
 */
export type DomainNameserversSpec = {
  readonly kind: 'domain-nameservers';
  readonly path: string;
  readonly domain: string;
  /** Host names, canonical and sorted once checked (a set). */
  readonly nameservers: readonly string[];
};

export const DOMAIN_NAMESERVERS_FIELDS: readonly FieldDefinition[] = [
  DOMAIN_FIELD,
  { name: 'nameservers', attribute: 'nameservers', type: 'set(string)', role: 'setting', presence: 'required', readable: true,
    description: 'Host names of the nameservers the registry delegates the domain to: 2 to 13, a set (their order does not matter, a plan shows no change for another order).' },
];

export function checkDomainNameservers(raw: DomainNameserversSpec, path: string = raw.path): Checked<DomainNameserversSpec> {
  const p = new ProblemList(path);
  p.add('domain', checkDomainName(raw.domain));
  for (const problem of nameserverProblems(raw.nameservers)) p.add(problem.field, problem.rule);
  if (p.problems.length) return { spec: raw, problems: p.problems };
  const nameservers = [...new Set(raw.nameservers.map(canonicalNameserver))].sort();
  return { spec: { ...raw, domain: canonicalDomain(raw.domain), nameservers }, problems: [] };
}

export const domainNameserversDefinition = {
  kind: 'domain-nameservers',
  label: 'nameserver set',
  shortLabel: 'nameservers',
  description: 'The nameservers of a registered domain name the account holds (adopted, never registered): written as the difference against what the registry holds. ' +
    'For a customer whose DNS is elsewhere (Cloudflare, Route 53). No resource of this provider registers or renews a domain: that charges the balance and needs a registrant contact no public source of the API shows. ' +
    '`nameservers` is a set: registries hold a delegation unordered and the API\'s write (`ns` added, `old-ns` removed) cannot express an order. ' +
    'Destroy leaves the registration\'s nameservers as they are, and the plan says so: what was there before Terraform may have changed since, and a registration always has nameservers.',
  order: 6,
  resourceType: 'reseller_domain_nameservers',
  keyName: 'domain name',
  importIdHelp: 'the registered domain name (example.com)',
  fields: DOMAIN_NAMESERVERS_FIELDS,
  check: checkDomainNameservers,
  identity: (spec: DomainNameserversSpec, parent = '') => registrationIdentity('domain-nameservers', spec.domain, parent),
  jsonSettings: ['nameservers'],
  settings: (spec: DomainNameserversSpec): Record<string, string> => ({ nameservers: canonicalJson(spec.nameservers) }),
  checkIdentity: checkRegistrationIdentity,
  canonicalIdentity: canonicalRegistrationIdentity,
  parseImportId: (text: string) => parseRegistrationImportId('domain-nameservers', text),
  formatImportId: (id) => id.key,
  lifecycle: { deleteForgets: 'the registration keeps the nameservers it has' },
  // Registrations whose nameservers no stack declares are the usual case, not drift.
  reportsUnmanaged: false,
  import: {
    construct: 'DomainNameservers',
    idPrefix: 'ns',
    // Declaring a registration's nameservers makes Terraform their owner: on request only.
    byDefault: false,
    props: ['domain', 'nameservers'],
  },
} satisfies KindDefinition<'domain-nameservers', DomainNameserversSpec>;
