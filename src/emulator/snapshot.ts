import { State } from './backend/model';
import { isReady, readyAtMs } from './backend/cloud';
import { stackUsersOf } from './backend/users';
import { recordView } from './backend/dns';
import { centsToAmount } from './util';

/**
 * The state dump: GET /__emulator/state and `snapshot()` of startEmulator.
 *
 * A documented, stable JSON view of every account for tests and for a read-only
 * control-panel page. It holds no secret: API keys are not shown at all (not even
 * their digests, which a short key would not protect), mailbox passwords only as
 * `passwordSha256` (so a test can see that a rotation happened). Additive changes
 * only; a breaking change bumps `version`.
 */

export interface EmulatorStateDump {
  /** Shape version of this dump. */
  version: 1;
  /** The emulator's clock when the dump was taken (ISO 8601). */
  now: string;
  settings: { provisionDelayMs: number };
  /** The reseller id the configured API key opens. */
  defaultAccountId: number;
  /** Accounts in creation order, the default account first. */
  accounts: AccountDump[];
}

export interface AccountDump {
  id: number;
  isDefault: boolean;
  /** In account currency units, 2 decimals (1000.00 -> 1000). */
  balance: number;
  brand: { name: string; logoUrl: string } | null;
  packageTypes: Array<{ id: number; label: string; platform: 'linux' | 'windows' }>;
  users: UserDump[];
  packages: PackageDump[];
  cloudServers: CloudServerDump[];
}

export interface UserDump {
  /** `stack-user:<id>` */
  ref: string;
  id: number;
  /** The full contact record (spec 2.2). */
  contact: Record<string, string | null>;
  /** Service identifiers granted, e.g. `package:1000001`. */
  grants: string[];
}

export interface PackageDump {
  id: number;
  /** Primary domain name. */
  name: string;
  names: string[];
  typeRef: number;
  packageTypeName: string;
  platform: 'linux' | 'windows';
  label: string | null;
  enabled: boolean;
  created: string;
  documentRoots: Record<string, string>;
  stackUsers: string[];
  /** The cloud server the package lives on, null on the reseller account. */
  cloudServerId: number | null;
  /** One entry per domain name of the package that has mail objects. */
  mail: MailDomainDump[];
  /** The package's DNS zones, one per apex name, in the order the names joined. */
  dns: DnsZoneDump[];
}

export interface DnsZoneDump {
  apex: string;
  /**
   * Records as the API reads them (default profile): `{type, host, ref, ...fields}`,
   * `host` fully qualified, `ref` null for the SOA.
   */
  records: Array<Record<string, string | number | null>>;
}

export interface MailDomainDump {
  domain: string;
  mailboxes: Array<{
    id: string;
    local: string;
    address: string;
    send: boolean;
    receive: boolean;
    enabled: boolean;
    quotaMB: number;
    usageMB: number;
    /** sha256 hex of the current password. */
    passwordSha256: string;
  }>;
  forwarders: Array<{ id: string; local: string; address: string; remote: string }>;
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

export function dumpState(state: State, nowMs: number, provisionDelayMs: number): EmulatorStateDump {
  return {
    version: 1,
    now: new Date(nowMs).toISOString(),
    settings: { provisionDelayMs },
    defaultAccountId: state.defaultAccountId,
    accounts: state.accounts.map((account) => ({
      id: account.id,
      isDefault: account.id === state.defaultAccountId,
      balance: centsToAmount(account.balanceCents),
      brand: account.brand ? { ...account.brand } : null,
      packageTypes: account.packageTypes.map((t) => ({ ...t })),
      users: account.users.map((u) => ({
        ref: `stack-user:${u.id}`,
        id: u.id,
        contact: { ...u.contact },
        grants: u.packageGrants.map((id) => `package:${id}`),
      })),
      packages: account.packages.map((p) => {
        const type = account.packageTypes.find((t) => t.id === p.typeId);
        const domains = p.names.filter((d) => p.mailboxes.some((m) => m.domain === d) || p.forwarders.some((f) => f.domain === d));
        return {
          id: p.id,
          name: p.names[0],
          names: [...p.names],
          typeRef: p.typeId,
          packageTypeName: type?.label ?? '',
          platform: type?.platform ?? 'linux',
          label: p.label,
          enabled: p.enabled,
          created: p.created,
          documentRoots: { ...p.documentRoots },
          stackUsers: stackUsersOf(account, p.id),
          cloudServerId: p.cloudServerId,
          mail: domains.map((domain) => ({
            domain,
            mailboxes: p.mailboxes.filter((m) => m.domain === domain).map((m) => ({
              id: `m${m.id}`,
              local: m.local,
              address: `${m.local}@${domain}`,
              send: m.send,
              receive: m.receive,
              enabled: m.enabled,
              quotaMB: m.quotaMB,
              usageMB: m.usageMB,
              passwordSha256: m.passwordSha256,
            })),
            forwarders: p.forwarders.filter((f) => f.domain === domain).map((f) => ({
              id: `f${f.id}`,
              local: f.local,
              address: `${f.local}@${domain}`,
              remote: f.remote,
            })),
          })),
          dns: p.zones.map((z) => ({
            apex: z.apex,
            records: z.records.map((r) => recordView(r, { numbersAsText: false, trailingDot: false }) as Record<string, string | number | null>),
          })),
        };
      }),
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
    })),
  };
}
