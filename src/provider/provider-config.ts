import type { AttemptRecord } from '../client';
import { durationFromEnv, TIMING_ENV, TimingSetting } from '../protocol/durations';
import { MISSING_API_URL, SERVICE_API_URL } from '../protocol/handler-contract';
import { attributePath, Diagnostic, error, warning } from './diagnostics';
import { parseDuration } from './resources/durations';
import type { Schema } from './wire/rpc';
import { isUnknown, TfObject, TfType, TfValue, typeJson } from './wire/values';

/**
 * The provider block: its schema, the checks of its values (ValidateProviderConfig, at
 * plan time, on the attribute) and the settings it resolves to with the environment as
 * fallback (ConfigureProvider). Every attribute may be unknown while planning (a value
 * from a resource not created yet): that is never an error.
 */

/** Where and how the provider talks to one reseller account. */
export interface ProviderSettings {
  readonly apiUrl?: string;
  readonly resellerId?: string;
  /** From `api_key`, else RESELLER_API_KEY. Never logged, never in a diagnostic. */
  readonly apiKey: string;
  readonly maxRetries?: number;
  readonly requestTimeoutMs?: number;
  readonly confirmTimeoutMs?: number;
  readonly pollIntervalMs?: number;
  /** The User-Agent of API requests (this library's, Terraform's and Node's versions). */
  readonly userAgent?: string;
  /** Receives each HTTP attempt (logged at debug). */
  readonly logRequest?: (attempt: AttemptRecord) => void;
}

type Check = (value: string | number) => string | undefined;

interface ProviderAttribute {
  readonly name: string;
  readonly type: 'string' | 'number';
  /** The environment variable used when the attribute is not set. */
  readonly env: string;
  /** A timing setting whose former environment spelling (`..._MS`) is still read, with a warning. */
  readonly timing?: TimingSetting;
  readonly description: string;
  readonly sensitive?: boolean;
  /** The rule a value breaks, or undefined. */
  readonly check: Check;
}

