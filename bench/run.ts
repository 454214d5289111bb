import { join } from 'node:path';
import { REPO_ROOT } from '../scripts/lib/terraform';
import {
  applyFigure, BenchSizes, dnsPlanFigure, domainsPlanFigure, driftFigure, FULL, growthFigure, handlerFigure, providerApplyFigure, providerForwarderApplyFigure, providerPlanFigure,
  providerStartFigure, synthFigure, TINY,
} from './figures';
import { webPlanFigure } from './web-plan-figure';
import { mysqlPlanFigure } from './mysql-plan-figure';
import { loadPerCore, machineInfo } from './lib/machine';
import { Figure, ORDER, previousFigures, renderConsole, writeBenchmarks } from './report';

const USAGE = `usage: npm run bench [-- --only provider-plan,provider-apply,provider-apply-forwarders,provider-start,dns-plan,web-plan,domains-plan,mysql-plan,handler,growth,synth,drift,apply] [--quick] [--no-write]

Runs the benchmarks, prints a table and rewrites the generated part of BENCHMARKS.md.
  --only LIST   run these figures only; the others keep their last recorded values
  --quick       tiny sizes (a smoke run; never written to BENCHMARKS.md)
  --no-write    print only
`;

async function main(argv: string[]): Promise<number> {
  let only: Figure['id'][] = ORDER;
  let quick = false;
  let write = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') {
      const list = (argv[++i] ?? '').split(',').filter(Boolean);
      const bad = list.filter((x) => !ORDER.includes(x as Figure['id']));
      if (bad.length || list.length === 0) {
        process.stderr.write(`unknown figure(s) ${bad.join(', ')}\n${USAGE}`);
        return 64;
      }
      only = list as Figure['id'][];
    } else if (a === '--quick') quick = true;
    else if (a === '--no-write') write = false;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      return 0;
    } else {
      process.stderr.write(`unknown argument ${a}\n${USAGE}`);
      return 64;
    }
  }
  const sizes: BenchSizes = quick ? TINY : FULL;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const startLoad = loadPerCore();
  const machine = machineInfo();
  log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, ${machine.terraform}; load/core ${startLoad.toFixed(2)}`);
  const runners: Record<Figure['id'], () => Promise<Figure>> = {
    handler: () => handlerFigure(sizes),
    growth: () => growthFigure(sizes, log),
    synth: () => synthFigure(sizes),
    drift: () => driftFigure(sizes, log),
    apply: () => applyFigure(sizes),
    'provider-plan': () => providerPlanFigure(sizes),
    'provider-apply': () => providerApplyFigure(sizes),
    'provider-apply-forwarders': () => providerForwarderApplyFigure(sizes),
    'provider-start': () => providerStartFigure(sizes),
    'dns-plan': () => dnsPlanFigure(sizes),
    'web-plan': () => webPlanFigure(quick),
    'domains-plan': () => domainsPlanFigure(sizes),
    'mysql-plan': () => mysqlPlanFigure(sizes.mysqlPlan),
  };
  const file = join(REPO_ROOT, 'BENCHMARKS.md');
  const figures = new Map(previousFigures(file).map((f) => [f.id, f]));
  for (const id of ORDER.filter((x) => only.includes(x))) {
    log(`${id} ...`);
    const started = performance.now();
    const figure = await runners[id]();
    figures.set(id, figure);
    log(`${id}: ${figure.measured} (${((performance.now() - started) / 1000).toFixed(0)} s)\n${figure.details}\n`);
  }
  const all = ORDER.map((id) => figures.get(id)).filter((f): f is Figure => f !== undefined);
  process.stdout.write(`\n${renderConsole(all)}\n`);
  if (write && !quick) {
    writeBenchmarks(file, all, {
      machine,
      command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
      date: new Date().toISOString(),
      loadPerCore: { start: startLoad, end: loadPerCore() },
    });
    log(`wrote ${file}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
