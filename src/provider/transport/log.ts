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

export function stderrLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  return { log: (level, message, fields) => write(hclogLine(level, message, fields)) };
}
