import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTerraform } from '../scripts/lib/terraform';
import { installProvider, PROVIDER_SOURCE } from '../src/provider/install';
import { BENCH_API_KEY, BenchEmulator, summarize, TrafficSummary } from './lib/emulator';
import { builtProvider } from './lib/provider-config';
import { scratchDir } from './lib/scratch';
import { APPLY, PLAN, providerEnv, tf } from './provider';

/**
 * Issue 41: a no-change `terraform plan` of N `reseller_domain_nameservers` (one per
 * registration) beside a `reseller_domains` data source reads the registration list
 * once and each registration's nameservers once, whatever N. The registrations are
 * registered through the API first (the emulator's balance raised to pay for them);
 * requests are counted from the emulator's request log, by route; no time is measured.
 */

export const LIST_ROUTE = 'GET /domain';
export const NAMESERVERS_ROUTE = 'GET /domain/{name}/nameservers';
export const DETAIL_ROUTE = 'GET /domain/{name}';

export interface DomainsPlanTraffic {
  /** Registrations with a nameservers resource each. */
  domains: number;
  /** The plan's requests (refresh and data source included), by route. */
  plan: TrafficSummary;
}

/** The names the benchmark registers (the emulator's fixture registrations come first in the account). */
const nameOf = (i: number) => `ns-bench-${i}.example`;

async function register(emu: BenchEmulator, count: number): Promise<void> {
  const call = async (path: string, body: unknown, control = false) => {
    const res = await fetch(`${emu.url}${control ? '/__emulator' : ''}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(control ? {} : { authorization: `Bearer ${Buffer.from(BENCH_API_KEY).toString('base64')}` }) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  };
  await call('/balance', { balance: 100 + count * 12 }, true);
  for (let i = 0; i < count; i++) await call('/reseller/*/addDomain', { name: nameOf(i), years: 1, contact: {}, nameservers: ['ns1.stackdns.com', 'ns2.stackdns.com'] });
}

function writeStack(dir: string, url: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  installProvider(join(dir, 'terraform.d', 'plugins'), undefined, builtProvider());
  const resources = Object.fromEntries(Array.from({ length: count }, (_, i) => [
    `ns${i}`, { domain: nameOf(i), nameservers: [`ns1.dns-${i % 10}.example.net`, `ns2.dns-${i % 10}.example.net`] },
  ]));
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
    terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } },
    provider: { reseller: { api_url: url } },
    resource: { reseller_domain_nameservers: resources },
    data: { reseller_domains: { all: {} } },
    output: { expiring: { value: '${[for d in data.reseller_domains.all.domains : d.name if timecmp(d.expiry_date, timeadd(plantimestamp(), "720h")) < 0]}' } },
  }, null, 1));
}

/** Registers `domains` names, applies their nameservers through Terraform, then counts the requests of one plan that must find no change. */
export async function domainsPlanTraffic(emu: BenchEmulator, options: { domains: number }): Promise<DomainsPlanTraffic> {
  const binary = findTerraform();
  const env = providerEnv(emu);
  const dir = scratchDir('domains-plan-');
  try {
    await emu.reset();
    await register(emu, options.domains);
    writeStack(dir, emu.url, options.domains);
    await tf(binary, dir, ['init', '-input=false', '-no-color'], env);
    await tf(binary, dir, APPLY, env);
    await emu.clearRequests();
    await tf(binary, dir, PLAN, env); // exit 0: no changes (-detailed-exitcode)
    return { domains: options.domains, plan: summarize(await emu.requests()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const domainRequestsOf = (t: DomainsPlanTraffic, route: string): number => t.plan.byRoute[route]?.requests ?? 0;

/** The goal: one list read, one nameservers read per registration, no detail read, no write. */
export const domainsPlanMet = (t: DomainsPlanTraffic): boolean =>
  domainRequestsOf(t, LIST_ROUTE) === 1 && domainRequestsOf(t, NAMESERVERS_ROUTE) === t.domains && domainRequestsOf(t, DETAIL_ROUTE) === 0
  && Object.keys(t.plan.byRoute).every((route) => route.startsWith('GET '));
