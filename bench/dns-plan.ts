import { rmSync } from 'node:fs';
import { findTerraform } from '../scripts/lib/terraform';
import { BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { ProviderSite, writeProviderStack } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { APPLY, PLAN, providerEnv, tf } from './provider';

/**
 * Issue 26: a no-change `terraform plan` of a stack of DNS records over many zones
 * reads each package's zones once (`GET /package/{id}/dns` gives every zone of the
 * package), with the package list, whatever the number of records. The requests are
 * counted from the emulator's request log, by route; no time is measured.
 */

/** The routes the figure's goal is about. */
export const PACKAGE_LIST_ROUTE = 'GET /package';
export const ZONES_ROUTE = 'GET /package/{ref}/dns';
export const ONE_ZONE_ROUTE = 'GET /package/{ref}/dns/{zone}';

export interface DnsPlanTraffic {
  packages: number;
  records: number;
  /** Zones the records are in (one per package here: its primary domain). */
  zones: number;
  /** The plan's requests (refresh included), by route. */
  plan: TrafficSummary;
}

const TYPES = ['A', 'CNAME', 'TXT', 'MX'] as const;

/** `packages` packages with `recordsPerPackage` records each in its zone: A, CNAME, TXT and MX in turn. */
export function dnsSites(packages: number, recordsPerPackage: number): ProviderSite[] {
  return Array.from({ length: packages }, (_, i): ProviderSite => ({
    name: `dns${i}`, domain: `dns-${i}.bench.example`, mailboxes: [], forwarders: [],
    records: Array.from({ length: recordsPerPackage }, (_, j) => {
      const type = TYPES[j % TYPES.length];
      const owner = `r${j}`;
      const name = `dns${i}_r${j}`;
      switch (type) {
        case 'A': return { name, owner, type, value: `192.0.2.${(j % 250) + 1}` };
        case 'CNAME': return { name, owner, type, value: `target-${j}.example.net` };
        case 'TXT': return { name, owner, type, value: `bench record ${j}` };
        case 'MX': return { name, owner, type, value: `mx${j}.example.net`, priority: 10 };
      }
    }),
  }));
}

/**
 * Applies the stack from a reset emulator (through Terraform: the records created as a
 * user creates them), then counts the requests of one plan that must find no change.
 */
export async function dnsPlanTraffic(emu: BenchEmulator, options: { packages: number; recordsPerPackage: number }): Promise<DnsPlanTraffic> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const sites = dnsSites(options.packages, options.recordsPerPackage);
  const dir = writeProviderStack(scratchDir('dns-plan-'), sites, { passwords: false });
  try {
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await emu.reset();
    await tf(binary, dir, APPLY, env);
    await emu.clearRequests();
    await tf(binary, dir, PLAN, env); // exit 0: no changes (-detailed-exitcode)
    return { packages: sites.length, records: sites.length * options.recordsPerPackage, zones: sites.length, plan: summarize(await emu.requests()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The plan's requests of one route (0 when it made none). */
export const requestsOf = (t: DnsPlanTraffic, route: string): number => t.plan.byRoute[route]?.requests ?? 0;

/** The goal: one package list and one zones read per package; no one-zone read. */
export const dnsPlanMet = (t: DnsPlanTraffic): boolean =>
  requestsOf(t, PACKAGE_LIST_ROUTE) === 1 && requestsOf(t, ZONES_ROUTE) === t.packages && requestsOf(t, ONE_ZONE_ROUTE) === 0;
