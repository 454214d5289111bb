import { startEmulator } from '../../src/emulator';
import type { EmulatorProfile, RunningEmulator } from '../../src/emulator';
import { liveSettings } from './settings';
import { defineLiveTier, LIVE_TIMEOUT_MS } from './tier';

/**
 * The live tier itself, tested in `npm test`: it runs as a user runs it against a real
 * account (RESELLER_LIVE=1, the account's URL and key, a domain), with the emulator's
 * URL, in both profiles. In the default profile it also orders a cloud server
 * (RESELLER_LIVE_CLOUD=1), which the sweep must keep. Afterwards the account holds no
 * object with the tier's prefix but that server.
 */
jest.setTimeout(LIVE_TIMEOUT_MS);

const KEY = 'live-tier-key';

describe.each<EmulatorProfile>(['default', 'documented'])('the live tier against the emulator (%s profile)', (profile) => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey: KEY, profile, provisionDelayMs: 200, quiet: true });
  });
  afterAll(() => emulator?.stop());

  defineLiveTier('RESELLER_LIVE=1 with the emulator as the account', () => liveSettings({
    RESELLER_LIVE: '1',
    RESELLER_API_URL: emulator.url,
    RESELLER_API_KEY: KEY,
    RESELLER_LIVE_DOMAIN: 'live-tier.example',
    RESELLER_LIVE_REGISTRATION: 'example-registered.net',
    RESELLER_POLL_INTERVAL: '100ms',
    ...(profile === 'default' ? { RESELLER_LIVE_CLOUD: '1' } : {}),
  })!);

  // In a describe of its own, after the tier's: it runs once the tier's afterAll (the cleanup) is done.
  describe('afterwards', () => it('leaves no object with the tfacc- prefix behind (but the cloud server, which the API cannot cancel)', () => {
    const account = emulator.snapshot().accounts.find((a) => a.isDefault)!;
    const names = [
      ...account.packages.flatMap((p) => [...p.names, ...p.mail.flatMap((d) => [...d.mailboxes, ...d.forwarders].map((o) => `${o.local}@${d.domain}`))]),
      ...account.packages.flatMap((p) => p.dns.flatMap((z) => z.records.map((r) => String(r.host)))),
      ...account.users.map((u) => u.contact.email),
    ];
    expect(names.filter((n) => n?.includes('tfacc-'))).toEqual([]);
    expect(account.cloudServers.map((s) => s.name)).toEqual(profile === 'default' ? [expect.stringMatching(/^tfacc-[0-9a-f]{6}-web\.live-tier\.example$/)] : []);
  }));
});
