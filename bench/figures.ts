import { benchApiGrowth, bytesGrowth, BYTES_GROWTH_GOAL, GrowthRow, REQUESTS_PER_OBJECT_GOAL } from './api-growth';
import { benchDrift, driftAvailable, DRIFT_GOAL_MS } from './drift';
import { dnsPlanMet, dnsPlanTraffic, ONE_ZONE_ROUTE, PACKAGE_LIST_ROUTE, requestsOf, ZONES_ROUTE } from './dns-plan';
import { DETAIL_ROUTE, domainRequestsOf, domainsPlanMet, domainsPlanTraffic, LIST_ROUTE, NAMESERVERS_ROUTE } from './domains-plan';
import { benchHandlerOverhead, HANDLER_GOAL_RATIO } from './handler-overhead';
import { BenchEmulator, startBenchEmulator } from './lib/emulator';
import { loadPerCore } from './lib/machine';
import { Comparison } from './lib/stats';
import { Figure } from './report';
import { benchSynth, SYNTH_GOAL_RATIO } from './synth';
import { benchForwarderApply, FORWARDER_APPLY_GO_RATIO, ForwarderSide, pairedRatio, spread } from './forwarder-apply';
import { CpuSplit } from './lib/cpu-time';
import { APPLY_GOAL_RATIO, benchTerraformApply } from './terraform-apply';
import {
  APPLY_BYTES_GROWTH_GOAL, APPLY_GO_RATIO, ApplyTraffic, applyTraffic, benchProviderApply, benchProviderPlan, benchProviderStart, CPU_GO_RATIO, CREATE_REQUESTS_GOAL, FloorEvidence, PLAN_GO_RATIO, PROVIDER_GOAL_RATIO,
} from './provider';

/** Sizes and repetitions of one benchmark run. */
export interface BenchSizes {
  handlerRuns: number;
  growthSizes: number[];
  growthParallelism: number;
  synthN: number;
  synthRuns: number;
  driftPackages: number;
  driftRuns: number;
  applyObjects: number;
  applyRuns: number;
  /** Packages of the provider's plan figure (each with a mailbox and a forwarder). */
  providerPlanPackages: number;
  providerPlanRuns: number;
  providerApplyObjects: number;
  providerApplyRuns: number;
  /** Rounds of the CPU runs (GNU time) of the provider figures; each side's split is the median. */
  providerCpuRuns: number;
  /** Objects of the applies whose requests and bytes are counted (pairs: growth from the first to the second of each). */
  providerTrafficObjects: number[];
  providerStartRuns: number;
  /** Packages of the apply figure of packages with one forwarder each (issue 36), and its rounds. */
  forwarderApplyPackages: number;
  forwarderApplyRuns: number;
  /** Packages of the DNS plan figure, and records in each one's zone. */
  dnsPlanPackages: number;
  dnsPlanRecords: number;
  /** Registrations of the domains plan figure, each with a nameservers resource. */
  domainsPlanDomains: number;
  /** Packages of the MySQL plan figure, and databases on each. */
  mysqlPlan: { packages: number; perPackage: number };
}

export const FULL: BenchSizes = {
  handlerRuns: 21, growthSizes: [25, 100, 400], growthParallelism: 10, synthN: 1000, synthRuns: 7,
  driftPackages: 1000, driftRuns: 5, applyObjects: 50, applyRuns: 5,
  providerPlanPackages: 1000, providerPlanRuns: 5, providerApplyObjects: 200, providerApplyRuns: 5, providerCpuRuns: 3, providerTrafficObjects: [30, 120, 400, 1600], providerStartRuns: 31,
  forwarderApplyPackages: 100, forwarderApplyRuns: 7,
  dnsPlanPackages: 50, dnsPlanRecords: 10, domainsPlanDomains: 200,
  mysqlPlan: { packages: 50, perPackage: 4 },
};

/** What the smoke test runs: every code path, tiny sizes. */
export const TINY: BenchSizes = {
  handlerRuns: 1, growthSizes: [3, 6], growthParallelism: 4, synthN: 10, synthRuns: 1,
  driftPackages: 4, driftRuns: 1, applyObjects: 2, applyRuns: 1,
  providerPlanPackages: 3, providerPlanRuns: 1, providerApplyObjects: 6, providerApplyRuns: 1, providerCpuRuns: 1, providerTrafficObjects: [6, 24], providerStartRuns: 3,
  forwarderApplyPackages: 3, forwarderApplyRuns: 1,
  dnsPlanPackages: 2, dnsPlanRecords: 2, domainsPlanDomains: 3,
  mysqlPlan: { packages: 2, perPackage: 2 },
};