const URL_RULE: Check = (v) => {
  const text = String(v);
  if (!/^https?:\/\/[^/\s?#]+[^\s]*$/.test(text)) return `must be an http(s) URL such as https://api.example.com, got "${text}"`;
  if (/^https?:\/\/[^/?#]*@/.test(text)) return 'must not contain credentials (user:password@): the API key is the only credential';
  return undefined;
};
const RESELLER_ID_RULE: Check = (v) =>
  /^(\*|[A-Za-z0-9_.-]+)$/.test(String(v)) ? undefined : 'must be "*" or an id of letters, digits, ".", "_" or "-"';
const KEY_RULE: Check = (v) => (String(v).trim() === '' ? 'must not be empty' : undefined);
const RETRIES_RULE: Check = (v) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 100 ? undefined : `must be a whole number from 0 to 100, got ${String(v)}`;
};
const DURATION_RULE: Check = (v) => {
  const ms = parseDuration(String(v));
  return ms !== undefined && ms > 0 ? undefined : `must be a duration such as "30s", "2m" or "500ms", got "${String(v)}"`;
};

export const PROVIDER_ATTRIBUTES: readonly ProviderAttribute[] = [
  { name: 'api_url', type: 'string', env: 'RESELLER_API_URL', check: URL_RULE,
    description: `Base URL of the reseller API, e.g. ${SERVICE_API_URL} (default: RESELLER_API_URL; one of them is required).` },
  { name: 'reseller_id', type: 'string', env: 'RESELLER_ID', check: RESELLER_ID_RULE,
    description: 'Reseller id, when the API key gives access to several accounts (default: RESELLER_ID, else "*", the key\'s own account).' },
  { name: 'api_key', type: 'string', env: 'RESELLER_API_KEY', check: KEY_RULE, sensitive: true,
    description: 'The reseller\'s general API key (default: RESELLER_API_KEY). For several accounts in one configuration: give it from an ephemeral variable (Terraform >= 1.10) so it stays out of plan files; never a literal.' },
  { name: 'max_retries', type: 'number', env: 'RESELLER_MAX_RETRIES', check: RETRIES_RULE,
    description: 'Retries of a request after the first attempt, where the retry policy allows one (default: RESELLER_MAX_RETRIES, else 4).' },
  { name: 'request_timeout', type: 'string', env: 'RESELLER_REQUEST_TIMEOUT', check: DURATION_RULE,
    description: 'Deadline of one HTTP attempt, e.g. "30s" (default: RESELLER_REQUEST_TIMEOUT, else 30s).' },
  { name: 'confirm_timeout', type: 'string', env: TIMING_ENV.confirmTimeout.name, timing: 'confirmTimeout', check: DURATION_RULE,
    description: 'How long to read back after a write until the change is visible, e.g. "30s" (default: RESELLER_CONFIRM_TIMEOUT, else 30s).' },
  { name: 'poll_interval', type: 'string', env: TIMING_ENV.pollInterval.name, timing: 'pollInterval', check: DURATION_RULE,
    description: 'Pause between read-backs while waiting, e.g. "2s" (default: RESELLER_POLL_INTERVAL, else 2s).' },
];

export const PROVIDER_TYPE: TfType = ['object', Object.fromEntries(PROVIDER_ATTRIBUTES.map((a) => [a.name, a.type]))];

export const PROVIDER_SCHEMA: Schema = {
  version: 0,
  block: {
    version: 0,
    description: 'Manages a web-hosting reseller account. Each setting falls back to an environment variable; the API key to RESELLER_API_KEY.',
    attributes: PROVIDER_ATTRIBUTES.map((a) => ({
      name: a.name, type: typeJson(a.type), optional: true, description: a.description, ...(a.sensitive ? { sensitive: true } : {}),
    })),
  },
};

/** Diagnostics for the known values of the provider block that break a rule, each on its attribute. */
export function validateProviderConfig(config: TfObject | null): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const attribute of PROVIDER_ATTRIBUTES) {
    const value = config?.[attribute.name] ?? null;
    if (value === null || isUnknown(value)) continue;
    const rule = attribute.check(value as string | number);
    // The key's value is never repeated back, whatever it is.
    if (rule) out.push(error(`Invalid ${attribute.name}: ${attribute.sensitive ? 'must not be empty' : rule}`, `provider "reseller": ${attribute.name} ${attribute.sensitive ? 'must not be empty' : rule}.`, attributePath(attribute.name)));
  }
  return out;
}

/** What ConfigureProvider found: settings, attributes known only after apply, or what is wrong. */
export type Resolved =
  | { readonly settings: ProviderSettings; readonly warnings: readonly Diagnostic[] }
  | { readonly unknown: readonly string[] }
  | { readonly diagnostics: readonly Diagnostic[] };

/** The settings of a provider block, each attribute falling back to its environment variable. */
export function resolveProviderSettings(config: TfObject | null, env: NodeJS.ProcessEnv): Resolved {
  const unknown = PROVIDER_ATTRIBUTES.filter((a) => isUnknown(config?.[a.name])).map((a) => a.name);
  if (unknown.length) return { unknown };
  const diagnostics = validateProviderConfig(config);
  const values: Record<string, string | number | undefined> = {};
  const warnings: Diagnostic[] = [];
  for (const attribute of PROVIDER_ATTRIBUTES) {
    const value: TfValue = config?.[attribute.name] ?? null;
    if (value !== null) {
      values[attribute.name] = value as string | number;
      continue;
    }
    const fromEnv = env[attribute.env];
    if (fromEnv !== undefined && fromEnv !== '') {
      const parsed = attribute.type === 'number' ? Number(fromEnv) : fromEnv;
      const rule = attribute.check(parsed);
      if (rule) diagnostics.push(error(`Invalid ${attribute.env}`, `${attribute.env} (the default of ${attribute.name}) ${attribute.sensitive ? 'must not be empty' : rule}.`));
      else values[attribute.name] = parsed;
    } else if (attribute.timing) {
      const ms = durationFromEnv(env, attribute.timing, (message) => warnings.push(warning(`Deprecated ${TIMING_ENV[attribute.timing!].former}`, `${message}.`)));
      if (ms !== undefined) values[attribute.name] = `${ms}ms`;
    }
  }
  if (values.api_url === undefined) {
    diagnostics.push(error('Missing API URL: set api_url or RESELLER_API_URL', `${MISSING_API_URL}.`, attributePath('api_url')));
  }
  if (values.api_key === undefined) {
    diagnostics.push(error(
      'Missing API key: set api_key or RESELLER_API_KEY',
      'The reseller provider reads the API key from its api_key attribute (give it from an ephemeral variable, Terraform >= 1.10, so it stays out of plan files) or, when that is not set, from the RESELLER_API_KEY environment variable.',
      attributePath('api_key'),
    ));
  }
  if (diagnostics.length) return { diagnostics };
  const ms = (name: string) => (values[name] === undefined ? undefined : parseDuration(String(values[name])));
  return {
    warnings,
    settings: {
      apiUrl: values.api_url as string | undefined,
      resellerId: values.reseller_id as string | undefined,
      apiKey: String(values.api_key),
      maxRetries: values.max_retries === undefined ? undefined : Number(values.max_retries),
      requestTimeoutMs: ms('request_timeout'),
      confirmTimeoutMs: ms('confirm_timeout'),
      pollIntervalMs: ms('poll_interval'),
    },
  };
}
