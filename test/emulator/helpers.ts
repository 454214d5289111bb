import { EmulatorOptions, RunningEmulator, startEmulator } from '../../src/emulator';

/**
 * Test helpers: a running emulator and a tiny HTTP client on Node's global fetch
 * (deliberately not the project's client: these tests check the emulator alone).
 */

export const KEY = 'emulator-key';

/** The bearer token of a key: base64 of the key (api-notes "Conventions"). */
export function token(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64');
}

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** API key to send (base64-encoded); null sends no Authorization header. */
  key?: string | null;
  /** Raw Authorization header value (overrides key). */
  authorization?: string;
  /** Send the body form-encoded (the string is sent as is). */
  form?: string;
  /** Send this exact text as the body (with content-type JSON). */
  raw?: string;
  headers?: Record<string, string>;
}

export class Api {
  constructor(readonly url: string, readonly key: string = KEY) {}

  async call<T = any>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? this.key : opts.key;
    if (opts.authorization !== undefined) headers.Authorization = opts.authorization;
    else if (key !== null) headers.Authorization = `Bearer ${token(key)}`;
    let payload: string | undefined;
    if (opts.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      payload = opts.form;
    } else if (opts.raw !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = opts.raw;
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  get<T = any>(path: string, opts?: CallOptions) {
    return this.call<T>('GET', path, undefined, opts);
  }

  post<T = any>(path: string, body?: unknown, opts?: CallOptions) {
    return this.call<T>('POST', path, body, opts);
  }

  /** Another key on the same emulator. */
  as(key: string): Api {
    return new Api(this.url, key);
  }

  /** Control API (no key). */
  control<T = any>(method: string, path: string, body?: unknown) {
    return this.call<T>(method, `/__emulator/${path}`, body, { key: null });
  }

  /** Creates a package and returns its id. */
  async addWeb(domain: string, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await this.post('/reseller/*/addWeb', { type: '811', domain_name: domain, ...extra });
    if (res.status !== 200) throw new Error(`addWeb ${domain}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.result as number;
  }
}

export interface Harness {
  emu: RunningEmulator;
  api: Api;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ quiet: true, ...options });
  return { emu, api: new Api(emu.url, options.apiKey ?? KEY) };
}

export const cloudOrder = (overrides: Record<string, unknown> = {}, configuration: Record<string, unknown> = {}) => ({
  configuration: { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'web1.example.com', ...configuration },
  periodMonths: '1',
  type: 'cloud-20i',
  forUser: 'stack-user:989901',
  ...overrides,
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
