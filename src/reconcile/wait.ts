import { setTimeout as delay } from 'node:timers/promises';
import { StoppedError } from './errors';

/** Polling helpers: the API is eventually consistent, so every write is confirmed by reading back. */

/** Waits `ms`; when `stop` is aborted first (or already), rejects with a StoppedError at once. */
export async function sleep(ms: number, stop?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal: stop });
  } catch (err) {
    throw stop?.aborted ? new StoppedError() : err;
  }
}

export interface PollOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** First delay between reads; doubles up to maxIntervalMs. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Ends the wait at once with a StoppedError (ReconcileContext.stop). */
  stop?: AbortSignal;
}

/** Reads until `check` returns a value other than undefined, or the time is up (returns undefined). */
export async function pollUntil<T>(check: () => Promise<T | undefined>, options: PollOptions): Promise<T | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  let interval = options.intervalMs ?? 100;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() + interval > deadline) return undefined;
    await sleep(interval, options.stop);
    interval = Math.min(interval * 2, options.maxIntervalMs ?? 2000);
  }
}

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
