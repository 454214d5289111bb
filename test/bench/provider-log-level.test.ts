import { levelFromEnv, stderrLogger } from '../../src/provider/transport/log';

/**
 * The provider writes only the log lines Terraform will show (a plan of thousands of
 * resources otherwise wrote, and Terraform parsed, a trace line per call).
 */
test('the level comes from TF_LOG_PROVIDER, else TF_LOG; without either only warnings and errors are written', () => {
  expect(levelFromEnv({})).toBe('warn');
  expect(levelFromEnv({ TF_LOG: 'off' })).toBe('warn');
  expect(levelFromEnv({ TF_LOG: 'TRACE' })).toBe('trace');
  expect(levelFromEnv({ TF_LOG: 'json' })).toBe('trace');
  expect(levelFromEnv({ TF_LOG: 'debug', TF_LOG_PROVIDER: 'INFO' })).toBe('info');
});

test('lines below the level are not written; the others are hclog JSON lines', () => {
  const lines: string[] = [];
  const logger = stderrLogger((line) => lines.push(line), 'info');
  logger.log('trace', 'resource call');
  logger.log('debug', 'configured');
  logger.log('info', 'waiting for web1.example.com');
  logger.log('error', 'failed');
  expect(lines.map((l) => JSON.parse(l)['@message'])).toEqual(['waiting for web1.example.com', 'failed']);
});
