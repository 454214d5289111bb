import type { DomainRegistration } from '../../client';
import { canonicalDomain, checkDomainName } from '../../protocol';
import { listedRegistrations, registrationNameservers, registrationTransferAllowed } from '../../reconcile';
import type { TfObject } from '../wire/values';
import { computed, DataAttribute, DataSource, listOf, ReadResult, required, stringArg } from './data-source';

/**
 * reseller_domains and reseller_domain: the domain names the account has registered
 * (api-notes "Domain names (registrations)"). Both read the registration list through
 * the context's lists (one read per run, shared with the registration resources); the
 * singular one adds the registration's nameservers and transfer lock, through the same
 * per-registration reads the `reseller_domain_nameservers` and
 * `reseller_domain_transfer_lock` resources make.
 */

function registrationAttributes(): DataAttribute[] {
  return [
    computed('name', 'string', 'The registered domain name (lowercase, IDNA).'),
    computed('expiry_date', 'string', 'When the registration runs out, RFC 3339 UTC (`2026-03-01T00:00:00Z`, for `timecmp`); null when the API does not say.'),
    computed('dead_date', 'string', 'When the name is lost if it is not renewed, RFC 3339 UTC; null when the API does not say.'),
    computed('close_to_anniversary', 'bool', 'Whether the service counts the registration as close to its renewal date.'),
    computed('has_privacy', 'bool', 'Whether the registrant\'s details are hidden by a privacy service.'),
    computed('pending_transfer', 'bool', 'Whether a transfer to another registrar is under way.'),
    computed('registrant_is_verified', 'bool', 'Whether the registrant\'s contact details are verified.'),
    computed('renewal_constraint', 'string', 'What limits a renewal, as the service words it; null for nothing.'),
    computed('preferred_renewal_months', 'number', 'How many months a renewal adds by preference.'),
  ];
}

function registrationValues(r: DomainRegistration): TfObject {
  return {
    name: r.name, expiry_date: r.expiryDate, dead_date: r.deadDate, close_to_anniversary: r.closeToAnniversary, has_privacy: r.hasPrivacy,
    pending_transfer: r.pendingTransfer, registrant_is_verified: r.registrantIsVerified, renewal_constraint: r.renewalConstraint,
    preferred_renewal_months: r.preferredRenewalMonths,
  };
}

export function domainDataSources(): DataSource[] {
  const fields = registrationAttributes();
  const plural: DataSource = {
    typeName: 'reseller_domains',
    description:
      'Lists every domain name the account has registered, with its expiry, privacy, pending transfer and renewal constraint (one read of the registration list). ' +
      'Filter it with a Terraform expression, e.g. the registrations expiring within 30 days: ' +
      '`[for d in data.reseller_domains.all.domains : d.name if timecmp(d.expiry_date, timeadd(plantimestamp(), "720h")) < 0]`.',
    attributes: [
      computed('domains', listOf(fields), 'The registrations, by name.'),
      computed('names', ['list', 'string'], 'Their names, in the same order.'),
    ],
    async read(_args, ctx): Promise<ReadResult> {
      const all = [...(await listedRegistrations(ctx()))].sort((a, b) => a.name.localeCompare(b.name));
      return { values: { domains: all.map(registrationValues), names: all.map((r) => r.name) } };
    },
  };
  const singular: DataSource = {
    typeName: 'reseller_domain',
    description:
      'Reads one domain name the account has registered: its expiry and the rest of its list entry, its nameservers (as the registry holds them) and its transfer lock. ' +
      'A name the account does not hold fails the plan, naming the closest registrations.',
    attributes: [
      required('name', 'string', 'The registered domain name (any case, IDN allowed).'),
      computed('id', 'string', 'The domain name, canonical.'),
      ...fields.filter((a) => a.name !== 'name'),
      computed('nameservers', ['list', 'string'], 'The nameservers the registry delegates the domain to, sorted (a set).'),
      computed('transfer_locked', 'bool', 'Whether the transfer lock is on (a transfer to another registrar is refused).'),
    ],
    check(args) {
      const name = stringArg(args, 'name');
      const problem = name === undefined ? undefined : checkDomainName(name);
      return problem ? [{ attribute: 'name', message: problem }] : [];
    },
    async read(args, ctx): Promise<ReadResult> {
      const wanted = canonicalDomain(String(stringArg(args, 'name')));
      const all = await listedRegistrations(ctx());
      const found = all.find((r) => r.name === wanted);
      if (!found) return { notFound: { attribute: 'name', value: wanted, what: 'registered domain name', existing: all.map((r) => r.name) } };
      const [nameservers, allowed] = await Promise.all([registrationNameservers(ctx(), wanted), registrationTransferAllowed(ctx(), wanted)]);
      return {
        values: {
          ...registrationValues(found), id: wanted, name: wanted,
          nameservers: nameservers ? [...nameservers].sort() : null,
          transfer_locked: allowed === undefined ? null : !allowed,
        },
      };
    },
  };
  return [singular, plural];
}
