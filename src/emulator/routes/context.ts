import { Account, State } from '../backend/model';
import { EmulatorProfile } from '../profile';

/**
 * What an API route handler gets. For POST routes the handler runs inside a store
 * transaction: it may change `state` (and `account`, which belongs to it) directly,
 * and a thrown error undoes every change.
 */
export interface ApiContext {
  state: State;
  /** The caller's account (authenticated; `/reseller/{id}` already checked). */
  account: Account;
  params: Record<string, string>;
  /** Parsed body; undefined when the request had none. */
  body: unknown;
  /** The body was form-encoded (all values are strings). */
  form: boolean;
  /** The emulator's clock, epoch milliseconds. */
  nowMs: number;
  /** Provisioning delay in force now. */
  provisionDelayMs: number;
  /** `documented`: answer only with what a public source shows (see profile.ts). */
  profile: EmulatorProfile;
}
