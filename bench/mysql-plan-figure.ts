import { startBenchEmulator } from './lib/emulator';
import { loadPerCore } from './lib/machine';
import { DATABASES_ROUTE, mysqlPlanMet, mysqlPlanTraffic, PACKAGE_LIST_ROUTE, requestsOf } from './mysql-plan';
import type { Figure } from './report';

/** The `mysql-plan` figure: the reads of a no-change plan of MySQL databases (bench/mysql-plan.ts). */
export async function mysqlPlanFigure(sizes: { packages: number; perPackage: number }): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const t = await mysqlPlanTraffic(emu, sizes);
    const rows = Object.entries(t.plan.byRoute).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([route, r]) => `| \`${route}\` | ${r.requests} | ${r.bytes} |`);
    return {
      id: 'mysql-plan', title: `no-change \`terraform plan\` of ${t.databases} MySQL databases over ${t.packages} packages: database reads`,
      measured: `${requestsOf(t, DATABASES_ROUTE)} database list reads, ${requestsOf(t, PACKAGE_LIST_ROUTE)} package list; ${t.plan.requests} requests in all`,
      goal: `1 database list read per package (${t.packages}), 1 package list, no write`,
      met: mysqlPlanMet(t),
      details: [
        `${t.packages} packages with ${sizes.perPackage} MySQL databases each (passwords write-only, from one ephemeral variable), applied through Terraform from a reset emulator; then one \`terraform plan\` (refresh included) that finds no change. Its requests, from the emulator's request log (count / bytes):`,
        '',
        '| route | requests | bytes |',
        '|---|---|---|',
        ...rows,
      ].join('\n'),
      measuredAt: new Date().toISOString(),
      loadPerCore: loadPerCore(),
    };
  } finally {
    await emu.stop();
  }
}
