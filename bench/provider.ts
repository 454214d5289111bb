import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './lib/scratch';
import { ResellerClient } from '../src/client';
import { findTerraform, REPO_ROOT, runTerraform } from '../scripts/lib/terraform';
import { PROVIDER_SOURCE } from '../src/provider/install';
import { apiTiming, ApiTiming, PathStep, timeline } from './lib/api-timing';
import { BENCH_API_KEY, BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { builtProvider, PASSWORD_VARIABLE, providerSites, ProviderSite, resourceTypeOf, writeProviderStack } from './lib/provider-config';
import { BENCH_PASSWORD } from './lib/stacks';
import { compare, Comparison, median, pool, rounds, Rounds } from './lib/stats';
import { cpuSplitOf, CpuSplit, GNU_TIME, underGnuTime } from './lib/cpu-time';
import { prepareFloor } from './lib/floor-install';
import { GoFloor, goFloorFor } from './lib/gofloor';
import { timeToStart } from './lib/start-time';

/**
 * The native provider's figures: `terraform plan` with no changes over a large account,
 * `terraform apply` creating objects (each against as many bare `terraform_data`
 * resources, and against the floor provider: bench/lib/floor-provider.ts), the requests
 * each makes, and the provider's start-up against `node -e 0`.
 */
export const PROVIDER_GOAL_RATIO = 1.5;
/** Issue 27: a no-change plan within this of the Go floor serving our schema on the same state. */
export const PLAN_GO_RATIO = 1.25;
/** Issue 27: the provider processes' CPU in that plan within this of the Go floor's. */
export const CPU_GO_RATIO = 2;
/** Issue 27: an apply creating objects within this of the Go floor (the margin is the API's round trips). */
export const APPLY_GO_RATIO = 2;
export const CREATE_REQUESTS_GOAL = 1.5;
/** Issue 27: bytes per created object grow at most this much from 30 to 120 and from 400 to 1,600 objects. */
export const APPLY_BYTES_GROWTH_GOAL = 1.2;

export const APPLY = ['apply', '-auto-approve', '-input=false', '-no-color'];
export const PLAN = ['plan', '-input=false', '-no-color', '-detailed-exitcode'];

export async function tf(binary: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, codes = [0]): Promise<number> {
  const started = performance.now();
  const r = await runTerraform(args, { cwd, env, binary });
  if (!codes.includes(r.code)) throw new Error(`terraform ${args.join(' ')} in ${cwd}: exit ${r.code}\n${r.stderr.slice(-3000)}${r.stdout.slice(-3000)}`);
  return performance.now() - started;
}

/** A directory of `n` bare `terraform_data` resources (one trigger each), `init` done. */
async function bareStack(binary: string, n: number): Promise<string> {
  const dir = scratchDir('bare-');
  const bare: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) bare[`r${i}`] = { triggers_replace: { n: String(i) } };
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({ resource: { terraform_data: bare } }));
  await tf(binary, dir, ['init', '-input=false', '-no-color']);
  return dir;
}

export const providerEnv = (emu: BenchEmulator): NodeJS.ProcessEnv => ({
  RESELLER_API_KEY: BENCH_API_KEY, [`TF_VAR_${PASSWORD_VARIABLE}`]: BENCH_PASSWORD, RESELLER_POLL_INTERVAL: '100ms', RESELLER_API_URL: emu.url,
});

/**
 * What the floor provider shows about a figure: the same runs, interleaved, of our
 * provider, the floor provider (same schema, transport and start-up; its resource RPCs
 * do no work) and bare `terraform_data`; and one more run of each under GNU time, for
 * where the CPU goes.
 */
export interface FloorEvidence {
  /** The floor provider against bare `terraform_data`: what any plugin costs Terraform. */
  floor: Comparison;
  /** Our provider against the floor: what our own code costs. */
  providerVsFloor: Comparison;
  /** Each side's CPU split: the median of `cpuRuns` runs, interleaved. */
  cpu: { provider: CpuSplit; floor: CpuSplit; bare: CpuSplit };
  cpuRuns: number;
  /** The Go floor (bench/lib/gofloor.ts) in the same rounds, or why it was skipped. */
  go: GoEvidence | { skipped: string };
}

