import { startBenchEmulator } from './lib/emulator';
import { loadPerCore } from './lib/machine';
import type { Figure } from './report';
import { otherWebRoutes, PACKAGE_LIST_ROUTE, requestsOf, WEB_READ_ROUTES, webPlanMet, webPlanTraffic } from './web-plan';

/** Packages of the figure (issue 39: 300); `--quick`: 2. */
export const WEB_PLAN_PACKAGES = 300;

/** The `web-plan` figure: the requests of a no-change plan of N packages' web settings (bench/web-plan.ts). */
export async function webPlanFigure(quick: boolean): Promise<Figure> {
  const emu = await startBenchEmulator();
  try {
    const t = await webPlanTraffic(emu, { packages: quick ? 2 : WEB_PLAN_PACKAGES });
    const reads = WEB_READ_ROUTES.map((r) => requestsOf(t, r));
    return {
      id: 'web-plan',
      title: `no-change \`terraform plan\` of ${t.packages} packages' web settings: reads per package`,
      measured: `${reads.join(' + ')} reads (force-HTTPS, certificates, PHP), ${requestsOf(t, PACKAGE_LIST_ROUTE)} package list, ${otherWebRoutes(t).length} other web routes; ${t.plan.requests} requests in all`,
      goal: `1 read per package per setting kind read (${t.packages} each), 1 package list`,
      met: webPlanMet(t),
      details: [
        `${t.packages} packages, each with a \`reseller_web_settings\` (force_https, two free certificates, php_version 8.2), applied through Terraform from a reset emulator; ` +
          'then one `terraform plan` (refresh included) that finds no change. Its requests, from the emulator\'s request log (count / bytes):',
        '',
        '| route | requests | bytes |',
        '|---|---|---|',
        ...Object.entries(t.plan.byRoute).sort(([a], [b]) => a.localeCompare(b)).map(([route, v]) => `| \`${route}\` | ${v.requests} | ${v.bytes} |`),
      ].join('\n'),
      measuredAt: new Date().toISOString(),
      loadPerCore: loadPerCore(),
    };
  } finally {
    await emu.stop();
  }
}
