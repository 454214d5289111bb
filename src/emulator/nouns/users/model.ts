import { arrayOf, Check, fields, int, nullable, str } from '../../shape';
import type { NewAccount } from '../registry';

/**
 * Control-panel users: their part of the state (`account.users`, the `userId`
 * counter), its fixtures, its check and its part of the state dump.
 */

declare module '../../backend/model' {
  interface Account {
    users: User[];
  }
  interface Counters {
    /** Next control-panel user id (`stack-user:<n>`). */
    userId: number;
  }
}

declare module '../../snapshot' {
  interface AccountDump {
    users: UserDump[];
  }
}

/** Contact record of a control-panel user: every field of spec 2.2. */
export interface ContactRecord {
  address: string;
  avatarUrl: string;
  cc: string;
  ccAlpha2: string;
  ccAlpha3: string;
  city: string;
  company_name: string;
  company_number: string;
  createdAt: string;
  email: string;
  ext_billing_ref: string | null;
  nominet_contact_type: string;
  notes: string;
  pc: string;
  person_name: string;
  sp: string;
  trading_name: string;
  voice: string;
  firstName: string;
  lastName: string;
}

export interface User {
  /** Numeric part of `stack-user:<id>`. */
  id: number;
  contact: ContactRecord;
  /** Package ids this user is granted (`package:<id>` in the grant map), ascending. */
  packageGrants: number[];
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

const contactFields: Record<keyof ContactRecord, Check> = {
  address: str, avatarUrl: str, cc: str, ccAlpha2: str, ccAlpha3: str, city: str, company_name: str,
  company_number: str, createdAt: str, email: str, ext_billing_ref: nullable(str), nominet_contact_type: str,
  notes: str, pc: str, person_name: str, sp: str, trading_name: str, voice: str, firstName: str, lastName: str,
};

export const userCheck: Check = (v) => fields(v, { id: int, packageGrants: arrayOf(int) }) && fields((v as { contact: unknown }).contact, contactFields);

// ---------------------------------------------------------------------------------
// Fixtures: two users with complete contact records in every account.

/** The ids of the default account's fixture users (the docs and examples use them); the counter starts after them. */
const WELL_KNOWN_IDS = [989_901, 989_902] as const;
export const FIRST_USER_ID = 989_903;

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

/**
 * The fixture users of a new account: the default account's have the well-known ids,
 * any other account's come from the global counter, so they never collide.
 */
export function fixtureUsers({ state, first }: NewAccount): User[] {
  const ids = first ? WELL_KNOWN_IDS : [state.counters.userId++, state.counters.userId++];
  return [
    { id: ids[0], contact: { ...OWNER }, packageGrants: [] },
    { id: ids[1], contact: { ...OPS }, packageGrants: [] },
  ];
}