/** What the Go floor (a do-nothing Go provider serving our schema) shows about a figure. */
export interface GoEvidence {
  /** Our provider against the Go floor: the goals. */
  providerVsGo: Comparison;
  /** The Go floor against bare `terraform_data`. */
  goVsBare: Comparison;
  /** Its CPU split under GNU time, in the same rounds as ours. */
  cpu: CpuSplit;
  skipped?: undefined;
}

type Side = 'provider' | 'floor' | 'bare' | 'go';

/**
 * One terraform run under GNU time (its providers too, through `wrap`), split into
 * Terraform's own CPU and its provider processes'. A provider run that starts no timed
 * provider process means the wrapper was not used: an error, not a zero.
 */
export async function cpuRun(binary: string, cwd: string, args: string[], env: NodeJS.ProcessEnv, wrap?: (cpuDir: string) => NodeJS.ProcessEnv): Promise<CpuSplit> {
  const cpuDir = scratchDir('cpu-');
  try {
    await tf(GNU_TIME, cwd, underGnuTime(join(cpuDir, 'terraform'), binary, args), { ...env, ...wrap?.(cpuDir) });
    const split = cpuSplitOf(cpuDir);
    if (wrap && split.providerProcesses === 0) {
      throw new Error(`terraform ${args[0]} in ${cwd} ran no provider through RESELLER_NODE: has the installed provider's launcher changed?`);
    }
    return split;
  } finally {
    rmSync(cpuDir, { recursive: true, force: true });
  }
}

/** One round of CPU runs: each side once (the Go floor when it runs). */
interface CpuRound {
  provider: CpuSplit;
  floor: CpuSplit;
  bare: CpuSplit;
  go?: CpuSplit;
}

/**
 * `runs` rounds of CPU runs, each side once per round (so each sees the same load), as
 * the median of every field per side: one run's split moves by about 10%.
 */
async function cpuRounds(runs: number, round: () => Promise<CpuRound>): Promise<CpuRound> {
  const all: CpuRound[] = [];
  for (let i = 0; i < runs; i++) all.push(await round());
  const of = (pick: (r: CpuRound) => CpuSplit | undefined): CpuSplit | undefined => {
    const splits = all.map(pick).filter((x): x is CpuSplit => x !== undefined);
    if (!splits.length) return undefined;
    return {
      wallS: median(splits.map((x) => x.wallS)),
      terraformCpuS: median(splits.map((x) => x.terraformCpuS)),
      providerCpuS: median(splits.map((x) => x.providerCpuS)),
      providerProcesses: splits[0].providerProcesses,
    };
  };
  return { provider: of((r) => r.provider)!, floor: of((r) => r.floor)!, bare: of((r) => r.bare)!, go: of((r) => r.go) };
}

/** The floor run makes no request: proof that RESELLER_NODE replaced our provider by the floor. */
async function expectNoRequests(emu: BenchEmulator, what: string): Promise<void> {
  const n = (await emu.requests()).length;
  if (n > 0) throw new Error(`the floor provider's ${what} made ${n} requests to the emulator: our provider ran instead of the floor`);
}

const evidenceOf = (measured: Rounds<Side>, cpu: FloorEvidence['cpu'], cpuRuns: number, go: GoFloor, goCpu: CpuSplit | undefined): FloorEvidence => ({
  floor: compare(measured, 'floor', 'bare'), providerVsFloor: compare(measured, 'provider', 'floor'), cpu, cpuRuns,
  go: go.skipped !== undefined || !goCpu ? { skipped: go.skipped ?? 'not run' } : {
    providerVsGo: compare(measured, 'provider', 'go'), goVsBare: compare(measured, 'go', 'bare'), cpu: goCpu,
  },
});

