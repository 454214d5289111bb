import { State } from './backend/model';
import { dumpAccountMembers, dumpPackageMembers } from './nouns';
import { centsToAmount } from './util';

/**
 * The state dump: GET /__emulator/state and `snapshot()` of startEmulator.
 *
 * A documented, stable JSON view of every account for tests and for a read-only
 * control-panel page. It holds no secret: API keys are not shown at all (not even
 * their digests, which a short key would not protect), mailbox passwords only as
 * `passwordSha256` (so a test can see that a rotation happened). Additive changes
 * only; a breaking change bumps `version`.
 *
 * This file holds the core of it (accounts, their balance and brand, their packages'
 * ids and names); each API noun adds its members to `AccountDump` and `PackageDump`
 * (by declaration merging in its nouns/<noun>/model.ts) and fills them (`dump` of its
 * slices, nouns/registry.ts).
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

/** One account; the nouns add `users`, `packageTypes`, `cloudServers`, … */
export interface AccountDump {
  id: number;
  isDefault: boolean;
  /** In account currency units, 2 decimals (1000.00 -> 1000). */
  balance: number;
  brand: { name: string; logoUrl: string } | null;
  packages: PackageDump[];
}

/** One package; the nouns add `typeRef`, `label`, `mail`, `dns`, … */
export interface PackageDump {
  id: number;
  /** Primary domain name. */
  name: string;
  names: string[];
}

export function dumpState(state: State, nowMs: number, provisionDelayMs: number): EmulatorStateDump {
  return {
    version: 1,
    now: new Date(nowMs).toISOString(),
    settings: { provisionDelayMs },
    defaultAccountId: state.defaultAccountId,
    accounts: state.accounts.map((account): AccountDump => {
      const at = { state, account, nowMs, provisionDelayMs };
      const core = {
        id: account.id,
        isDefault: account.id === state.defaultAccountId,
        balance: centsToAmount(account.balanceCents),
        brand: account.brand ? { ...account.brand } : null,
      };
      const packages = account.packages.map((p) => ({ id: p.id, name: p.names[0], names: [...p.names], ...dumpPackageMembers(p, at) }) as PackageDump);
      return { ...core, ...dumpAccountMembers(account, at), packages } as AccountDump;
    }),
  };
}
