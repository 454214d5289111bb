import { centsToAmount } from '../../util';
import { recordView } from '../dns/backend';
import type { ApiNoun } from '../registry';
import { fixtureRegistrations, registrationZone } from './backend';
import { accountChecks, FIRST_DOMAIN_ID } from './model';
import { domainsSection } from './page';
import { addDomainRoutes } from './routes';

/**
 * Registered domain names (api-notes "Domain names (registrations)"): an account noun.
 * Every account starts with fixture registrations; `/domain/{name}/…` reads one, writes
 * its nameservers (a difference) and its transfer lock, and serves its DNS zone (a
 * package's zone when a package holds the name: the same zone); `addDomain` and
 * `renewDomain` charge the balance (402 when it is too low). There is no delete.
 */
export const domains = {
  name: 'domains',
  since: 3,
  counters: { domainId: FIRST_DOMAIN_ID },
  account: {
    check: accountChecks,
    fresh: (origin) => ({ domains: fixtureRegistrations(origin) }),
    dump: (account) => ({
      domains: account.domains.map((d) => {
        const { zone, onPackage } = registrationZone(account, d);
        return {
          id: d.id,
          name: d.name,
          registeredAt: new Date(d.registeredAtMs).toISOString(),
          expiresAt: new Date(d.expiresAtMs).toISOString(),
          hasPrivacy: d.hasPrivacy,
          pendingTransfer: d.pendingTransfer,
          registrantIsVerified: d.registrantIsVerified,
          renewalConstraint: d.renewalConstraint,
          preferredRenewalMonths: d.preferredRenewalMonths,
          nameservers: [...d.nameservers],
          transferAllowed: d.transferAllowed,
          dnsZone: {
            apex: zone.apex,
            onPackage,
            records: zone.records.map((r) => recordView(r, { numbersAsText: false, trailingDot: false }) as Record<string, string | number | null>),
          },
          charged: centsToAmount(d.chargedCents),
        };
      }),
    }),
  },
  routes: addDomainRoutes,
  page: {
    figures: [{ label: 'Domains', value: (account) => account.domains.length }],
    section: domainsSection,
  },
} satisfies ApiNoun;