/** The rounds' actions, with the Go floor's when it is available. */
const sides = (actions: Record<Exclude<Side, 'go'>, () => Promise<number>>, go: GoFloor, goAction: () => Promise<number>) =>
  (go.skipped === undefined ? { ...actions, go: goAction } : actions) as Record<Side, () => Promise<number>>;

const count = (sites: readonly ProviderSite[]) => ({
  packages: sites.length,
  mailboxes: sites.reduce((n, s) => n + s.mailboxes.length, 0),
  forwarders: sites.reduce((n, s) => n + s.forwarders.length, 0),
});

// ---------------------------------------------------------------------------------

export interface ProviderPlanResult {
  packages: number;
  mailObjects: number;
  resources: number;
  /** Our provider against bare `terraform_data` (the goal). */
  comparison: Comparison;
  evidence: FloorEvidence;
  traffic: TrafficSummary;
  listRequests: number;
  listRoutes: number;
  mailRequests: number;
  mailDomains: number;
}

/**
 * `terraform plan` (refresh included, no changes) over `packages` packages with one
 * mailbox and one forwarder each, imported into the state, against a plan of as many
 * bare `terraform_data` resources. The account is seeded through the API client.
 */
export async function benchProviderPlan(emu: BenchEmulator, options: { packages: number; runs: number; cpuRuns: number }): Promise<ProviderPlanResult> {
  const binary = findTerraform();
  await emu.reset();
  const sites = providerSites(options.packages * 3, 'site', (i) => `site-${i}.bench.example`);
  await seedAccount(emu, sites);
  const dir = writeProviderStack(scratchDir('plan-'), sites, { passwords: false });
  const env = providerEnv(emu);
  await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
  // The state, as an import of the account would write it (importing 3,000 objects
  // through Terraform takes minutes); the first plan must find no changes.
  const resources = await writeState(emu, dir, sites);

  const bare = await bareStack(binary, resources);
  await writeBareState(binary, bare, resources);
  await emu.clearRequests();
  await tf(binary, dir, PLAN, env); // one plan alone, for its requests
  const traffic = summarize(await emu.requests());
  // The floor plans the same directory: same configuration, state and installed provider.
  const kit = await prepareFloor();
  const go = goFloorFor(dir, kit.dir);
  const measured = await rounds<Side>(sides({
    provider: () => tf(binary, dir, PLAN, env),
    floor: () => tf(binary, dir, PLAN, { ...env, ...kit.env }),
    bare: () => tf(binary, bare, PLAN),
  }, go, () => tf(binary, dir, PLAN, { ...env, ...(go.skipped === undefined ? go.env : {}) })), options.runs);
  const { go: goCpu, ...cpu } = await cpuRounds(options.cpuRuns, async () => {
    const provider = await cpuRun(binary, dir, PLAN, env, (cpuDir) => kit.timedEnv('provider', cpuDir));
    await emu.clearRequests();
    const floor = await cpuRun(binary, dir, PLAN, env, (cpuDir) => kit.timedEnv('floor', cpuDir));
    const goSplit = go.skipped === undefined ? await cpuRun(binary, dir, PLAN, env, (cpuDir) => go.timedEnv(cpuDir)) : undefined;
    await expectNoRequests(emu, 'plan');
    return { provider, floor, go: goSplit, bare: await cpuRun(binary, bare, PLAN, {}) };
  });
  for (const d of [bare, dir, kit.dir]) rmSync(d, { recursive: true, force: true });
  const mail = Object.entries(traffic.byRoute).filter(([route]) => route.includes('/email/'));
  const lists = Object.entries(traffic.byRoute).filter(([route]) => !route.includes('/email/'));
  const c = count(sites);
  return {
    packages: c.packages, mailObjects: c.mailboxes + c.forwarders, resources,
    comparison: compare(measured, 'provider', 'bare'), evidence: evidenceOf(measured, cpu, options.cpuRuns, go, goCpu), traffic,
    listRequests: lists.reduce((s, [, r]) => s + r.requests, 0), listRoutes: lists.length,
    mailRequests: mail.reduce((s, [, r]) => s + r.requests, 0), mailDomains: c.packages,
  };
}

