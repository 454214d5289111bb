import { centsToAmount } from '../../util';
import type { ApiNoun } from '../registry';
import { isReady, readyAtMs } from './backend';
import { accountChecks, FIRST_SERVER_ID } from './model';
import { provisioningNotice, serversCell, serversSection } from './page';
import { addCloudRoutes } from './routes';

/**
 * Managed cloud servers (spec 2.6, 4.5-4.7; api-notes "Cloud servers"): ordered with
 * `addCloudServer` (charged to the balance), ready after the provisioning delay, host
 * packages (`POST /cloud_server/{id}/addWeb`). A deleted package leaves its server.
 */
export const cloud = {
  name: 'cloud',
  counters: { serverId: FIRST_SERVER_ID },
  account: {
    check: accountChecks,
    fresh: () => ({ cloudServers: [] }),
    dump: (account, { nowMs, provisionDelayMs }) => ({
      cloudServers: account.cloudServers.map((s) => ({
        id: s.id,
        name: s.name,
        type: s.type,
        provider: s.provider,
        spec: s.spec,
        zone: s.zone,
        periodMonths: s.periodMonths,
        bandwidth: s.bandwidth,
        disk: s.disk,
        branded: s.branded,
        forUser: s.forUser,
        charged: centsToAmount(s.chargedCents),
        orderedAt: new Date(s.orderedAtMs).toISOString(),
        readyAt: new Date(readyAtMs(s, provisionDelayMs)).toISOString(),
        state: isReady(s, nowMs, provisionDelayMs) ? 'ready' : 'provisioning',
        packageIds: [...s.packageIds],
      })),
    }),
  },
  routes: addCloudRoutes,
  on: {
    packageDeleted: ({ account, pkg }) => {
      for (const server of account.cloudServers) server.packageIds = server.packageIds.filter((id) => id !== pkg.id);
    },
  },
  page: {
    figures: [{ label: 'Cloud servers', value: (account) => account.cloudServers.length, listCell: serversCell }],
    section: serversSection,
    pending: provisioningNotice,
  },
} satisfies ApiNoun;
