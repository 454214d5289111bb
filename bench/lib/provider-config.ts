import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { definitionOf } from '../../src/protocol';
import type { Kind } from '../../src/protocol';
import { installProvider, PROVIDER_SOURCE } from '../../src/provider/install';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * Terraform JSON for the native provider (`engine: 'provider'`), written straight from
 * the kind definitions (attribute names, resource types), for the reliability suite
 * and the benchmarks. It does not go through the constructs, so these suites measure
 * and test the provider whatever the constructs synthesize.
 */
export const PASSWORD_VARIABLE = 'mailbox_password';

export interface ProviderSite {
  /** Resource name of the package (`reseller_package.<name>`). */
  name: string;
  domain: string;
  label?: string;
  packageType?: string;
  /** Resource name and local part of each mailbox; the password comes from `var.mailbox_password`. */
  mailboxes: Array<{ name: string; local: string; send?: boolean }>;
  forwarders: Array<{ name: string; local: string; remote: string }>;
  /** DNS records in the package's zone (`reseller_dns_record.<name>`). */
  records?: Array<{ name: string; owner: string; type: string; value: string; priority?: number }>;
}

type Body = Record<string, unknown>;

/** A resource body: spec fields (camelCase) renamed to the kind's attributes. */
function body(kind: Kind, fields: Record<string, unknown>): Body {
  const def = definitionOf(kind);
  const out: Body = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const field = def.fields.find((f) => f.name === name);
    if (!field) throw new Error(`${kind} has no field ${name}`);
    out[field.attribute] = value;
  }
  return out;
}

export function resourceTypeOf(kind: Kind): string {
  return definitionOf(kind).resourceType;
}

/** The configuration document: provider, password variable (sensitive + ephemeral), resources. */
export function providerConfig(sites: readonly ProviderSite[], options: { apiUrl?: string; passwords?: boolean } = {}): Body {
  const packages: Record<string, Body> = {};
  const mailboxes: Record<string, Body> = {};
  const forwarders: Record<string, Body> = {};
  const records: Record<string, Body> = {};
  const passwords = options.passwords ?? true;
  for (const site of sites) {
    packages[site.name] = body('package', { domainName: site.domain, packageType: site.packageType ?? 'Linux Unlimited', label: site.label ?? `Site ${site.name}` });
    // A reference, so that Terraform creates the package first.
    const pkg = `\${${resourceTypeOf('package')}.${site.name}.domain_name}`;
    for (const m of site.mailboxes) {
      mailboxes[m.name] = body('mailbox', {
        packageDomain: pkg, localPart: m.local, send: m.send,
        ...(passwords ? { password: `\${var.${PASSWORD_VARIABLE}}`, passwordVersion: 1 } : {}),
      });
    }
    for (const f of site.forwarders) forwarders[f.name] = body('forwarder', { packageDomain: pkg, localPart: f.local, remote: f.remote });
    for (const r of site.records ?? []) records[r.name] = body('dns-record', { packageDomain: pkg, name: r.owner, type: r.type, value: r.value, priority: r.priority });
  }
  const resource: Record<string, Record<string, Body>> = {};
  if (Object.keys(packages).length) resource[resourceTypeOf('package')] = packages;
  if (Object.keys(mailboxes).length) resource[resourceTypeOf('mailbox')] = mailboxes;
  if (Object.keys(forwarders).length) resource[resourceTypeOf('forwarder')] = forwarders;
  if (Object.keys(records).length) resource[resourceTypeOf('dns-record')] = records;
  return {
    terraform: { required_providers: { reseller: { source: PROVIDER_SOURCE } } },
    ...(passwords ? { variable: { [PASSWORD_VARIABLE]: { type: 'string', sensitive: true, ephemeral: true } } } : {}),
    provider: { reseller: options.apiUrl ? { api_url: options.apiUrl } : {} },
    resource,
  };
}

/** Every resource address of the sites. */
export function providerAddresses(sites: readonly ProviderSite[]): string[] {
  return sites.flatMap((s) => [
    `${resourceTypeOf('package')}.${s.name}`,
    ...s.mailboxes.map((m) => `${resourceTypeOf('mailbox')}.${m.name}`),
    ...s.forwarders.map((f) => `${resourceTypeOf('forwarder')}.${f.name}`),
    ...(s.records ?? []).map((r) => `${resourceTypeOf('dns-record')}.${r.name}`),
  ]);
}

/** The built provider bundle (from tests too, which run the TypeScript sources); a clear error when missing. */
export function builtProvider(): { bundle: string; cache: string } {
  const bundle = join(REPO_ROOT, 'dist', 'src', 'provider', 'bundle.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run 'npm run build' first (npm test does)`);
  return { bundle, cache: `${bundle}.cache` };
}

/**
 * A stack directory with the configuration and the provider in its implied local
 * mirror (as `reseller-hosting provider install --stack DIR` places it), ready for an
 * offline `terraform init`.
 */
export function writeProviderStack(dir: string, sites: readonly ProviderSite[], options: { apiUrl?: string; passwords?: boolean } = {}): string {
  mkdirSync(dir, { recursive: true });
  installProvider(join(dir, 'terraform.d', 'plugins'), undefined, builtProvider());
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(providerConfig(sites, options), null, 1));
  return dir;
}

/**
 * `objects` objects as packages each with a mailbox and a forwarder (the last package may
 * have fewer): 200 -> 67 packages, 67 mailboxes, 66 forwarders.
 */
export function providerSites(objects: number, prefix = 'site', domain = (i: number) => `${prefix}-${i}.bench.example`): ProviderSite[] {
  const sites: ProviderSite[] = [];
  let left = objects;
  for (let i = 0; left > 0; i++) {
    const site: ProviderSite = { name: `${prefix}${i}`, domain: domain(i), mailboxes: [], forwarders: [] };
    left--;
    if (left > 0) {
      site.mailboxes.push({ name: `${prefix}${i}_mb`, local: 'box0' });
      left--;
    }
    if (left > 0) {
      site.forwarders.push({ name: `${prefix}${i}_fw`, local: 'fwd0', remote: 'team0@example.org' });
      left--;
    }
    sites.push(site);
  }
  return sites;
}
