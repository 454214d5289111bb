import { DnsPlanTraffic, dnsPlanMet, dnsPlanTraffic, ONE_ZONE_ROUTE, PACKAGE_LIST_ROUTE, requestsOf, ZONES_ROUTE } from '../../bench/dns-plan';
import { BenchEmulator, startBenchEmulator } from '../../bench/lib/emulator';
import { removeScratch } from '../../bench/lib/scratch';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * Issue 26, at a small size (`npm run bench -- --only dns-plan` runs 50 x 10): a
 * no-change `terraform plan` of 5 packages with 4 DNS records each (A, CNAME, TXT, MX),
 * applied through real Terraform, reads the package list once and each package's zones
 * once, whatever the number of records; nothing is written. Counts of requests by
 * route from the emulator's request log, never times.
 */
jest.setTimeout(300_000);

let emu: BenchEmulator;
let t: DnsPlanTraffic;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startBenchEmulator();
  t = await dnsPlanTraffic(emu, { packages: 5, recordsPerPackage: 4 });
});
afterAll(async () => {
  await emu?.stop();
  removeScratch();
});

test('exactly one GET /package list and one DNS read (every zone of the package) per package', () => {
  expect([t.packages, t.records]).toEqual([5, 20]);
  expect(requestsOf(t, PACKAGE_LIST_ROUTE)).toBe(1);
  expect(requestsOf(t, ZONES_ROUTE)).toBe(5);
  expect(requestsOf(t, ONE_ZONE_ROUTE)).toBe(0);
  expect(dnsPlanMet(t)).toBe(true);
});

test('the plan writes nothing', () => {
  expect(Object.keys(t.plan.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
});
