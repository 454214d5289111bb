import type { Account, State } from './backend/model';
import type { Store } from './backend/store';
import type { Faults } from './faults';
import type { EmulatorProfile } from './profile';
import type { RequestLog } from './request-log';
import type { EmulatorStateDump } from './snapshot';

/**
 * What route handlers get: an API route (`ApiContext`) and a control-API route under
 * /__emulator/ (`ControlContext`). Every noun's routes are written against these.
 */

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
  /**
   * Notes that the request relied on a tolerance: a shape the emulator accepts although
   * no public source shows it and no client of ours sends it (the old mailbox update).
   * The request log names it (`tolerated`), so a test can show that nothing relies on one.
   */
  tolerate(name: string): void;
}

/** What the control API acts on (implemented by the server). */
export interface ControlTarget {
  readonly store: Store;
  readonly faults: Faults;
  readonly requestLog: RequestLog;
  provisionDelayMs: number;
  /** Back to fixtures (keeping the configured key); clears faults and the request log. */
  reset(): void;
  /** Removes every fault rule and lets the requests a latency fault is holding go on at once; returns how many it let go. */
  clearFaults(): number;
  snapshot(): EmulatorStateDump;
}

/** What a control-API route handler gets. A change goes through `emu.store.transact`. */
export interface ControlContext {
  emu: ControlTarget;
  body: unknown;
  query: URLSearchParams;
}
