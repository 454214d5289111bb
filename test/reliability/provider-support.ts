/**
 * Helpers of the reliability tests of the native provider (provider-*.test.ts): a stack
 * directory of hand-generated provider Terraform JSON (bench/lib/provider-config.ts,
 * from the kind definitions) with the provider in its implied local mirror, and checks
 * of the emulator's account against what the stack declares. REAL terraform only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountDump } from '../../src/emulator';
import { PASSWORD_VARIABLE, ProviderSite, writeProviderStack } from '../../bench/lib/provider-config';
import { API_KEY } from '../helpers/emulator';
import { tail, terraform } from './support';

export { providerAddresses, PASSWORD_VARIABLE } from '../../bench/lib/provider-config';
export type { ProviderSite } from '../../bench/lib/provider-config';

export const APPLY = ['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'];
export const PLAN = ['plan', '-detailed-exitcode', '-input=false', '-no-color'];

/** A provider stack in a fresh temp directory, `terraform init` done (offline). */
export async function providerStack(tf: string, prefix: string, sites: readonly ProviderSite[], apiUrl: string, env: NodeJS.ProcessEnv): Promise<string> {
  const dir = writeProviderStack(mkdtempSync(join(tmpdir(), `reliability-${prefix}-`)), sites, { apiUrl });
  const init = await terraform(tf, dir, ['init', '-input=false', '-no-color'], env);
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.stdout}\n${init.stderr}`);
  return dir;
}

/** The provider's environment: the key, the password variable, short confirmation waits. */
export function providerEnv(password: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    RESELLER_API_KEY: API_KEY,
    [`TF_VAR_${PASSWORD_VARIABLE}`]: password,
    RESELLER_POLL_INTERVAL: '100ms',
    RESELLER_CONFIRM_TIMEOUT: '5000ms',
    ...extra,
  };
}

/** Declared objects the account lacks (`package d`, `mailbox a@d`, `forwarder a@d`). */
export function missingObjects(account: AccountDump, sites: readonly ProviderSite[]): string[] {
  const missing: string[] = [];
  for (const site of sites) {
    const pkg = account.packages.find((p) => p.name === site.domain);
    if (!pkg) missing.push(`package ${site.domain}`);
    const mail = pkg?.mail ?? [];
    for (const m of site.mailboxes) {
      const address = `${m.local}@${site.domain}`;
      if (!mail.some((d) => d.mailboxes.some((x) => x.address === address))) missing.push(`mailbox ${address}`);
    }
    for (const f of site.forwarders) {
      const address = `${f.local}@${site.domain}`;
      if (!mail.some((d) => d.forwarders.some((x) => x.address === address && x.remote === f.remote))) missing.push(`forwarder ${address}`);
    }
  }
  return missing;
}

/**
 * The account holds exactly what the sites declare, each object once: the packages (no
 * other), their label and type, and on each the declared mailboxes and forwarders only.
 */
export function expectExactlyDeclared(account: AccountDump, sites: readonly ProviderSite[]): void {
  const names = account.packages.map((p) => p.name);
  expect(names.length).toBe(new Set(names).size);
  expect([...names].sort()).toEqual(sites.map((s) => s.domain).sort());
  for (const site of sites) {
    const pkg = account.packages.find((p) => p.name === site.domain)!;
    const mailboxes = pkg.mail.flatMap((d) => d.mailboxes.map((m) => m.address));
    const forwarders = pkg.mail.flatMap((d) => d.forwarders.map((f) => `${f.address}->${f.remote}`));
    expect({ site: site.domain, mailboxes: [...mailboxes].sort(), forwarders: [...forwarders].sort() }).toEqual({
      site: site.domain,
      mailboxes: site.mailboxes.map((m) => `${m.local}@${site.domain}`).sort(),
      forwarders: site.forwarders.map((f) => `${f.local}@${site.domain}->${f.remote}`).sort(),
    });
    expect(pkg).toMatchObject({ label: `Site ${site.name}`, packageTypeName: 'Linux Unlimited', enabled: true });
    // Each declared DNS record exactly once in its zone.
    const records = pkg.dns.flatMap((z) => z.records.map((r) => `${r.type} ${r.host} ${r.pri ?? ''} ${r.txt ?? r.target ?? r.ip ?? ''}`));
    for (const r of site.records ?? []) {
      const host = r.owner === '@' ? site.domain : `${r.owner}.${site.domain}`;
      expect({ record: r.name, copies: records.filter((x) => x === `${r.type} ${host} ${r.priority ?? ''} ${r.value}`).length }).toEqual({ record: r.name, copies: 1 });
    }
  }
}

/** `terraform plan -detailed-exitcode` is clean (exit 0), or the plan's text in the failure. */
export async function expectCleanPlan(tf: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const plan = await terraform(tf, dir, PLAN, env);
  expect({ code: plan.code, out: plan.code === 0 ? '' : tail(plan.stdout + plan.stderr) }).toEqual({ code: 0, out: '' });
}