const ms = (x: number) => `${Math.round(x)} ms`;
/** The emulator's time per request is often under a millisecond. */
const fineMs = (x: number) => (x < 10 ? `${x.toFixed(2)} ms` : ms(x));
const ratio = (c: Comparison) => `${c.ratio.toFixed(2)}x (${ms(c.subjectMs)} vs ${ms(c.baselineMs)})`;
const stamp = () => ({ measuredAt: new Date().toISOString(), loadPerCore: loadPerCore() });

export async function handlerFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const r = await benchHandlerOverhead(emu, { runs: sizes.handlerRuns });
    const met = [r.package, r.mailbox, r.retire].every((c) => c.ratio <= HANDLER_GOAL_RATIO);
    return {
      id: 'handler', title: '`handler ensure`, object in sync, vs `node -e 0`', measured: `${ratio(r.package)}`,
      goal: `<= ${HANDLER_GOAL_RATIO}x`, met,
      details: [
        `Wall time of one provisioner process (after the first, served by the handler host of the run, as in an apply), ${r.package.runs} runs each, interleaved with \`node -e 0\`:`,
        '',
        '| command | handler | `node -e 0` | ratio |',
        '|---|---|---|---|',
        `| \`handler ensure\` of a package in sync (1 GET) | ${ms(r.package.subjectMs)} | ${ms(r.package.baselineMs)} | ${r.package.ratio.toFixed(2)}x |`,
        `| \`handler ensure\` of a mailbox in sync after a settings replacement (1 GET) | ${ms(r.mailbox.subjectMs)} | ${ms(r.mailbox.baselineMs)} | ${r.mailbox.ratio.toFixed(2)}x |`,
        `| \`handler retire-settings\` (journal note, no request) | ${ms(r.retire.subjectMs)} | ${ms(r.retire.baselineMs)} | ${r.retire.ratio.toFixed(2)}x |`,
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

export async function growthFigure(sizes: BenchSizes, log: (line: string) => void): Promise<Figure> {
  const rows: GrowthRow[] = await benchApiGrowth({ sizes: sizes.growthSizes, parallelism: sizes.growthParallelism, log });
  const worst = Math.max(...rows.map((r) => r.requestsPerObject));
  const growth = bytesGrowth(rows);
  const sorted = [...rows].sort((a, b) => a.n - b.n);
  const routes = [...new Set(rows.flatMap((r) => Object.keys(r.traffic.byRoute)))].sort();
  const largest = sorted[sorted.length - 1];
  return {
    id: 'growth', title: 'create N packages + 1 mailbox each: requests, bytes per object',
    measured: `<= ${worst.toFixed(2)} requests/object; bytes/object N=${largest.n} / N=${sorted[0].n} = ${growth.toFixed(2)}x`,
    goal: `<= ${REQUESTS_PER_OBJECT_GOAL} requests/object; <= ${BYTES_GROWTH_GOAL}x`,
    met: worst <= REQUESTS_PER_OBJECT_GOAL && growth <= BYTES_GROWTH_GOAL,
    details: [
      `Every create-time provisioner of the synthesized stack (one \`ensure\` per object) run as a process, ${sizes.growthParallelism} at a time in dependency order, against a fresh in-process emulator; an object is a package or a mailbox (2N objects).`,
      '',
      '| N | objects | provisioner runs | requests | requests/object | bytes | bytes/object | wall time |',
      '|---|---|---|---|---|---|---|---|',
      ...sorted.map((r) => `| ${r.n} | ${r.objects} | ${r.provisioners} | ${r.traffic.requests} | ${r.requestsPerObject.toFixed(2)} | ${r.traffic.bytes} | ${Math.round(r.bytesPerObject)} | ${r.seconds.toFixed(1)} s |`),
      '',
      'Requests by route (count / bytes):',
      '',
      `| route | ${sorted.map((r) => `N=${r.n}`).join(' | ')} |`,
      `|---|${sorted.map(() => '---').join('|')}|`,
      ...routes.map((route) => `| \`${route}\` | ${sorted.map((r) => {
        const x = r.traffic.byRoute[route];
        return x ? `${x.requests} / ${x.bytes}` : '-';
      }).join(' | ')} |`),
    ].join('\n'),
    ...stamp(),
  };
}

export async function synthFigure(sizes: BenchSizes): Promise<Figure> {
  const r = await benchSynth({ n: sizes.synthN, runs: sizes.synthRuns });
  return {
    id: 'synth', title: `synth of ${r.n} constructs vs ${r.n} bare \`terraform_data\``, measured: ratio(r.process),
    goal: `<= ${SYNTH_GOAL_RATIO}x`, met: r.process.ratio <= SYNTH_GOAL_RATIO,
    details: [
      `Each side is one process that loads cdktf, declares the stack and synthesizes it (as \`cdktf synth\` runs an app), ${r.process.runs} runs each, interleaved. ` +
        `${r.n} constructs = ${Math.round(r.n * 0.4)} packages, as many mailboxes, ${r.n - 2 * Math.round(r.n * 0.4)} forwarders (each construct synthesizes 2 resources with provisioners); the baseline is ${r.n} \`terraform_data\` resources with one trigger each.`,
      '',
      '| measure | constructs | bare | ratio |',
      '|---|---|---|---|',
      `| process wall time, ${r.n} constructs vs ${r.n} bare resources (the goal) | ${ms(r.process.subjectMs)} | ${ms(r.process.baselineMs)} | ${r.process.ratio.toFixed(2)}x |`,
      `| declare + synth inside the app (no start-up), same | ${ms(r.inApp.subjectMs)} | ${ms(r.inApp.baselineMs)} | ${r.inApp.ratio.toFixed(2)}x |`,
      `| process wall time, ${r.n} constructs vs as many bare resources as they synthesize (${r.resources}) | ${ms(r.perResource.subjectMs)} | ${ms(r.perResource.baselineMs)} | ${r.perResource.ratio.toFixed(2)}x |`,
    ].join('\n'),
    ...stamp(),
  };
}

export async function driftFigure(sizes: BenchSizes, log: (line: string) => void): Promise<Figure> {
  const title = `drift over ${sizes.driftPackages} packages + ${2 * sizes.driftPackages} mail objects`;
  const goal = `<= ${DRIFT_GOAL_MS / 1000} s; 1 request per list + 1 per mail domain`;
  if (!driftAvailable()) {
    return {
      id: 'drift', title, measured: 'pending', goal, met: undefined,
      details: 'Not measured: the `drift` command (src/commands/drift/) was not built when this ran. Run `npm run bench -- --only drift` once it exists.',
      ...stamp(),
    };
  }
  const emu: BenchEmulator = await startBenchEmulator();
  try {
    const r = await benchDrift(emu, { packages: sizes.driftPackages, runs: sizes.driftRuns, log });
    const requestsOk = r.mailRequests <= r.mailDomains && r.listRequests <= r.listRoutes;
    return {
      id: 'drift', title, measured: `${ms(r.ms)}, ${r.traffic.requests} requests (${r.listRequests} list + ${r.mailRequests} mail)`,
      goal, met: r.ms <= DRIFT_GOAL_MS && requestsOk,
      details: [
        `\`reseller-hosting drift --out DIR --json\` as a process, median of ${sizes.driftRuns} runs after one warm-up, over an account in sync with the stack (${r.packages} packages, each with one mailbox and one forwarder: ${r.mailDomains} mail domains).`,
        '',
        '| route | requests | bytes |',
        '|---|---|---|',
        ...Object.entries(r.traffic.byRoute).sort().map(([route, x]) => `| \`${route}\` | ${x.requests} | ${x.bytes} |`),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

export async function applyFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const r = await benchTerraformApply(emu, { objects: sizes.applyObjects, runs: sizes.applyRuns });
    return {
      id: 'apply', title: `\`terraform apply\` of ${r.objects} objects vs ${r.objects} bare \`terraform_data\` + \`node -e 0\``,
      measured: ratio(r.comparison), goal: `<= ${APPLY_GOAL_RATIO}x`, met: r.comparison.ratio <= APPLY_GOAL_RATIO,
      details: [
        `A real \`terraform apply -auto-approve\` (default parallelism 10) from an empty state, ${r.comparison.runs} runs each, interleaved; \`init\` once, offline. ` +
          `${r.objects} objects = ${r.objects / 2} packages + ${r.objects / 2} mailboxes = ${r.resources.subject} resources (object and settings, one \`handler ensure\` process per object); ` +
          `the baseline is ${r.resources.baseline} \`terraform_data\` resources each with a local-exec \`node -e 0\`.`,
        '',
        `| ${r.objects} reseller objects (${r.resources.subject} resources) against | reseller stack | baseline | ratio |`,
        '|---|---|---|---|',
        `| ${r.resources.baseline} bare resources running \`node -e 0\` (the goal) | ${ms(r.comparison.subjectMs)} | ${ms(r.comparison.baselineMs)} | ${r.comparison.ratio.toFixed(2)}x |`,
        `| the same ${r.resources.subject} resources and dependencies, every provisioner \`node -e 0\` (the floor of the design) | ${ms(r.structural.subjectMs)} | ${ms(r.structural.baselineMs)} | ${r.structural.ratio.toFixed(2)}x |`,
        '',
        `The CI recipe's check after a carriers apply, \`reseller-hosting drift --detailed-exitcode\` (it finds what an apply killed mid-provisioner left missing), ` +
          `takes ${ms(r.driftCheckMs)} over these ${r.objects} objects (median of ${r.comparison.runs}): ` +
          `apply + check is ${((r.comparison.subjectMs + r.driftCheckMs) / r.comparison.baselineMs).toFixed(2)}x the baseline apply.`,
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

const routeTable = (traffic: { byRoute: Record<string, { requests: number; bytes: number }> }) => [
  '| route | requests | bytes |',
  '|---|---|---|',
  ...Object.entries(traffic.byRoute).sort().map(([route, x]) => `| \`${route}\` | ${x.requests} | ${x.bytes} |`),
];

const seconds = (x: number) => `${x.toFixed(2)} s`;

/**
 * The three sides of a provider figure (our provider, the floor provider, bare
 * `terraform_data`): wall times and ratios from the same interleaved rounds, then the
 * CPU split of one more run of each, with what those numbers mean.
 */
function floorDetails(what: string, goal: Comparison, e: FloorEvidence): string[] {
  const { provider, floor, bare } = e.cpu;
  const go = e.go.skipped === undefined ? e.go : undefined;
  const total = (x: { terraformCpuS: number; providerCpuS: number }) => x.terraformCpuS + x.providerCpuS;
  const vsGo = (c: Comparison | undefined) => (go ? ` ${c ? `${c.ratio.toFixed(2)}x` : '1x'} |` : '');
  return [
    `| ${what} | wall time | against bare | against the floor |${go ? ' against the Go floor |' : ''}`,
    `|---|---|---|---|${go ? '---|' : ''}`,
    `| our provider | ${ms(goal.subjectMs)} | ${goal.ratio.toFixed(2)}x | ${e.providerVsFloor.ratio.toFixed(2)}x |${vsGo(go?.providerVsGo)}`,
    ...(go ? [`| Go floor (shared/gofloor: a Go provider on hashicorp/go-plugin doing no work, serving our schema) | ${ms(go.goVsBare.subjectMs)} | ${go.goVsBare.ratio.toFixed(2)}x | | 1x |`] : []),
    `| floor provider (same schema, transport and start-up; resource RPCs do no work) | ${ms(e.floor.subjectMs)} | ${e.floor.ratio.toFixed(2)}x | 1x |${go ? ' |' : ''}`,
    `| bare \`terraform_data\` | ${ms(goal.baselineMs)} | 1x | |${go ? ' |' : ''}`,
    '',
    ...(go ? [] : [`**${e.go.skipped}**`, '']),
    `The Go floor (../shared/gofloor, built at run time by its build.sh; not part of this project) is what users would otherwise run: a provider written in Go, served by hashicorp/go-plugin, ` +
      'here doing no work while serving our own schema; Terraform runs it through the same installed provider (its swap.sh writes a `RESELLER_NODE` wrapper), so only the plugin differs. ' +
      `The floor provider (bench/lib/floor-provider.ts) is our provider with its resource RPCs emptied (reads and plans echo the state, applies fill in the unknowns, nothing is sent to the account), ` +
      `run the same way. What our provider costs above the Go floor is ours to reduce: start-up, transport and our code.`,
    '',
    `CPU of ${e.cpuRuns === 1 ? 'one more run of each' : `${e.cpuRuns} more runs of each, interleaved, each column the median`} (GNU time: Terraform's user + system CPU, which includes the provider processes it waited for, minus theirs; each provider process timed on its own through the \`RESELLER_NODE\` wrapper):`,
    '',
    `| ${e.cpuRuns === 1 ? 'one run of' : `median of ${e.cpuRuns} runs of`} | wall time | Terraform's own CPU | provider processes' CPU | total CPU |`,
    '|---|---|---|---|---|',
    `| our provider | ${seconds(provider.wallS)} | ${seconds(provider.terraformCpuS)} | ${seconds(provider.providerCpuS)} (${provider.providerProcesses} processes) | ${seconds(total(provider))} |`,
    ...(go ? [`| Go floor | ${seconds(go.cpu.wallS)} | ${seconds(go.cpu.terraformCpuS)} | ${seconds(go.cpu.providerCpuS)} (${go.cpu.providerProcesses} processes) | ${seconds(total(go.cpu))} |`] : []),
    `| floor provider | ${seconds(floor.wallS)} | ${seconds(floor.terraformCpuS)} | ${seconds(floor.providerCpuS)} (${floor.providerProcesses} processes) | ${seconds(total(floor))} |`,
    `| bare \`terraform_data\` | ${seconds(bare.wallS)} | ${seconds(bare.terraformCpuS)} | none | ${seconds(total(bare))} |`,
    '',
    `Terraform's own CPU with the floor above that with bare resources (${seconds(floor.terraformCpuS - bare.terraformCpuS)}) is what Terraform itself spends on serving resources through a plugin (gRPC, msgpack, per-resource RPCs), before the provider does anything; ` +
      `the floor's own CPU (${seconds(floor.providerCpuS)}) is the transport's share inside the plugin; our provider's CPU above the floor's (${seconds(provider.providerCpuS - floor.providerCpuS)}) is our code's.` +
      (go ? ` Our provider's processes used ${cpuRatio(e)} the Go floor's CPU.` : ''),
  ];
}

/** Our provider processes' CPU over the Go floor's, in one run of each. */
const cpuRatio = (e: FloorEvidence) => (e.go.skipped === undefined ? `${(e.cpu.provider.providerCpuS / Math.max(e.go.cpu.providerCpuS, 0.01)).toFixed(2)}x` : 'n/a');

/** "vs Go floor 1.23x (…)" and whether it is within `goal`, or the skip. */
function goMeasured(e: FloorEvidence, goal: number, cpuGoal?: number): { text: string; met: boolean | undefined } {
  if (e.go.skipped !== undefined) return { text: 'Go floor skipped (see below)', met: undefined };
  const cpu = e.cpu.provider.providerCpuS / Math.max(e.go.cpu.providerCpuS, 0.01);
  const text = `vs Go floor ${ratio(e.go.providerVsGo)}${cpuGoal ? `, provider CPU ${cpu.toFixed(2)}x` : ''}`;
  return { text, met: e.go.providerVsGo.ratio <= goal && (!cpuGoal || cpu <= cpuGoal) };
}

export async function providerPlanFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const r = await benchProviderPlan(emu, { packages: sizes.providerPlanPackages, runs: sizes.providerPlanRuns, cpuRuns: sizes.providerCpuRuns });
    const requestsOk = r.mailRequests <= r.mailDomains && r.listRequests <= r.listRoutes;
    const go = goMeasured(r.evidence, PLAN_GO_RATIO, CPU_GO_RATIO);
    return {
      id: 'provider-plan',
      title: `provider: \`terraform plan\`, no changes, ${r.packages} packages + ${r.mailObjects} mail objects vs the Go floor`,
      measured: `${go.text}; vs bare ${ratio(r.comparison)}; floor/bare ${r.evidence.floor.ratio.toFixed(2)}x; ${r.traffic.requests} requests (${r.listRequests} list + ${r.mailRequests} mail)`,
      goal: `<= ${PLAN_GO_RATIO}x the Go floor; provider CPU <= ${CPU_GO_RATIO}x the Go floor's; 1 request per list + 1 per mail domain`,
      met: go.met === undefined ? undefined : go.met && requestsOk,
      details: [
        `A real \`terraform plan -detailed-exitcode\` (refresh included: every object read back) of a state of ${r.resources} provider resources ` +
          `(${r.packages} \`reseller_package\`, each with a \`reseller_mailbox\` and a \`reseller_forwarder\`: ${r.mailDomains} mail domains), in sync with the account, ` +
          `against a plan of the same state by the Go floor, by the floor provider, and a plan of ${r.resources} bare \`terraform_data\` resources; ${r.comparison.runs} runs each, interleaved (the order rotates each round) after one warm-up round. Both states are written as an import would write them (ids read from the account; one resource applied for real as the template of the bare ones), and the first plan must find no changes.`,
        '',
        ...floorDetails(`plan of ${r.resources} resources, no changes`, r.comparison, r.evidence),
        '',
        'Requests of one plan (emulator request log):',
        '',
        ...routeTable(r.traffic),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

export async function providerApplyFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const r = await benchProviderApply(emu, { objects: sizes.providerApplyObjects, runs: sizes.providerApplyRuns, cpuRuns: sizes.providerCpuRuns, trafficObjects: sizes.providerTrafficObjects });
    // The critical path of one object: a package with its mailbox and forwarder, which wait for it.
    const path = await applyTraffic(emu, 3);
    const pathApiMs = path.steps.reduce((sum, step) => sum + step.ms, 0);
    const go = goMeasured(r.evidence, APPLY_GO_RATIO);
    const counted = r.traffic.filter((t) => t.objects >= 20);
    const worstRequests = Math.max(...counted.map((t) => t.requestsPerObject), 0);
    const growth = trafficGrowth(r.traffic);
    const worstGrowth = Math.max(...growth.map((g) => g.ratio), 0);
    const largest = r.traffic[r.traffic.length - 1];
    return {
      id: 'provider-apply',
      title: `provider: \`terraform apply\` creating ${r.objects} objects vs the Go floor; requests and bytes per created object as the stack grows`,
      measured: `${go.text}; vs bare ${ratio(r.comparison)}; floor/bare ${r.evidence.floor.ratio.toFixed(2)}x; ` +
        `<= ${worstRequests.toFixed(2)} requests/object; bytes/object ${growth.map((g) => `N=${g.to} / N=${g.from} = ${g.ratio.toFixed(2)}x`).join(', ')}`,
      goal: `<= ${APPLY_GO_RATIO}x the Go floor; <= ${CREATE_REQUESTS_GOAL} requests/object at N >= 20; bytes/object growth <= ${APPLY_BYTES_GROWTH_GOAL}x`,
      met: go.met === undefined ? undefined : go.met && worstRequests <= CREATE_REQUESTS_GOAL && worstGrowth <= APPLY_BYTES_GROWTH_GOAL,
      details: [
        `A real \`terraform apply -auto-approve\` (default parallelism 10) from an empty state and a reset emulator, ${r.comparison.runs} runs each, interleaved; ` +
          `${r.objects} objects = ${r.shape.packages} packages, ${r.shape.mailboxes} mailboxes (write-only password), ${r.shape.forwarders} forwarders; ` +
          `the Go floor and the floor provider apply the same configuration from an empty state; the baseline is ${r.objects} bare \`terraform_data\` resources (no provisioner). The order rotates each round, after one warm-up round.`,
        '',
        ...floorDetails(`apply of ${r.objects} resources from an empty state`, r.comparison, r.evidence),
        '',
        'Requests and bytes (request + response bodies) of one apply creating N objects (same shape), from an empty state:',
        '',
        '| N | requests | requests/object | bytes | bytes/object |',
        '|---|---|---|---|---|',
        ...r.traffic.map((t) => `| ${t.objects} | ${t.summary.requests} | ${t.requestsPerObject.toFixed(2)} | ${t.summary.bytes} | ${Math.round(t.bytesPerObject)} |`),
        '',
        `Requests by route at N = ${largest.objects}:`,
        '',
        ...routeTable(largest.summary),
        '',
        `The API's round trips: in that apply, the emulator's own time (request arrived to response sent) was ${fineMs(largest.api.writeMs)} per write ` +
          `(median of ${largest.api.writes}; 90th percentile ${fineMs(largest.api.writeP90Ms)}) and ${fineMs(largest.api.readMs)} per read ` +
          `(median of ${largest.api.reads}; 90th percentile ${fineMs(largest.api.readP90Ms)}). ` +
          `The critical path of one object: \`terraform apply\` of one package with its mailbox and forwarder (which wait for it) from an empty state took ` +
          `${ms(path.wallMs)}, of which the emulator's own time ${fineMs(pathApiMs)} over ${path.steps.length} requests; the rest is Terraform's and the provider's ` +
          `(process starts, the plan, the RPCs) and the waits between a write and the read that confirms it (\`RESELLER_POLL_INTERVAL_MS=100\`). Its requests, from the command's start:`,
        '',
        '| at | request | emulator time |',
        '|---|---|---|',
        ...path.steps.map((s) => `| +${ms(s.atMs)} | \`${s.route}\` | ${fineMs(s.ms)} |`),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

/** Bytes per object, from the first size of each pair to the second (30 -> 120, 400 -> 1600). */
export function trafficGrowth(traffic: readonly ApplyTraffic[]): { from: number; to: number; ratio: number }[] {
  const out: { from: number; to: number; ratio: number }[] = [];
  for (let i = 0; i + 1 < traffic.length; i += 2) {
    out.push({ from: traffic[i].objects, to: traffic[i + 1].objects, ratio: traffic[i + 1].bytesPerObject / traffic[i].bytesPerObject });
  }
  return out;
}

export async function providerStartFigure(sizes: BenchSizes): Promise<Figure> {
  const r = await benchProviderStart({ runs: sizes.providerStartRuns });
  const c = r.provider;
  const go = r.go.skipped === undefined ? r.go : undefined;
  return {
    id: 'provider-start', title: 'provider start-up (spawn to handshake line) vs `node -e 0`',
    measured: `${ratio(c)}${go ? `; Go floor ${ms(go.go.subjectMs)} (ours ${go.providerVsGo.ratio.toFixed(2)}x)` : '; Go floor skipped'}`,
    goal: `<= ${PROVIDER_GOAL_RATIO}x`, met: c.ratio <= PROVIDER_GOAL_RATIO,
    details: [
      `The installed provider (launcher, loader, bundle compiled from its V8 code cache) from spawn to the go-plugin handshake line on stdout, ` +
        `with automatic mutual TLS (a client certificate in \`PLUGIN_CLIENT_CERT\`), as Terraform starts it; against \`node -e 0\` to its exit` +
        `${go ? ', and the Go floor started by the same launcher (`RESELLER_NODE`: its swap wrapper)' : ''}; ${c.runs} runs each, interleaved after 2 warm-up rounds.`,
      '',
      `| provider to handshake | \`node -e 0\` | ratio |${go ? ' Go floor to handshake | ours against the Go floor |' : ''}`,
      `|---|---|---|${go ? '---|---|' : ''}`,
      `| ${ms(c.subjectMs)} | ${ms(c.baselineMs)} | ${c.ratio.toFixed(2)}x |${go ? ` ${ms(go.go.subjectMs)} | ${go.providerVsGo.ratio.toFixed(2)}x |` : ''}`,
      ...(r.go.skipped !== undefined ? ['', `**${r.go.skipped}**`] : []),
    ].join('\n'),
    ...stamp(),
  };
}

const SIDE_NAMES: Record<ForwarderSide, string> = {
  provider: 'our provider',
  go: 'Go floor (shared/gofloor serving our schema)',
  floor: 'floor provider (our transport and start-ups, resource RPCs emptied)',
};

export async function providerForwarderApplyFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const r = await benchForwarderApply(emu, { packages: sizes.forwarderApplyPackages, runs: sizes.forwarderApplyRuns });
    const ours = r.runs.provider!;
    const go = r.runs.go;
    const range = (x: { median: number; min: number; max: number }, unit = '', digits = 2) =>
      `${x.median.toFixed(digits)}${unit} (${x.min.toFixed(digits)}-${x.max.toFixed(digits)})`;
    const wall = (s: CpuSplit) => s.wallS;
    const own = (s: CpuSplit) => s.terraformCpuS;
    const plugin = (s: CpuSplit) => s.providerCpuS;
    const vsGo = go && { wall: pairedRatio(ours, go, wall), own: pairedRatio(ours, go, own), plugin: pairedRatio(ours, go, plugin) };
    const waits = spread(r.confirmMs);
    const rows = (Object.keys(SIDE_NAMES) as ForwarderSide[]).flatMap((side) => {
      const runs = r.runs[side];
      if (!runs) return [];
      return [`| ${SIDE_NAMES[side]} | ${range(spread(runs.map(wall)), ' s')} | ${range(spread(runs.map(own)), ' s')} | ` +
        `${range(spread(runs.map(plugin)), ' s')} (${runs[0].providerProcesses} processes) |`];
    });
    return {
      id: 'provider-apply-forwarders',
      title: `provider: \`terraform apply -parallelism=10\` of ${r.packages} packages + 1 forwarder each, from empty, vs the Go floor`,
      measured: vsGo
        ? `vs Go floor ${range(vsGo.wall, 'x')} wall (${seconds(spread(ours.map(wall)).median)} vs ${seconds(spread(go!.map(wall)).median)}); ` +
          `Terraform's own CPU ${vsGo.own.median.toFixed(2)}x, provider CPU ${vsGo.plugin.median.toFixed(2)}x the Go floor's`
        : 'Go floor skipped (see below)',
      goal: `<= ${FORWARDER_APPLY_GO_RATIO}x the Go floor (wall)`,
      met: vsGo ? vsGo.wall.median <= FORWARDER_APPLY_GO_RATIO : undefined,
      details: [
        `A real \`terraform apply -parallelism=10\` of ${r.packages} \`reseller_package\` each with one \`reseller_forwarder\` (which waits for it), ` +
          `from an empty state and a reset emulator, ${ours.length} round${ours.length === 1 ? '' : 's'} after one warm-up round; in each round our provider, ${go ? 'the Go floor and ' : ''}the floor provider ` +
          "apply the same stack (the order rotates each round), every run under GNU time: wall time, Terraform's own CPU (its user + system CPU minus that of the provider processes it waited for) " +
          "and the provider processes' CPU (each timed through the `RESELLER_NODE` wrapper). Medians, with the least and greatest run in brackets.",
        '',
        "| side | wall time | Terraform's own CPU | provider processes' CPU |",
        '|---|---|---|---|',
        ...rows,
        '',
        ...(vsGo
          ? [`Ours against the Go floor, the median of per-round ratios (least-greatest): wall ${range(vsGo.wall, 'x')}, Terraform's own CPU ${range(vsGo.own, 'x')}, ` +
            `provider processes' CPU ${range(vsGo.plugin, 'x')}.`]
          : [`**${r.goSkipped}**`]),
        '',
        `In the last round's apply of our provider, each forwarder's create was confirmed by a read of its domain's mail ${range(waits, ' ms', 0)} after the create ` +
          `(${r.confirmMs.length} forwarders; a confirmation that waited for siblings that never come held one of the ten slots). Its requests:`,
        '',
        ...routeTable(r.traffic),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

export async function dnsPlanFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const t = await dnsPlanTraffic(emu, { packages: sizes.dnsPlanPackages, recordsPerPackage: sizes.dnsPlanRecords });
    return {
      id: 'dns-plan', title: `no-change \`terraform plan\` of ${t.records} DNS records over ${t.zones} zones: DNS reads`,
      measured: `${requestsOf(t, ZONES_ROUTE)} zone reads + ${requestsOf(t, ONE_ZONE_ROUTE)} one-zone reads, ${requestsOf(t, PACKAGE_LIST_ROUTE)} package list; ${t.plan.requests} requests in all`,
      goal: `1 DNS read per zone's package (${t.packages}), 1 package list`,
      met: dnsPlanMet(t),
      details: [
        `${t.packages} packages with ${sizes.dnsPlanRecords} records each (A, CNAME, TXT, MX in turn) in its zone, applied through Terraform from a reset emulator; then one \`terraform plan\` (refresh included) that finds no change. Its requests, from the emulator's request log (count / bytes):`,
        '',
        ...routeTable(t.plan),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}

export async function domainsPlanFigure(sizes: BenchSizes): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const t = await domainsPlanTraffic(emu, { domains: sizes.domainsPlanDomains });
    return {
      id: 'domains-plan', title: `no-change \`terraform plan\` of ${t.domains} \`reseller_domain_nameservers\` and \`reseller_domains\`: registration reads`,
      measured: `${domainRequestsOf(t, LIST_ROUTE)} list read, ${domainRequestsOf(t, NAMESERVERS_ROUTE)} nameserver reads, ${domainRequestsOf(t, DETAIL_ROUTE)} detail reads; ${t.plan.requests} requests in all`,
      goal: `1 list read, 1 read per registration (${t.domains}), no write`,
      met: domainsPlanMet(t),
      details: [
        `${t.domains} registrations (registered through the API after a reset), each with a \`reseller_domain_nameservers\` applied through Terraform, and one \`reseller_domains\` data source (an output lists those expiring within 30 days); then one \`terraform plan\` (refresh included) that finds no change. Its requests, from the emulator's request log (count / bytes):`,
        '',
        ...routeTable(t.plan),
      ].join('\n'),
      ...stamp(),
    };
  } finally {
    await emu.stop();
  }
}