/**
 * terraform.tfstate of the sites, in sync with the account: every attribute of the
 * provider's schema, the ids read from the account.
 */
export async function writeState(emu: BenchEmulator, dir: string, sites: readonly ProviderSite[]): Promise<number> {
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: BENCH_API_KEY, maxConcurrency: 16 });
  const packages = new Map((await client.packages.list()).map((p) => [p.name, p]));
  const mail = new Map(await pool(sites, 16, async (s) => [s.domain, await client.mail.get(s.domain, s.domain)] as const));
  client.close();
  const provider = `provider["${PROVIDER_SOURCE}"]`;
  const resource = (type: string, name: string, attributes: Record<string, unknown>, dependencies?: string[]) => ({
    mode: 'managed', type, name, provider,
    instances: [{ schema_version: 0, attributes, sensitive_attributes: [], ...(dependencies ? { dependencies } : {}) }],
  });
  const resources = sites.flatMap((s) => {
    const pkg = packages.get(s.domain)!;
    const box = mail.get(s.domain)!;
    const place = { package: s.domain, domain: s.domain };
    const depends = [`${resourceTypeOf('package')}.${s.name}`];
    return [
      resource(resourceTypeOf('package'), s.name, {
        id: s.domain, domain_name: s.domain, cloud_server: null, extra_domain_names: [], package_type: 'Linux Unlimited', label: `Site ${s.name}`,
        document_roots: null, stack_user: null, enabled: true, package_id: pkg.id, package_type_id: pkg.typeRef,
      }),
      ...s.mailboxes.map((m) => resource(resourceTypeOf('mailbox'), m.name, {
        id: `${m.local}@${s.domain}`, ...place, local_part: m.local, send: true, receive: true, password_wo: null, password_wo_version: null,
        mailbox_id: box.mailboxes.find((x) => x.local === m.local)!.id,
      }, depends)),
      ...s.forwarders.map((f) => resource(resourceTypeOf('forwarder'), f.name, {
        id: `${f.local}@${s.domain}`, ...place, local_part: f.local, remote: f.remote,
        forwarder_ids: box.forwarders.filter((x) => x.local === f.local).map((x) => x.id),
      }, depends)),
    ];
  });
  const state = { version: 4, terraform_version: '1.11.4', serial: 1, lineage: randomUUID(), outputs: {}, resources, check_results: null };
  writeFileSync(join(dir, 'terraform.tfstate'), JSON.stringify(state));
  return resources.length;
}

/**
 * The state of `n` bare `terraform_data` resources (an apply of 3,000 creates takes
 * minutes): one resource applied for real, its instance copied for the others.
 */
async function writeBareState(binary: string, dir: string, n: number): Promise<void> {
  const one = await bareStack(binary, 1);
  await tf(binary, one, APPLY);
  const state = JSON.parse(readFileSync(join(one, 'terraform.tfstate'), 'utf8'));
  rmSync(one, { recursive: true, force: true });
  const template = JSON.stringify(state.resources[0]);
  state.resources = Array.from({ length: n }, (_, i) => {
    const r = JSON.parse(template);
    r.name = `r${i}`;
    const attributes = r.instances[0].attributes;
    attributes.id = randomUUID();
    attributes.triggers_replace.value = { n: String(i) };
    return r;
  });
  state.lineage = randomUUID();
  writeFileSync(join(dir, 'terraform.tfstate'), JSON.stringify(state));
}

