import { DETAIL_ROUTE, domainRequestsOf, domainsPlanMet, DomainsPlanTraffic, domainsPlanTraffic, LIST_ROUTE, NAMESERVERS_ROUTE } from '../../bench/domains-plan';
import { BenchEmulator, startBenchEmulator } from '../../bench/lib/emulator';
import { removeScratch } from '../../bench/lib/scratch';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * Issue 41, at a small size (`npm run bench -- --only domains-plan` runs 200): a
 * no-change `terraform plan` of 12 `reseller_domain_nameservers` and a `reseller_domains`
 * data source, applied through real Terraform, reads the registration list once and each
 * registration's nameservers once; nothing is written. Counts, never times.
 */
jest.setTimeout(300_000);

let emu: BenchEmulator;
let t: DomainsPlanTraffic;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startBenchEmulator();
  t = await domainsPlanTraffic(emu, { domains: 12 });
});
afterAll(async () => {
  await emu?.stop();
  removeScratch();
});

test('exactly one GET /domain and one nameservers read per registration; no detail read', () => {
  expect(domainRequestsOf(t, LIST_ROUTE)).toBe(1);
  expect(domainRequestsOf(t, NAMESERVERS_ROUTE)).toBe(12);
  expect(domainRequestsOf(t, DETAIL_ROUTE)).toBe(0);
  expect(t.plan.requests).toBe(13);
  expect(domainsPlanMet(t)).toBe(true);
});

test('the plan writes nothing', () => {
  expect(Object.keys(t.plan.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
});
