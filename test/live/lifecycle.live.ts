import { liveSettings } from './settings';
import { defineLiveTier } from './tier';

/**
 * `npm run test:live`: the live tier against the account in the environment
 * (docs/live-testing.md). Skipped unless RESELLER_LIVE=1; with RESELLER_LIVE=1, a
 * missing RESELLER_API_URL, RESELLER_API_KEY or RESELLER_LIVE_DOMAIN fails the run
 * here, loudly, before anything is created.
 */
const settings = liveSettings(process.env);

if (settings) {
  defineLiveTier(`live tier against ${settings.url} (prefix ${settings.prefix}, domain ${settings.domain})`, () => settings);
} else {
  describe.skip('live tier (set RESELLER_LIVE=1, RESELLER_API_URL, RESELLER_API_KEY and RESELLER_LIVE_DOMAIN to run it)', () => {
    it('runs the lifecycle against a real account', () => undefined);
  });
}
