import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installProvider, PROVIDER_SOURCE } from '../src/provider/install';
import { findTerraform } from '../scripts/lib/terraform';
import { BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { builtProvider } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { APPLY, PLAN, providerEnv, tf } from './provider';

/**
 * Issue 40: a no-change `terraform plan` of many MySQL databases over many packages reads
 * each package's databases once (`GET /package/{id}/web/mysqlDatabases` lists them all),
 * with the package list, whatever the number of databases. The requests are counted from
 * the emulator's request log, by route; no time is measured.
 */

export const PACKAGE_LIST_ROUTE = 'GET /package';
export const DATABASES_ROUTE = 'GET /package/{ref}/web/mysqlDatabases';

export interface MysqlPlanTraffic {
  packages: number;
  databases: number;
  /** The plan's requests (refresh included), by route. */
  plan: TrafficSummary;
}

/** `packages` packages with `perPackage` databases each, their passwords from one ephemeral variable. */
export function mysqlConfig(packages: number, perPackage: number): unknown {
  const pkgs: Record<string, unknown> = {};
  const dbs: Record<string, unknown> = {};
  for (let i = 0; i < packages; i++) {
    pkgs[`site${i}`] = { domain_name: `db-${i}.bench.example`, package_type: 'Linux Unlimited' };
    for (let j = 0; j < perPackage; j++) {
      // Database names are unique in the account (emulator: assumed), so each carries its package's number.
      dbs[`site${i}_db${j}`] = { package: `\${reseller_package.site${i}.domain_name}`, name: `s${i}_db${j}`, password_wo: '${var.db_password}', password_wo_version: 1 };
    }
  }
  return {
    terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } },
    variable: { db_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: {} },
    resource: { reseller_package: pkgs, reseller_mysql_database: dbs },
  };
}

/**
 * Applies the stack from a reset emulator (through Terraform: the databases created as a
 * user creates them), then counts the requests of one plan that must find no change.
 */
export async function mysqlPlanTraffic(emu: BenchEmulator, options: { packages: number; perPackage: number }): Promise<MysqlPlanTraffic> {
  const binary = findTerraform();
  const env = { ...providerEnv(emu), TF_VAR_db_password: 'Bench-db-Passw0rd' };
  const dir = scratchDir('mysql-plan-');
  mkdirSync(dir, { recursive: true });
  installProvider(join(dir, 'terraform.d', 'plugins'), undefined, builtProvider());
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(mysqlConfig(options.packages, options.perPackage), null, 1));
  try {
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await emu.reset();
    await tf(binary, dir, APPLY, env);
    await emu.clearRequests();
    await tf(binary, dir, PLAN, env); // exit 0: no changes (-detailed-exitcode)
    return { packages: options.packages, databases: options.packages * options.perPackage, plan: summarize(await emu.requests()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The plan's requests of one route (0 when it made none). */
export const requestsOf = (t: MysqlPlanTraffic, route: string): number => t.plan.byRoute[route]?.requests ?? 0;

/** The goal: one package list and one databases read per package; nothing written. */
export const mysqlPlanMet = (t: MysqlPlanTraffic): boolean =>
  requestsOf(t, PACKAGE_LIST_ROUTE) === 1 && requestsOf(t, DATABASES_ROUTE) === t.packages
  && Object.keys(t.plan.byRoute).every((route) => route.startsWith('GET '));
