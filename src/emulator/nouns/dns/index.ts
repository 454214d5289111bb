import type { ApiNoun } from '../registry';
import { freshZones, recordView, syncZones } from './backend';
import { addDnsControlRoutes } from './control';
import { FIRST_DNS_REF, packageChecks } from './model';
import { dnsSection } from './page';
import { addDnsRoutes } from './routes';

/**
 * DNS (api-notes "DNS records"): one zone per apex name of a package, with default
 * records from the moment the name joins it; `GET /package/{id}/dns[/{zone}]` reads,
 * `POST /package/{id}/dns/{zone}` writes one atomic diff. The control API edits a
 * record in place (`POST /__emulator/dns`), as the control panel does.
 */
export const dns = {
  name: 'dns',
  since: 2,
  counters: { dnsRef: FIRST_DNS_REF },
  package: {
    check: packageChecks,
    fresh: ({ state, pkg }) => ({ zones: freshZones(state, pkg) }),
    dump: (pkg) => ({
      dns: pkg.zones.map((z) => ({
        apex: z.apex,
        records: z.records.map((r) => recordView(r, { numbersAsText: false, trailingDot: false }) as Record<string, string | number | null>),
      })),
    }),
  },
  routes: addDnsRoutes,
  control: addDnsControlRoutes,
  on: {
    packageNamesChanged: ({ state, pkg }) => syncZones(state, pkg),
  },
  page: { section: dnsSection },
} satisfies ApiNoun;
