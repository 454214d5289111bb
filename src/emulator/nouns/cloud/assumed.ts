import { Brand } from '../../backend/model';
import { CloudServer } from './model';

/**
 * The cloud servers noun's assumed behaviours: everything api-notes.md marks `assumed`, or
 * that no public source shows and the emulator had to choose, behind one function
 * each. When the real API is observed to differ, correct it here only.
 *
 * Each function says ASSUMED and what it assumes. docs/emulator.md lists them.
 */

/**
 * ASSUMED (api-notes "Cloud servers": header names assumed): the brand of a server
 * ordered branded is returned as `X-Brand-Name` and `X-Brand-Logo`. Characters that
 * cannot travel in a header (outside printable ASCII) are percent-encoded.
 */
export function brandHeaders(brand: Brand): Record<string, string> {
  const headerSafe = (v: string) => (/^[\x20-\x7e]*$/.test(v) ? v : encodeURIComponent(v));
  return { 'X-Brand-Name': headerSafe(brand.name), 'X-Brand-Logo': headerSafe(brand.logoUrl) };
}

/**
 * ASSUMED: price per month of each size, in cents, the same for every provider
 * (the spec shows no prices): micro 5.00, small 10.00, then doubling per size.
 * An order charges price x periodMonths at once (api-notes: charges at once).
 */
export function monthlyPriceCents(spec: string): number {
  const ladder = ['micro', 'small', 'medium', 'large', 'x-large', '2x-large', '4x-large', '8x-large', '16x-large', '32x-large'];
  const step = ladder.indexOf(spec);
  return step < 0 ? 0 : 500 * 2 ** step;
}

/**
 * ASSUMED (the Managed Cloud Hosting API Guide, docs.20i.com: "A default hostname will
 * be used if this parameter is left blank", but not which): the host name of a server
 * ordered with an empty `mvpsName`.
 */
export function generatedServerName(serverId: number): string {
  return `vps${serverId}.cloud.example.net`;
}

/**
 * ASSUMED: the cloud server fields whose meaning spec 2.6 does not show.
 * count: -1 (the "infinity marker"); cpanel/cpanelInfo/cpanelRebuilding: "" (empty);
 * profileId: the numeric id of the user it was ordered for; timelineService:
 * "vps:<id>"; productSpec: "<type>:<spec>"; VpsOsId: 1 (one OS image).
 */
export function cloudServerOpaqueFields(server: CloudServer): {
  count: number;
  cpanel: string;
  cpanelInfo: string;
  cpanelRebuilding: string;
  profileId: number;
  timelineService: string;
  productSpec: string;
  vpsOsId: number;
} {
  return {
    count: -1,
    cpanel: '',
    cpanelInfo: '',
    cpanelRebuilding: '',
    // A server ordered without forUser (it is optional) belongs to no user: 0.
    profileId: Number(server.forUser.replace(/^stack-user:/, '')) || 0,
    timelineService: `vps:${server.id}`,
    productSpec: `${server.type}:${server.spec}`,
    vpsOsId: 1,
  };
}

/**
 * ASSUMED: `configuration.DataDiskSizeGb` is the ordered `disk` (meaningful for
 * platforms B and C only, api-notes), else 0. `OsDiskSizeGb` is the size's disk.
 */
export function dataDiskSizeGb(server: CloudServer): number {
  return server.disk !== null && server.provider !== '20icloud' ? Number(server.disk) : 0;
}
