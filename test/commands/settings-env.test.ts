import { durationFromEnv } from '../../src/protocol';
import { resolveProviderSettings } from '../../src/provider/provider-config';
import { DEFAULT_TIMING, timingFromEnv } from '../../src/reconcile';

/**
 * One environment variable per setting: RESELLER_POLL_INTERVAL and
 * RESELLER_CONFIRM_TIMEOUT (durations, as the provider block takes them) for the handler,
 * drift --fix, sweep and the provider alike. The former `_MS` spellings are still read
 * for one release, each with a warning naming the new spelling.
 */
function warnings(): { list: string[]; warn: (m: string) => void } {
  const list: string[] = [];
  return { list, warn: (m) => list.push(m) };
}

test('the handler and the commands read the durations under their one name', () => {
  const w = warnings();
  expect(timingFromEnv({ RESELLER_POLL_INTERVAL: '100ms', RESELLER_CONFIRM_TIMEOUT: '5s' }, w.warn)).toMatchObject({ pollIntervalMs: 100, confirmTimeoutMs: 5000 });
  expect(timingFromEnv({}, w.warn)).toEqual(DEFAULT_TIMING);
  expect(w.list).toEqual([]);
});

test('the former _MS spellings still work, and say which name replaces them', () => {
  const w = warnings();
  expect(timingFromEnv({ RESELLER_POLL_INTERVAL_MS: '100', RESELLER_CONFIRM_TIMEOUT_MS: '5000' }, w.warn)).toMatchObject({ pollIntervalMs: 100, confirmTimeoutMs: 5000 });
  expect(w.list).toEqual([
    'RESELLER_CONFIRM_TIMEOUT_MS is deprecated and will be removed in the next release: use RESELLER_CONFIRM_TIMEOUT=5000ms',
    'RESELLER_POLL_INTERVAL_MS is deprecated and will be removed in the next release: use RESELLER_POLL_INTERVAL=100ms',
  ]);
  // The current name wins, without a warning.
  const both = warnings();
  expect(durationFromEnv({ RESELLER_POLL_INTERVAL: '2s', RESELLER_POLL_INTERVAL_MS: '100' }, 'pollInterval', both.warn)).toBe(2000);
  expect(both.list).toEqual([]);
  // A value that is no duration is said, and the default applies.
  const bad = warnings();
  expect(timingFromEnv({ RESELLER_POLL_INTERVAL: '100' }, bad.warn).pollIntervalMs).toBe(DEFAULT_TIMING.pollIntervalMs);
  expect(bad.list).toEqual(['RESELLER_POLL_INTERVAL="100" is not a duration such as "2s" or "500ms": the default applies']);
});

test('the provider takes the same variables as its block\'s defaults; the former spelling is a warning diagnostic', () => {
  const base = { RESELLER_API_KEY: 'k', RESELLER_API_URL: 'http://127.0.0.1:1' };
  const current = resolveProviderSettings(null, { ...base, RESELLER_POLL_INTERVAL: '100ms' });
  expect(current).toMatchObject({ settings: { pollIntervalMs: 100 }, warnings: [] });
  const former = resolveProviderSettings(null, { ...base, RESELLER_POLL_INTERVAL_MS: '100', RESELLER_CONFIRM_TIMEOUT_MS: '4000' });
  expect(former).toMatchObject({ settings: { pollIntervalMs: 100, confirmTimeoutMs: 4000 } });
  expect('warnings' in former && former.warnings.map((d) => [d.severity, d.summary, d.detail])).toEqual([
    [2, 'Deprecated RESELLER_CONFIRM_TIMEOUT_MS', 'RESELLER_CONFIRM_TIMEOUT_MS is deprecated and will be removed in the next release: use RESELLER_CONFIRM_TIMEOUT=4000ms.'],
    [2, 'Deprecated RESELLER_POLL_INTERVAL_MS', 'RESELLER_POLL_INTERVAL_MS is deprecated and will be removed in the next release: use RESELLER_POLL_INTERVAL=100ms.'],
  ]);
});
