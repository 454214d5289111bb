import type { RequestLogEntry } from '../../src/emulator';
import { routeOf } from './emulator';
import { median } from './stats';

/**
 * The API's share of an apply, from the emulator's request log: its own time per
 * request (arrival to response sent), writes and reads apart, and the requests of one
 * apply laid out from the apply's start (issue 27: "the margin is for the API's round
 * trips, so measure them too").
 */

export interface ApiTiming {
  writes: number;
  /** Median and 90th percentile of the emulator's time per write (POST), in ms. */
  writeMs: number;
  writeP90Ms: number;
  reads: number;
  readMs: number;
  readP90Ms: number;
}

function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function apiTiming(entries: readonly RequestLogEntry[]): ApiTiming {
  const writes = entries.filter((e) => e.method !== 'GET').map((e) => e.durationMs);
  const reads = entries.filter((e) => e.method === 'GET').map((e) => e.durationMs);
  return {
    writes: writes.length, writeMs: median(writes), writeP90Ms: percentile(writes, 90),
    reads: reads.length, readMs: median(reads), readP90Ms: percentile(reads, 90),
  };
}

/** One request of a timeline: when it arrived (ms after the command started), its route and the emulator's time on it. */
export interface PathStep {
  atMs: number;
  route: string;
  ms: number;
}

export function timeline(entries: readonly RequestLogEntry[], startedAt: number): PathStep[] {
  return entries
    .map((e) => ({ atMs: Date.parse(e.time) - startedAt, route: routeOf(e), ms: e.durationMs }))
    .sort((a, b) => a.atMs - b.atMs);
}
