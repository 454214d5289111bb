import { BenchEmulator, startBenchEmulator } from '../../bench/lib/emulator';
import { removeScratch } from '../../bench/lib/scratch';
import { otherWebRoutes, PACKAGE_LIST_ROUTE, requestsOf, WEB_READ_ROUTES, WebPlanTraffic, webPlanMet, webPlanTraffic } from '../../bench/web-plan';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * Issue 39, at a small size (`npm run bench -- --only web-plan` runs 300 packages): a
 * no-change `terraform plan` of 5 packages' web settings, applied through real Terraform,
 * reads each setting of each package once (force-HTTPS, certificates, PHP version) and the
 * package list once; nothing is written. Counts of requests by route, never times.
 */
jest.setTimeout(300_000);

let emu: BenchEmulator;
let t: WebPlanTraffic;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startBenchEmulator();
  t = await webPlanTraffic(emu, { packages: 5 });
});
afterAll(async () => {
  await emu?.stop();
  removeScratch();
});

test('one read per package per setting kind read, one package list, no other web request', () => {
  for (const route of WEB_READ_ROUTES) expect([route, requestsOf(t, route)]).toEqual([route, 5]);
  expect(requestsOf(t, PACKAGE_LIST_ROUTE)).toBe(1);
  expect(otherWebRoutes(t)).toEqual([]);
  expect(webPlanMet(t)).toBe(true);
});

test('the plan writes nothing', () => {
  expect(Object.keys(t.plan.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
});
