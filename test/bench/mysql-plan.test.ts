import { BenchEmulator, startBenchEmulator } from '../../bench/lib/emulator';
import { removeScratch } from '../../bench/lib/scratch';
import { DATABASES_ROUTE, MysqlPlanTraffic, mysqlPlanMet, mysqlPlanTraffic, PACKAGE_LIST_ROUTE, requestsOf } from '../../bench/mysql-plan';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * Issue 40, at a small size (`npm run bench -- --only mysql-plan` runs 50 x 4): a
 * no-change `terraform plan` of 4 packages with 3 MySQL databases each, applied through
 * real Terraform, reads the package list once and each package's databases once,
 * whatever the number of databases; nothing is written. Counts, never times.
 */
jest.setTimeout(300_000);

let emu: BenchEmulator;
let t: MysqlPlanTraffic;

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startBenchEmulator();
  t = await mysqlPlanTraffic(emu, { packages: 4, perPackage: 3 });
});
afterAll(async () => {
  await emu?.stop();
  removeScratch();
});

test('exactly one GET /package list and one database list read per package; no write', () => {
  expect([t.packages, t.databases]).toEqual([4, 12]);
  expect(requestsOf(t, PACKAGE_LIST_ROUTE)).toBe(1);
  expect(requestsOf(t, DATABASES_ROUTE)).toBe(4);
  expect(Object.keys(t.plan.byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
  expect(mysqlPlanMet(t)).toBe(true);
});
