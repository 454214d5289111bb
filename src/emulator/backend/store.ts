import { State } from './model';
import { DataFile } from '../persistence';
import { recording, undo, UndoLog } from './undo-log';

/**
 * Holds the state and runs every change as a transaction: the change is applied to
 * the live state, then saved to the data file; if the change throws (a validation or
 * conflict error halfway) or the save fails, the state is put back as it was (the
 * undo log of undo-log.ts: a write costs what it changes, not a copy of the state).
 * So a failed request never leaves a partial change behind, in memory or on disk.
 *
 * Transactions are synchronous (see persistence.ts): callers must not await inside.
 */
export class Store {
  private live: State;

  constructor(
    initial: State,
    private readonly dataFile: DataFile | null,
  ) {
    this.live = initial;
  }

  /** The current state, for reading. Do not change it outside `transact`. */
  get state(): State {
    return this.live;
  }

  transact<T>(change: (state: State) => T): T {
    const log: UndoLog = [];
    try {
      const result = change(recording(this.live, log));
      this.dataFile?.save(this.live);
      return result;
    } catch (err) {
      undo(log);
      throw err;
    }
  }

  /** Replaces the whole state (reset), saved like any other change. */
  replace(next: State): void {
    const before = this.live;
    this.live = next;
    try {
      this.dataFile?.save(this.live);
    } catch (err) {
      this.live = before;
      throw err;
    }
  }
}
