import { setMaxListeners } from 'node:events';
import { ResellerClient } from '../client';
import { createContext, EnsureHistory, ReconcileContext, sleep, StoppedError, timingFromEnv } from '../reconcile';
import type { ProviderSettings } from './provider-config';

/** The connection and the shared reconcile context of this provider process (one per provider block). */
export class Connection {
  #ctx: ReconcileContext | undefined;
  /** Aborted by Terraform's StopProvider (a Ctrl-C): every wait of a call in flight ends at once. */
  readonly #stop = new AbortController();

  constructor() {
    // Every read and wait in flight listens to it (tens at once in a large apply): not a leak.
    setMaxListeners(0, this.#stop.signal);
  }

  configure(settings: ProviderSettings, env: NodeJS.ProcessEnv): string | undefined {
    if (!settings.apiUrl) return 'api_url is not set';
    const baseUrl = settings.apiUrl.replace(/\/+$/, '');
    if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) return `api_url must be an http(s) URL, got "${baseUrl}"`;
    const client = new ResellerClient({
      baseUrl, apiKey: settings.apiKey, resellerId: settings.resellerId || '*',
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
      ...(settings.requestTimeoutMs !== undefined ? { timeoutMs: settings.requestTimeoutMs } : {}),
      userAgent: settings.userAgent,
      log: settings.logRequest && ((_line, attempt) => attempt && settings.logRequest!(attempt)),
      // On StopProvider, a read in flight and a retry's wait (a 429's Retry-After may ask for a minute) end at once.
      stop: this.#stop.signal,
      sleep: (ms) => sleep(ms, this.#stop.signal),
    });
    const timing = {
      ...timingFromEnv(env),
      ...(settings.confirmTimeoutMs !== undefined ? { confirmTimeoutMs: settings.confirmTimeoutMs } : {}),
      ...(settings.pollIntervalMs !== undefined ? { pollIntervalMs: settings.pollIntervalMs } : {}),
    };
    // One context for the process: its list caches make N reads cost one list request per kind.
    this.#ctx = createContext({ client, timing, sharedReads: true, stop: this.#stop.signal });
    return undefined;
  }

  get ctx(): ReconcileContext {
    if (!this.#ctx) throw new Error('the reseller provider is not configured');
    return this.#ctx;
  }

  /** Terraform asked the provider to stop: the calls in flight end their waits and start nothing more. */
  stop(): void {
    this.#stop.abort();
  }

  /** The shared context, undefined before ConfigureProvider (a validate-only process). */
  get ctxIfConfigured(): ReconcileContext | undefined {
    return this.#ctx;
  }

  /** The shared context with this call's output, password source and history (same list cache). */
  forCall(options: { info: (line: string) => void; warn: (line: string) => void; secret?: string; history?: EnsureHistory }): ReconcileContext {
    const secret = options.secret;
    return {
      ...this.ctx,
      info: (line) => {
        // Between two steps of a call (a write, its read-back): nothing more is started once stopped.
        if (this.#stop.signal.aborted) throw new StoppedError();
        options.info(line);
      },
      warn: options.warn,
      secret: () => secret,
      history: options.history,
    };
  }
}
