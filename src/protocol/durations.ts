/** Parses a Terraform-style duration ("45m", "1h30m", "90s") into milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, , name] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|h|m|s)/g)) total += Number(amount) * unit[name];
  return total;
}

/**
 * The timing settings the environment holds, one variable each (durations such as "2s",
 * "500ms"), as the provider block's `confirm_timeout` and `poll_interval` take them. The
 * former spellings, `..._MS` with a number of milliseconds, are read for one release,
 * with a warning naming the new one.
 */
export const TIMING_ENV = {
  confirmTimeout: { name: 'RESELLER_CONFIRM_TIMEOUT', former: 'RESELLER_CONFIRM_TIMEOUT_MS' },
  pollInterval: { name: 'RESELLER_POLL_INTERVAL', former: 'RESELLER_POLL_INTERVAL_MS' },
} as const;

export type TimingSetting = keyof typeof TIMING_ENV;

/**
 * A timing setting from the environment in milliseconds, or undefined when it is not set
 * (or not usable: `warn` says why and the default applies). The current name wins over
 * the former one; the former one warns.
 */
export function durationFromEnv(env: NodeJS.ProcessEnv, setting: TimingSetting, warn: (message: string) => void = () => undefined): number | undefined {
  const { name, former } = TIMING_ENV[setting];
  const text = env[name];
  if (text !== undefined && text.trim() !== '') {
    const ms = parseDuration(text);
    if (ms !== undefined && ms > 0) return ms;
    warn(`${name}="${text}" is not a duration such as "2s" or "500ms": the default applies`);
    return undefined;
  }
  const old = env[former];
  if (old === undefined || old.trim() === '') return undefined;
  const ms = Number(old);
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  warn(`${former} is deprecated and will be removed in the next release: use ${name}=${ms}ms`);
  return ms;
}
