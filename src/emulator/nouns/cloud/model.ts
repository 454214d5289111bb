import { arrayOf, bool, Check, fields, int, nullable, str } from '../../shape';

/**
 * Managed cloud servers: their part of the state (`account.cloudServers`, the
 * `serverId` counter), the check and their part of the state dump.
 */

declare module '../../backend/model' {
  interface Account {
    cloudServers: CloudServer[];
  }
  interface Counters {
    /** Next cloud server id. */
    serverId: number;
  }
}

declare module '../../snapshot' {
  interface AccountDump {
    cloudServers: CloudServerDump[];
  }
}

export interface CloudServer {
  id: number;
  externalId: number;
  /** Host name (mvpsName), canonical lowercase. */
  name: string;
  /** Product type string of the order (`cloud-20i`, `cloud-aws`, `cloud-gcp`). */
  type: string;
  /** Provider string of the order (`20icloud`, `aws`, `gcp`). */
  provider: string;
  spec: string;
  zone: string;
  periodMonths: number;
  /** As ordered (numeric strings), null when not given. */
  bandwidth: string | null;
  disk: string | null;
  branded: boolean;
  /** `stack-user:<n>` the server was ordered for; "" when ordered without forUser. */
  forUser: string;
  /** What the order charged, in cents. */
  chargedCents: number;
  /** Order time, epoch milliseconds. */
  orderedAtMs: number;
  /** The provisioning delay in force when it was ordered. */
  provisionDelayMs: number;
  /** Packages created on the server (POST /cloud_server/{id}/addWeb), ascending. */
  packageIds: number[];
}

export interface CloudServerDump {
  id: number;
  /** Host name. */
  name: string;
  type: string;
  provider: string;
  spec: string;
  zone: string;
  periodMonths: number;
  bandwidth: string | null;
  disk: string | null;
  branded: boolean;
  forUser: string;
  /** What the order charged (currency units). */
  charged: number;
  /** ISO 8601 (UTC, milliseconds). */
  orderedAt: string;
  /** When provisioning ends (or ended), ISO 8601. */
  readyAt: string;
  state: 'provisioning' | 'ready';
  packageIds: number[];
}

export const FIRST_SERVER_ID = 300_001;

const server: Check = (v) => fields(v, {
  id: int, externalId: int, name: str, type: str, provider: str, spec: str, zone: str, periodMonths: int,
  bandwidth: nullable(str), disk: nullable(str), branded: bool, forUser: str, chargedCents: int, orderedAtMs: int,
  provisionDelayMs: int, packageIds: arrayOf(int),
});

export const accountChecks: Record<string, Check> = { cloudServers: arrayOf(server) };
