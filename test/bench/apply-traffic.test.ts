import { applyTraffic, APPLY_BYTES_GROWTH_GOAL, ApplyTraffic } from '../../bench/provider';
import { trafficGrowth } from '../../bench/figures';
import { BenchEmulator, startBenchEmulator } from '../../bench/lib/emulator';
import { removeScratch } from '../../bench/lib/scratch';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * A provider apply's traffic stays flat as the stack grows (issue 27): real
 * `terraform apply` runs of our provider against the emulator, creating 30 and then
 * 120 objects (packages with a mailbox and a forwarder each) from an empty state.
 * Counts of requests and bytes, never times. Confirming each package create by
 * re-reading the whole package list made the bytes per object grow with N.
 */
jest.setTimeout(300_000);

let emu: BenchEmulator;
const runs: ApplyTraffic[] = [];

beforeAll(async () => {
  requireBuiltHandler();
  emu = await startBenchEmulator();
  for (const n of [30, 120]) runs.push(await applyTraffic(emu, n));
});
afterAll(async () => {
  await emu?.stop();
  removeScratch();
});

test('bytes per created object grow at most 1.2x from 30 to 120 objects', () => {
  const [growth] = trafficGrowth(runs);
  expect(growth.ratio).toBeLessThanOrEqual(APPLY_BYTES_GROWTH_GOAL);
});

test('no package create re-reads the package list: one list read per apply (the look-up before the creates)', () => {
  for (const r of runs) {
    expect(r.summary.byRoute['GET /package']?.requests ?? 0).toBeLessThanOrEqual(1);
    // One create per package, confirmed by its own detail read.
    expect(r.summary.byRoute['POST /reseller/*/addWeb'].requests).toBe(r.objects / 3);
    expect(r.summary.byRoute['GET /package/{ref}'].requests).toBe(r.objects / 3);
  }
});

test('requests per created object: one write each, one detail read per package, at most one mail read per mail object', () => {
  for (const r of runs) {
    const packages = r.objects / 3;
    const route = (name: string) => r.summary.byRoute[name]?.requests ?? 0;
    expect(route('POST /package/{ref}/email/{domain}')).toBe(2 * packages);
    // A package's mailbox and forwarder share one read when they reach the provider
    // close together (which depends on the machine's load): between one and two per domain.
    expect(route('GET /package/{ref}/email/{domain}')).toBeGreaterThanOrEqual(packages);
    expect(route('GET /package/{ref}/email/{domain}')).toBeLessThanOrEqual(2 * packages);
    // Nothing else but the run's few look-ups (package list, package types, cloud servers).
    const counted = ['POST /reseller/*/addWeb', 'GET /package/{ref}', 'POST /package/{ref}/email/{domain}', 'GET /package/{ref}/email/{domain}'];
    expect(r.summary.requests - counted.reduce((n, name) => n + route(name), 0)).toBeLessThanOrEqual(3);
  }
});
