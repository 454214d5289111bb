/**
 * Logging the way go-plugin expects from a plugin: one hclog JSON object per line on
 * stderr. Terraform parses `@level`, `@message` and `@timestamp` and re-logs the line
 * under the plugin's name, so `TF_LOG=info` (or `TF_LOG_PROVIDER`) shows it and
 * Terraform's own level filter applies. Never pass secrets in a message or field.
 */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/** hclog's JSON timestamp layout has microseconds: 2006-01-02T15:04:05.000000Z07:00. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function hclogLine(level: LogLevel, message: string, fields: Record<string, unknown> = {}, now = new Date()): string {
  return `${JSON.stringify({ '@level': level, '@message': message, '@module': 'provider.reseller', '@timestamp': timestamp(now), ...fields })}\n`;
}

const LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

/**
 * The least level Terraform will show for this provider: TF_LOG_PROVIDER, else TF_LOG
 * (`JSON` is trace; unset or `OFF` shows nothing, but warnings and errors are kept).
 * Lines below it are not even formatted: a plan of thousands of resources would
 * otherwise write, and Terraform parse, a line per call for nothing.
 */
export function levelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const value = (env.TF_LOG_PROVIDER || env.TF_LOG || '').trim().toLowerCase();
  if (value === 'json') return 'trace';
  return (LEVELS as readonly string[]).includes(value) ? (value as LogLevel) : 'warn';
}

export function stderrLogger(
  write: (line: string) => void = (line) => process.stderr.write(line), least: LogLevel = levelFromEnv(process.env),
): Logger {
  const from = LEVELS.indexOf(least);
  return {
    log: (level, message, fields) => {
      if (LEVELS.indexOf(level) >= from) write(hclogLine(level, message, fields));
    },
  };
}
