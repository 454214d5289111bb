import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { definitionOf } from '../src/protocol';
import { installProvider } from '../src/provider/install';
import { findTerraform } from '../scripts/lib/terraform';
import { BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { builtProvider, providerConfig, ProviderSite } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { APPLY, PLAN, providerEnv, tf } from './provider';

/**
 * Issue 39: a no-change `terraform plan` of N packages, each with its web settings
 * (force-HTTPS, two free certificates, a PHP version), reads each setting of each package
 * once: `GET …/web/forceSSL`, `…/web/certificates`, `…/web/phpVersion` (one request per
 * package per setting kind read), with the package list, and nothing else of the web
 * settings (no check of the available PHP versions: nothing changes). The requests are
 * counted from the emulator's request log, by route; no time is measured.
 */

export const PACKAGE_LIST_ROUTE = 'GET /package';
/** The reads the plan must make once per package. */
export const WEB_READ_ROUTES = ['GET /package/{ref}/web/forceSSL', 'GET /package/{ref}/web/certificates', 'GET /package/{ref}/web/phpVersion'] as const;

export interface WebPlanTraffic {
  packages: number;
  /** The plan's requests (refresh included), by route. */
  plan: TrafficSummary;
}

/** The configuration: `packages` packages, each with its web settings. */
function webConfig(packages: number): Record<string, unknown> {
  const sites: ProviderSite[] = Array.from({ length: packages }, (_, i) => ({ name: `web${i}`, domain: `web-${i}.bench.example`, mailboxes: [], forwarders: [] }));
  const config = providerConfig(sites, { passwords: false }) as { resource: Record<string, Record<string, unknown>> };
  const type = definitionOf('web-settings').resourceType;
  config.resource[type] = Object.fromEntries(sites.map((s) => [s.name, {
    package: `\${reseller_package.${s.name}.domain_name}`, force_https: true, free_certificates: [s.domain, `www.${s.domain}`], php_version: '8.2',
  }]));
  return config;
}

/**
 * Applies the stack from a reset emulator (through Terraform: settings applied as a user
 * applies them), then counts the requests of one plan that must find no change.
 */
export async function webPlanTraffic(emu: BenchEmulator, options: { packages: number }): Promise<WebPlanTraffic> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const dir = scratchDir('web-plan-');
  try {
    mkdirSync(dir, { recursive: true });
    installProvider(join(dir, 'terraform.d', 'plugins'), undefined, builtProvider());
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(webConfig(options.packages), null, 1));
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await emu.reset();
    await tf(binary, dir, APPLY, env);
    await emu.clearRequests();
    await tf(binary, dir, PLAN, env); // exit 0: no changes (-detailed-exitcode)
    return { packages: options.packages, plan: summarize(await emu.requests()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The plan's requests of one route (0 when it made none). */
export const requestsOf = (t: WebPlanTraffic, route: string): number => t.plan.byRoute[route]?.requests ?? 0;

/** The web settings' routes the plan used, other than the three reads (none expected). */
export const otherWebRoutes = (t: WebPlanTraffic): string[] =>
  Object.keys(t.plan.byRoute).filter((r) => r.includes('/web/') && !(WEB_READ_ROUTES as readonly string[]).includes(r));

/** The goal: each of the three reads once per package, one package list, no other web request, no write. */
export const webPlanMet = (t: WebPlanTraffic): boolean =>
  requestsOf(t, PACKAGE_LIST_ROUTE) === 1 && WEB_READ_ROUTES.every((r) => requestsOf(t, r) === t.packages) && otherWebRoutes(t).length === 0 &&
  Object.keys(t.plan.byRoute).every((r) => r.startsWith('GET '));
