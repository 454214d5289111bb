import {
  applyFigure, dnsPlanFigure, driftFigure, growthFigure, handlerFigure, providerApplyFigure, providerForwarderApplyFigure, providerPlanFigure, providerStartFigure,
  synthFigure, TINY,
} from '../../bench/figures';
import { driftAvailable } from '../../bench/drift';
import { removeScratch } from '../../bench/lib/scratch';
import { Figure, renderConsole, renderTable } from '../../bench/report';
import { requireBuiltHandler } from '../helpers/emulator';

/**
 * A smoke run of every benchmark with tiny sizes (`npm run bench` runs the real ones):
 * each produces numbers, and the request-count figure meets its goal even at this size.
 * Needs the compiled package (`npm test` builds it), like the handler's integration tests.
 */
jest.setTimeout(120_000);

const figures: Figure[] = [];
const numbers = (f: Figure) => f.measured.match(/[0-9]+(\.[0-9]+)?/g)?.map(Number) ?? [];

beforeAll(() => requireBuiltHandler());
afterAll(() => removeScratch());

test('handler overhead: an in-sync ensure and a retire-settings note, timed against node -e 0', async () => {
  const f = await handlerFigure(TINY);
  figures.push(f);
  expect(numbers(f).every((n) => Number.isFinite(n) && n > 0)).toBe(true);
  expect(f.details).toMatch(/handler retire-settings/);
});

test('API growth: requests and bytes per object, and requests per object within the goal', async () => {
  const f = await growthFigure(TINY, () => undefined);
  figures.push(f);
  const [worst] = numbers(f);
  expect(worst).toBeGreaterThan(0);
  expect(worst).toBeLessThanOrEqual(3);
  expect(f.details).toMatch(/POST \/reseller\/\*\/addWeb/);
});

test('synth: constructs against bare terraform_data, as processes', async () => {
  const f = await synthFigure(TINY);
  figures.push(f);
  expect(numbers(f).slice(0, 3).every((n) => n > 0)).toBe(true);
});

test('drift: wall time and requests (pending until the drift command is built)', async () => {
  const f = await driftFigure(TINY, () => undefined);
  figures.push(f);
  if (driftAvailable()) {
    expect(f.met).toBeDefined();
    expect(numbers(f)[0]).toBeGreaterThan(0);
  } else {
    expect(f.measured).toBe('pending');
  }
});

test('terraform apply: reseller objects against bare resources running node -e 0', async () => {
  const f = await applyFigure(TINY);
  figures.push(f);
  expect(numbers(f).slice(0, 3).every((n) => n > 0)).toBe(true);
});

/**
 * The floor provider ran beside ours and bare resources (the benchmark itself fails if
 * it made a request, i.e. if ours ran in its place), and both providers' processes were
 * timed through the RESELLER_NODE wrapper.
 */
function expectFloorEvidence(f: Figure): void {
  expect(f.measured).toMatch(/; floor\/bare \d+\.\d\dx; /);
  expect(f.details).toMatch(/\| floor provider \(same schema, transport and start-up; resource RPCs do no work\) \| \d+ ms \| \d+\.\d\dx \| 1x \|/);
  for (const side of ['our provider', 'floor provider']) {
    const row = new RegExp(`\\| ${side} \\| [0-9.]+ s \\| [0-9.]+ s \\| [0-9.]+ s \\(([0-9]+) processes\\) \\|`).exec(f.details);
    expect(row).not.toBeNull();
    expect(Number(row![1])).toBeGreaterThan(0);
  }
  expect(f.details).toMatch(/\| bare `terraform_data` \| [0-9.]+ s \| [0-9.]+ s \| none \|/);
}

test('provider plan: no changes over packages with mail, against bare resources; one request per list and per mail domain', async () => {
  const f = await providerPlanFigure(TINY);
  figures.push(f);
  expect(numbers(f).slice(0, 3).every((n) => n > 0)).toBe(true);
  // The request goal holds at any size: every list once, one mail read per domain.
  expect(f.measured).toMatch(/; \d+ requests \(\d+ list \+ 3 mail\)$/);
  expect(f.details).toMatch(/\| `GET \/package` \| 1 \|/);
  expect(f.details).toMatch(/\| `GET \/package\/\{ref\}\/email\/\{domain\}` \| 3 \|/);
  expectFloorEvidence(f);
});

test('provider apply: creating objects against bare resources, and the requests per created object', async () => {
  const f = await providerApplyFigure(TINY);
  figures.push(f);
  expect(numbers(f).slice(0, 4).every((n) => Number.isFinite(n) && n > 0)).toBe(true);
  expect(f.details).toMatch(/\| `POST \/reseller\/\*\/addWeb` \| 8 \|/); // one create per package at N = 24, no duplicate
  expect(f.details).toMatch(/\| 6 \| \d+ \| [0-9.]+ \| \d+ \| \d+ \|\n\| 24 \|/);
  expectFloorEvidence(f);
});

test('provider apply of packages with one forwarder each: wall and CPU of every run, against the Go floor when it builds', async () => {
  const f = await providerForwarderApplyFigure(TINY);
  figures.push(f);
  for (const side of ['our provider', 'floor provider']) {
    expect(f.details).toMatch(new RegExp(`\\| ${side}[^|]* \\| [0-9.]+ s \\([0-9.]+-[0-9.]+\\) \\| [0-9.]+ s \\(`));
  }
  expect(f.details).toMatch(/\| `POST \/package\/\{ref\}\/email\/\{domain\}` \| 3 \|/); // one create per forwarder
  if (f.met === undefined) expect(f.details).toMatch(/GO FLOOR SKIPPED/);
  else expect(f.measured).toMatch(/^vs Go floor \d+\.\d\dx/);
});

test('provider start-up against node -e 0', async () => {
  const f = await providerStartFigure(TINY);
  figures.push(f);
  expect(numbers(f).slice(0, 3).every((n) => n > 0)).toBe(true);
});

test('DNS plan: a no-change plan of records reads each package\'s zones once, with the package list', async () => {
  const f = await dnsPlanFigure(TINY);
  figures.push(f);
  expect(f.met).toBe(true);
  expect(f.measured).toMatch(/^2 zone reads \+ 0 one-zone reads, 1 package list; \d+ requests in all$/);
  expect(f.details).toMatch(/\| `GET \/package\/\{ref\}\/dns` \| 2 \|/);
});

test('the report renders every figure', () => {
  expect(renderTable(figures).split('\n')).toHaveLength(2 + figures.length);
  expect(renderConsole(figures)).toMatch(/handler ensure/);
});
