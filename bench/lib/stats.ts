import { spawn } from 'node:child_process';

/** Small statistics and timing helpers for the benchmarks (no dependencies). */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit, in ms. */
  ms: number;
}

/**
 * Runs a process and times it. Asynchronous on purpose: an emulator running in this
 * process must keep answering while the child talks to it.
 */
export function timeProcess(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

export interface Comparison {
  /** Median wall time of the measured command, ms. */
  subjectMs: number;
  /** Median wall time of the baseline command, ms. */
  baselineMs: number;
  /** Median of the per-pair ratios subject/baseline (each pair ran back to back). */
  ratio: number;
  runs: number;
}

/**
 * Interleaves two timed actions (A B A B ... after `warmup` unmeasured pairs) so that
 * both see the same machine load, and compares them pair by pair. The order inside a
 * pair alternates too, so neither side always runs right after the other.
 */
export async function interleave(
  subject: () => Promise<number>,
  baseline: () => Promise<number>,
  runs: number,
  warmup = 1,
): Promise<Comparison> {
  return compare(await rounds({ subject, baseline }, runs, warmup), 'subject', 'baseline');
}

/** Each side's times (ms), one per measured round, rounds in order. */
export type Rounds<K extends string> = Record<K, number[]>;

/**
 * Runs every timed action once per round, `warmup` rounds unmeasured then `runs`
 * measured, so that all sides see the same machine load. The order rotates from one
 * round to the next (A B C, B C A, C A B, ...): no side always runs first, or always
 * right after the same other one.
 */
export async function rounds<K extends string>(actions: Record<K, () => Promise<number>>, runs: number, warmup = 1): Promise<Rounds<K>> {
  const names = Object.keys(actions) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Rounds<K>;
  for (let i = 0; i < warmup + runs; i++) {
    const order = names.map((_, j) => names[(i + j) % names.length]);
    const times = {} as Record<K, number>;
    for (const name of order) times[name] = await actions[name]();
    if (i >= warmup) for (const name of names) out[name].push(times[name]);
  }
  return out;
}

/** Two sides of the same rounds compared: medians, and the median of per-round ratios. */
export function compare<K extends string>(measured: Rounds<K>, subject: K, baseline: K): Comparison {
  const a = measured[subject];
  const b = measured[baseline];
  return { subjectMs: median(a), baselineMs: median(b), ratio: median(a.map((x, i) => x / b[i])), runs: a.length };
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
export async function pool<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
