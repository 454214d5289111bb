/**
 * The request log (GET/DELETE /__emulator/requests): one entry per API request,
 * including rejected ones (401s have `account: null`). It never holds bodies or
 * headers, so no key or password can leak through it. Control API requests are not
 * logged. Bounded: the oldest entries are dropped beyond MAX_ENTRIES.
 */

export interface RequestLogEntry {
  /** When the request arrived (ISO 8601). */
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Status sent, or that would have been sent when the connection was dropped. */
  status: number;
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  /** Reseller id of the authenticated account, null when authentication failed. */
  account: number | null;
  /** The injected fault that fired, if any. */
  fault: 'status' | 'latency' | 'drop' | null;
  /**
   * Present only when the request relied on a tolerance (ApiContext.tolerate): the
   * tolerances' names, never anything of the body.
   */
  tolerated?: string[];
}

export const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
