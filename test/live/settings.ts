import { randomBytes } from 'node:crypto';
import { checkDomainName } from '../../src/protocol';

/**
 * The live tier's settings, from the environment (docs/live-testing.md). The tier is
 * skipped unless RESELLER_LIVE=1; with RESELLER_LIVE=1 a missing or malformed
 * prerequisite is a loud failure (LivePrerequisiteError), never a silent skip.
 */
export const LIVE_ENV = {
  /** "1" runs the tier. */
  live: 'RESELLER_LIVE',
  url: 'RESELLER_API_URL',
  key: 'RESELLER_API_KEY',
  resellerId: 'RESELLER_ID',
  /** The domain every object's name ends in (a domain the account may use). */
  domain: 'RESELLER_LIVE_DOMAIN',
  /** "1" orders one cloud server (it costs money and cannot be cancelled through the API). */
  cloud: 'RESELLER_LIVE_CLOUD',
  /** The budget guard: at most this many objects created by the whole run. */
  maxCreates: 'RESELLER_LIVE_MAX_CREATES',
  /** Optional: the run id in the prefix (default: random). */
  runId: 'RESELLER_LIVE_RUN_ID',
  /** Optional: two package type names or ids, "first,second" (default: the account's first two Linux types). */
  packageTypes: 'RESELLER_LIVE_PACKAGE_TYPES',
  /** Optional: the spec of the cloud server (default micro). */
  cloudSpec: 'RESELLER_LIVE_CLOUD_SPEC',
  /**
   * Optional: a domain name the account has registered. The tier adopts its nameservers
   * and transfer lock as they are (import, no write) and then forgets them: it never
   * changes a registration (its nameservers carry the domain's DNS).
   */
  registration: 'RESELLER_LIVE_REGISTRATION',
} as const;

/** Objects the lifecycle creates, with its re-creations (drift, delete): the default budget. */
export const DEFAULT_MAX_CREATES = 16;

export interface LiveSettings {
  readonly url: string;
  readonly apiKey: string;
  readonly resellerId?: string;
  readonly domain: string;
  readonly runId: string;
  /** `tfacc-<run id>-`: the start of every name the run creates, and what its sweep removes. */
  readonly prefix: string;
  readonly cloud: boolean;
  readonly cloudSpec: string;
  readonly maxCreates: number;
  readonly packageTypes?: readonly [string, string];
  /** A registered domain name whose nameservers and lock the tier adopts as they are (never writes); undefined: none. */
  readonly registration?: string;
  /** Passed to every Terraform run and client as they are (RESELLER_POLL_INTERVAL and friends). */
  readonly passEnv: NodeJS.ProcessEnv;
}

export class LivePrerequisiteError extends Error {
  constructor(problems: string[]) {
    super(`RESELLER_LIVE=1 but the live tier cannot run:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
      'See docs/live-testing.md. Unset RESELLER_LIVE to skip the tier.');
    this.name = 'LivePrerequisiteError';
  }
}

/** undefined: the tier is off (RESELLER_LIVE is not "1"). Throws when it is on and something is missing. */
export function liveSettings(env: NodeJS.ProcessEnv): LiveSettings | undefined {
  if (env[LIVE_ENV.live] !== '1') return undefined;
  const problems: string[] = [];
  const need = (name: string, what: string) => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is not set: ${what}`);
    return value ?? '';
  };
  const url = need(LIVE_ENV.url, 'the API\'s base URL').replace(/\/+$/, '');
  const apiKey = need(LIVE_ENV.key, 'the reseller\'s general API key');
  const domain = need(LIVE_ENV.domain, 'a domain the account may use; every object is named tfacc-<run id>-... under it').toLowerCase();
  if (url && !/^https?:\/\/\S+$/.test(url)) problems.push(`${LIVE_ENV.url} must be an http(s) URL`);
  const domainProblem = domain ? checkDomainName(domain) : undefined;
  if (domainProblem) problems.push(`${LIVE_ENV.domain} ${domainProblem}`);
  const runId = env[LIVE_ENV.runId]?.trim().toLowerCase() || randomBytes(3).toString('hex');
  if (!/^[a-z0-9]{1,12}$/.test(runId)) problems.push(`${LIVE_ENV.runId} must be 1 to 12 letters or digits`);
  const maxCreates = env[LIVE_ENV.maxCreates] ? Number(env[LIVE_ENV.maxCreates]) : DEFAULT_MAX_CREATES;
  if (!Number.isInteger(maxCreates) || maxCreates < 1) problems.push(`${LIVE_ENV.maxCreates} must be a whole number >= 1`);
  const types = env[LIVE_ENV.packageTypes]?.split(',').map((t) => t.trim()).filter(Boolean);
  if (types && types.length !== 2) problems.push(`${LIVE_ENV.packageTypes} must name two package types, "first,second"`);
  const registration = env[LIVE_ENV.registration]?.trim().toLowerCase() || undefined;
  const registrationProblem = registration ? checkDomainName(registration) : undefined;
  if (registrationProblem) problems.push(`${LIVE_ENV.registration} ${registrationProblem}`);
  if (problems.length) throw new LivePrerequisiteError(problems);
  const passEnv: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (/^RESELLER_(POLL|CONFIRM|PROGRESS)_/.test(name)) passEnv[name] = value;
  return {
    url, apiKey, domain, runId, prefix: `tfacc-${runId}-`,
    resellerId: env[LIVE_ENV.resellerId] || undefined,
    cloud: env[LIVE_ENV.cloud] === '1',
    cloudSpec: env[LIVE_ENV.cloudSpec] || 'micro',
    maxCreates,
    packageTypes: types ? [types[0], types[1]] : undefined,
    registration,
    passEnv,
  };
}
