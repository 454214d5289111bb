import { ConflictError, WriteOutcomeUnknownError } from '../client';
import type { ReconcileContext } from './context';
import { ReconcileError } from './errors';
import { pollUntil } from './wait';

export interface ConvergeStep {
  /** What is being done, for messages: `create mailbox info@example.com`. */
  readonly what: string;
  /** Reads the live state: true once the desired change is visible. */
  readonly isDone: () => Promise<boolean>;
  /** Performs the write once. */
  readonly write: () => Promise<void>;
  /**
   * Whether a 409 may mean "our own earlier write already happened" (creates of
   * objects the API deduplicates by natural key). Then it is answered by reading back.
   */
  readonly conflictMayBeOurs?: boolean;
  readonly maxAttempts?: number;
  readonly log?: (line: string) => void;
}

/**
 * Writes, then reads back until the change is visible (DESIGN section 3). A write
 * whose outcome is unknown is never repeated blindly: the live state is read first,
 * and only written again when the change is still not there.
 */
export async function converge(ctx: ReconcileContext, step: ConvergeStep): Promise<void> {
  const confirmTimeoutMs = () => ctx.timing.confirmTimeoutMs;
  const attempts = step.maxAttempts ?? 3;
  const visible = (timeoutMs: number) =>
    pollUntil(async () => ((await step.isDone()) ? true : undefined), { timeoutMs, stop: ctx.stop });
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let acknowledged = true;
    try {
      await step.write();
    } catch (err) {
      acknowledged = false;
      const unknown = err instanceof WriteOutcomeUnknownError;
      const maybeOurs = step.conflictMayBeOurs && err instanceof ConflictError;
      if (!unknown && !maybeOurs) throw err;
      lastError = err as Error;
      step.log?.(`${step.what}: ${unknown ? 'outcome unknown' : 'conflict'}, reading back before trying again (${lastError.message})`);
    }
    // An acknowledged write gets the full settling time; after an unknown outcome a short
    // look is enough, because writing again is safe (the API answers 409 for a duplicate).
    if (await visible(acknowledged ? confirmTimeoutMs() : Math.min(confirmTimeoutMs(), 5000))) return;
    if (attempt < attempts) step.log?.(`${step.what}: not visible yet, writing again (attempt ${attempt + 1} of ${attempts})`);
  }
  throw new ReconcileError(
    `${step.what}: the change is still not visible after ${attempts} attempts` + (lastError ? `; the API last answered: ${lastError.message}` : ''),
  );
}
