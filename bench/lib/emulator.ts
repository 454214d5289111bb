import { scratchDir } from './scratch';
import { startEmulator } from '../../src/emulator';
import type { RequestLogEntry, RunningEmulator } from '../../src/emulator';

export const BENCH_API_KEY = 'emulator-key';

/**
 * An emulator in this process, in memory (no data file: persisting every write would
 * measure the emulator's disk, not the tool), with its request log at hand.
 */
export async function startBenchEmulator(): Promise<BenchEmulator> {
  const emulator = await startEmulator({ port: 0, apiKey: BENCH_API_KEY, provisionDelayMs: 10, quiet: true });
  return new BenchEmulator(emulator);
}

export class BenchEmulator {
  constructor(readonly emulator: RunningEmulator) {}

  get url(): string {
    return this.emulator.url;
  }

  async control(method: string, path: string): Promise<unknown> {
    const res = await fetch(`${this.url}/__emulator/${path}`, { method });
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status}`);
    return res.json();
  }

  async requests(): Promise<RequestLogEntry[]> {
    return (await this.control('GET', 'requests')) as RequestLogEntry[];
  }

  async clearRequests(): Promise<void> {
    await this.control('DELETE', 'requests');
  }

  async reset(): Promise<void> {
    await this.control('POST', 'reset');
  }

  /** Environment of a handler process (as a provisioner gets it) with its own journal directory. */
  handlerEnv(journalDir = scratchDir('journal-')): NodeJS.ProcessEnv {
    return {
      ...process.env,
      RESELLER_API_URL: this.url,
      RESELLER_API_KEY: BENCH_API_KEY,
      RESELLER_HANDLER_STATE_DIR: journalDir,
      RESELLER_POLL_INTERVAL: '100ms',
    };
  }

  stop(): Promise<void> {
    return this.emulator.stop();
  }
}

/** `GET /package/site-3.example/email/site-3.example` -> `GET /package/{ref}/email/{domain}` (`.../dns/{zone}` likewise). */
export function routeOf(entry: Pick<RequestLogEntry, 'method' | 'path'>): string {
  const path = entry.path
    .replace(/^\/package\/[^/]+\/email\/[^/]+$/, '/package/{ref}/email/{domain}')
    .replace(/^\/package\/[^/]+\/dns\/[^/]+$/, '/package/{ref}/dns/{zone}')
    .replace(/^\/package\/[^/]+\/web\/([a-zA-Z]+)$/, '/package/{ref}/web/$1')
    .replace(/^\/package\/[^/]+(\/[a-zA-Z]+)?$/, (_m, rest: string | undefined) => `/package/{ref}${rest ?? ''}`)
    .replace(/^\/cloud_server\/[^/]+/, '/cloud_server/{id}')
    .replace(/^\/domain\/[^/]+(\/[a-zA-Z]+)?$/, (_m, rest: string | undefined) => `/domain/{name}${rest ?? ''}`);
  return `${entry.method} ${path}`;
}

export interface TrafficSummary {
  requests: number;
  bytes: number;
  byRoute: Record<string, { requests: number; bytes: number }>;
}

export function summarize(entries: readonly RequestLogEntry[]): TrafficSummary {
  const byRoute: TrafficSummary['byRoute'] = {};
  let bytes = 0;
  for (const e of entries) {
    const b = e.requestBytes + e.responseBytes;
    bytes += b;
    const r = (byRoute[routeOf(e)] ??= { requests: 0, bytes: 0 });
    r.requests++;
    r.bytes += b;
  }
  return { requests: entries.length, bytes, byRoute };
}