/** The account of `sites`, created through the client (an owner, a type by name). */
export async function seedAccount(emu: BenchEmulator, sites: readonly ProviderSite[]): Promise<void> {
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: BENCH_API_KEY, maxConcurrency: 16 });
  const type = (await client.packageTypes.list()).find((t) => t.label === 'Linux Unlimited')!;
  await pool(sites, 16, async (site) => {
    await client.packages.create({ type: type.id, domainName: site.domain, extraDomainNames: [], label: `Site ${site.name}`, documentRoots: {}, stackUser: null });
    for (const m of site.mailboxes) await client.mail.createMailbox(site.domain, site.domain, { local: m.local, send: true, receive: true, password: BENCH_PASSWORD });
    for (const f of site.forwarders) await client.mail.createForwarder(site.domain, site.domain, { local: f.local, remote: f.remote });
  });
  client.close();
}

// ---------------------------------------------------------------------------------

export interface ProviderApplyResult {
  objects: number;
  shape: { packages: number; mailboxes: number; forwarders: number };
  /** Our provider against bare `terraform_data` (the goal). */
  comparison: Comparison;
  evidence: FloorEvidence;
  /** One apply per size (objects created from an empty state): its requests and bytes. */
  traffic: ApplyTraffic[];
}

/** The requests of one provider apply creating `objects` objects from an empty state. */
export interface ApplyTraffic {
  objects: number;
  summary: TrafficSummary;
  requestsPerObject: number;
  bytesPerObject: number;
  /** The emulator's own time per write and per read in that apply. */
  api: ApiTiming;
  /** The apply's wall time, and its requests from the command's start (for one object chain: its critical path). */
  wallMs: number;
  steps: PathStep[];
}

/**
 * One `terraform apply` of our provider creating `objects` objects (packages, each with
 * a mailbox and a forwarder) from an empty state on a reset emulator, and the requests
 * it made (the emulator's request log). Used by the apply figure and by npm test.
 */
