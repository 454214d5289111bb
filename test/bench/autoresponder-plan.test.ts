import type { RequestLogEntry } from '../../src/emulator';
import { routeOf } from '../../bench/lib/emulator';
import { ProviderWorkspace, Resources, startProviderWorkspace } from '../provider/workspace';

/**
 * Issue 38: a no-change `terraform plan` of 500 autoresponders over 100 mail domains
 * (100 packages, 5 autoresponders each on its primary domain), applied through real
 * Terraform, reads each mail domain once (`GET /package/{ref}/email/{domain}`: the
 * responder list comes with the mailboxes and forwarders), with one package list, and
 * writes nothing. Counts of requests by route from the emulator's request log, never
 * times. BENCHMARKS.md records the figure with this file as its command.
 */
jest.setTimeout(600_000);

const PACKAGES = 100;
const PER_DOMAIN = 5;
const domainOf = (i: number) => `reply-${i}.bench.example`;

function resources(): Resources {
  const packages: Record<string, Record<string, unknown>> = {};
  const replies: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < PACKAGES; i++) {
    packages[`p${i}`] = { domain_name: domainOf(i), package_type: 'Linux Unlimited' };
    for (let j = 0; j < PER_DOMAIN; j++) {
      replies[`p${i}_r${j}`] = {
        package: `\${reseller_package.p${i}.domain_name}`, local_part: `away${j}`, subject: `Away ${j}`, content: `Back soon (${i}/${j}).`,
        // Every other one with a window, in a form the API reads back differently (milliseconds).
        ...(j % 2 ? { start_time: '2026-12-24T10:00:00+01:00', end_time: '2027-01-02T08:00:00Z' } : {}),
      };
    }
  }
  return { reseller_package: packages, reseller_autoresponder: replies };
}

let ws: ProviderWorkspace;
let byRoute: Record<string, number>;
let responderReads: number;

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'autoresponder-plan', provisionDelayMs: 0 }, resources());
  await ws.run(['apply', '-auto-approve']);
  await ws.emu.control('DELETE', 'requests');
  expect(await ws.planCode()).toBe(0);
  const log = (await ws.emu.control('GET', 'requests')) as RequestLogEntry[];
  byRoute = {};
  for (const entry of log) byRoute[routeOf(entry)] = (byRoute[routeOf(entry)] ?? 0) + 1;
  responderReads = log.filter((e) => e.path.endsWith('/responder')).length;
});
afterAll(() => ws?.stop());

test('500 autoresponders over 100 domains: the plan reads each mail domain once, with one package list', () => {
  expect(ws.emu.account().packages.flatMap((p) => p.mail.flatMap((d) => d.responders))).toHaveLength(PACKAGES * PER_DOMAIN);
  expect(byRoute['GET /package/{ref}/email/{domain}']).toBe(PACKAGES);
  expect(byRoute['GET /package']).toBe(1);
  expect(responderReads).toBe(0); // no per-domain responder read beside the mail read
  process.stdout.write(`autoresponder plan: ${JSON.stringify(byRoute)}\n`);
});

test('the plan writes nothing', () => {
  expect(Object.keys(byRoute).filter((route) => !route.startsWith('GET '))).toEqual([]);
});
