import { Account, ContactRecord, PackageType, State, STATE_VERSION, User } from './backend/model';

/**
 * What every account has when it is created (on first start, after POST
 * /__emulator/reset, and by POST /__emulator/accounts): the package types, two
 * control-panel users with complete contact records (spec 2.2), a balance, no brand.
 */

/** The reseller id of the account the configured API key opens. */
export const DEFAULT_RESELLER_ID = 989900;

/** Starting balance of a fixture account: 1000.00. */
export const FIXTURE_BALANCE_CENTS = 100_000;

/** Package types of every account (GET /reseller/*\/packageTypes). */
export const FIXTURE_PACKAGE_TYPES: readonly PackageType[] = [
  { id: 811, label: 'Linux Unlimited', platform: 'linux' },
  { id: 812, label: 'Linux Starter', platform: 'linux' },
  { id: 813, label: 'Windows Unlimited', platform: 'windows' },
  { id: 820, label: 'Managed Cloud', platform: 'linux' },
];

/** What a package type allows: a number, or the string "INF" for unlimited. */
export type Limit = number | 'INF';

/**
 * `limits` of each fixture package type (and of a package's detail). Unlimited is the
 * string "INF", as a production integration reads it (Upmind's 20i provider compares
 * `limits.domains`, `limits.webspace` and `limits.bandwidth` with 'INF'); otherwise a
 * number (webspace and bandwidth in MB). A type not listed here is unlimited.
 */
const TYPE_LIMITS: Readonly<Record<number, Readonly<Record<string, Limit>>>> = {
  811: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', databases: 'INF' },
  812: { domains: 5, webspace: 10240, bandwidth: 'INF', mailboxes: 10, databases: 5 },
  813: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', databases: 'INF' },
  820: { domains: 'INF', webspace: 'INF', bandwidth: 'INF', mailboxes: 'INF', databases: 'INF' },
};

export function packageTypeLimits(typeId: number): Record<string, Limit> {
  return { ...(TYPE_LIMITS[typeId] ?? TYPE_LIMITS[811]) };
}

/** The type a package created on a cloud server gets (POST /cloud_server/{id}/addWeb). */
export const CLOUD_PACKAGE_TYPE_ID = 820;

/** Fixed, realistic creation time of the fixture users (deterministic snapshots). */
const FIXTURE_CREATED_AT = '2024-01-15T09:30:00+00:00';

const OWNER: ContactRecord = {
  address: 'Flat 2\n14 Queen Street',
  avatarUrl: '',
  cc: 'GBR',
  ccAlpha2: 'GB',
  ccAlpha3: 'GBR',
  city: 'London',
  company_name: 'Owner Web Ltd',
  company_number: '09876543',
  createdAt: FIXTURE_CREATED_AT,
  email: 'owner@example.com',
  ext_billing_ref: 'CUST-1001',
  nominet_contact_type: 'LTD',
  notes: 'Account owner',
  pc: 'EC4N 1SA',
  person_name: 'Alex Owner',
  sp: 'Greater London',
  trading_name: 'Owner Web',
  voice: '+44.2079460000',
  firstName: 'Alex',
  lastName: 'Owner',
};

const OPS: ContactRecord = {
  address: '500 Congress Avenue\nSuite 210',
  avatarUrl: 'https://www.example.org/avatars/sam.png',
  cc: 'USA',
  ccAlpha2: 'US',
  ccAlpha3: 'USA',
  city: 'Austin',
  company_name: 'Example Ops LLC',
  company_number: '',
  createdAt: '2024-02-03T14:05:00+00:00',
  email: 'ops@example.org',
  ext_billing_ref: null,
  nominet_contact_type: 'IND',
  notes: 'Operations contact',
  pc: '78701',
  person_name: 'Sam Ops',
  sp: 'TX',
  trading_name: '',
  voice: '+1.5125550100',
  firstName: 'Sam',
  lastName: 'Ops',
};

/** A state with only the default account, as on a first start or after a reset. */
export function freshState(defaultKeySha256: string): State {
  const state: State = {
    version: STATE_VERSION,
    defaultAccountId: DEFAULT_RESELLER_ID,
    counters: { packageId: 1_000_001, userId: 989_903, mailId: 1, serverId: 300_001, dnsRef: 7_000_001 },
    accounts: [],
  };
  // The default account's users have the well-known ids the docs and examples use.
  addFixtureAccount(state, DEFAULT_RESELLER_ID, defaultKeySha256, FIXTURE_BALANCE_CENTS, [989_901, 989_902]);
  return state;
}

/**
 * Adds an account with fixtures. Users get `userIds` when given, else ids from the
 * global counter, so they never collide with another account's users.
 */
export function addFixtureAccount(
  state: State,
  id: number,
  keySha256: string,
  balanceCents: number,
  userIds?: readonly [number, number],
): Account {
  const ids = userIds ?? [state.counters.userId++, state.counters.userId++];
  const users: User[] = [
    { id: ids[0], contact: { ...OWNER }, packageGrants: [] },
    { id: ids[1], contact: { ...OPS }, packageGrants: [] },
  ];
  const account: Account = {
    id,
    keySha256,
    balanceCents,
    brand: null,
    packageTypes: FIXTURE_PACKAGE_TYPES.map((t) => ({ ...t })),
    users,
    packages: [],
    cloudServers: [],
  };
  state.accounts.push(account);
  return account;
}