export async function applyTraffic(emu: BenchEmulator, objects: number): Promise<ApplyTraffic> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const dir = writeProviderStack(scratchDir('traffic-'), providerSites(objects));
  try {
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await emu.reset();
    await emu.clearRequests();
    const startedAt = Date.now();
    const wallMs = await tf(binary, dir, APPLY, env);
    const entries = await emu.requests();
    const summary = summarize(entries);
    return {
      objects, summary, requestsPerObject: summary.requests / objects, bytesPerObject: summary.bytes / objects,
      api: apiTiming(entries), wallMs, steps: timeline(entries, startedAt),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `terraform apply` (default parallelism 10) creating `objects` objects (packages, each
 * with a mailbox and a forwarder) from an empty state and a reset emulator, against an
 * apply of as many bare `terraform_data` resources; then one apply of each of
 * `trafficObjects` objects, whose requests are counted.
 */
export async function benchProviderApply(emu: BenchEmulator, options: { objects: number; runs: number; cpuRuns: number; trafficObjects: readonly number[] }): Promise<ProviderApplyResult> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const stack = async (objects: number) => {
    const sites = providerSites(objects);
    const dir = writeProviderStack(scratchDir('apply-'), sites);
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    return { dir, sites };
  };
  const fresh = (dir: string) => {
    for (const f of ['terraform.tfstate', 'terraform.tfstate.backup']) rmSync(join(dir, f), { force: true });
  };
  const subject = await stack(options.objects);
  const bare = await bareStack(binary, options.objects);
  // The floor applies the same directory (same configuration and installed provider) from an empty state.
  const kit = await prepareFloor();
  const go = goFloorFor(subject.dir, kit.dir);
  const measured = await rounds<Side>(sides({
    provider: async () => {
      fresh(subject.dir);
      await emu.reset();
      return tf(binary, subject.dir, APPLY, env);
    },
    floor: async () => {
      fresh(subject.dir);
      return tf(binary, subject.dir, APPLY, { ...env, ...kit.env });
    },
    bare: async () => {
      fresh(bare);
      return tf(binary, bare, APPLY);
    },
  }, go, async () => {
    fresh(subject.dir);
    return tf(binary, subject.dir, APPLY, { ...env, ...(go.skipped === undefined ? go.env : {}) });
  }), options.runs);
  const { go: goCpu, ...cpu } = await cpuRounds(options.cpuRuns, async () => {
    fresh(subject.dir);
    await emu.reset();
    const provider = await cpuRun(binary, subject.dir, APPLY, env, (cpuDir) => kit.timedEnv('provider', cpuDir));
    fresh(subject.dir);
    await emu.reset();
    await emu.clearRequests();
    const floor = await cpuRun(binary, subject.dir, APPLY, env, (cpuDir) => kit.timedEnv('floor', cpuDir));
    fresh(subject.dir);
    const goSplit = go.skipped === undefined ? await cpuRun(binary, subject.dir, APPLY, env, (cpuDir) => go.timedEnv(cpuDir)) : undefined;
    await expectNoRequests(emu, 'apply');
    fresh(bare);
    return { provider, floor, go: goSplit, bare: await cpuRun(binary, bare, APPLY, {}) };
  });
  rmSync(kit.dir, { recursive: true, force: true });
  for (const dir of [subject.dir, bare]) rmSync(dir, { recursive: true, force: true });
  const traffic: ApplyTraffic[] = [];
  for (const n of options.trafficObjects) traffic.push(await applyTraffic(emu, n));
  return {
    objects: options.objects, shape: count(subject.sites),
    comparison: compare(measured, 'provider', 'bare'), evidence: evidenceOf(measured, cpu, options.cpuRuns, go, goCpu),
    traffic,
  };
}

// ---------------------------------------------------------------------------------

/** Provider start-up: ours and the Go floor's, each against `node -e 0` in the same rounds. */
export interface ProviderStartResult {
  provider: Comparison;
  go: { go: Comparison; providerVsGo: Comparison; skipped?: undefined } | { skipped: string };
}

/**
 * The installed provider from spawn to its handshake line (with mutual TLS, as
 * Terraform waits for it) against `node -e 0`, and the Go floor started by the same
 * launcher (RESELLER_NODE: its swap wrapper), interleaved.
 */
export async function benchProviderStart(options: { runs: number }): Promise<ProviderStartResult> {
  const dist = join(REPO_ROOT, 'dist', 'src', 'provider');
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { installProvider } = require(join(dist, 'install.js')) as typeof import('../src/provider/install');
  const { createServerCertificate } = require(join(dist, 'transport', 'certificate.js')) as typeof import('../src/provider/transport/certificate');
  const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = require(join(dist, 'transport', 'handshake.js')) as typeof import('../src/provider/transport/handshake');
  const dir = scratchDir('start-');
  const executable = installProvider(dir, undefined, builtProvider());
  // The Go floor needs an initialised stack to read our schema from (swap.sh).
  const stack = writeProviderStack(scratchDir('start-stack-'), providerSites(3));
  const binary = findTerraform();
  await tf(binary, stack, ['init', '-input=false', '-no-color']);
  const go = goFloorFor(stack, dir);
  // Each start is killed at its handshake line: its socket directory goes in the scratch dir, removed below.
  const env = {
    ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: createServerCertificate().certPem, PLUGIN_PROTOCOL_VERSIONS: '6',
    PLUGIN_UNIX_SOCKET_DIR: dir,
  };
  const timed = (command: string, args: string[], untilLine: boolean, extra: NodeJS.ProcessEnv = {}) => timeToStart(command, args, untilLine, { ...env, ...extra });
  try {
    const actions = {
      provider: () => timed(executable, [], true),
      node: () => timed(process.execPath, ['-e', '0'], false),
    };
    if (go.skipped !== undefined) {
      return { provider: compare(await rounds(actions, options.runs, 2), 'provider', 'node'), go };
    }
    const measured = await rounds({ ...actions, go: () => timed(executable, [], true, go.env) }, options.runs, 2);
    return {
      provider: compare(measured, 'provider', 'node'),
      go: { go: compare(measured, 'go', 'node'), providerVsGo: compare(measured, 'provider', 'go') },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(stack, { recursive: true, force: true });
  }
}
