import type { CloudServer, DnsRecord, ForwarderEntry, MailboxEntry, PackageSummary } from '../client';
import { labelOf } from '../client';
import {
  canonicalDomain, canonicalEmail, canonicalLocalPart, canonicalRecordName, checkCloudSpec, checkCloudZone, checkDnsRecord, checkDomainName,
  checkEmailAddress, checkLocalPart, CLOUD_PROVIDERS, CloudProvider, DNS_RECORD_TYPES, DnsRecordSpec, providerFromApi, STACK_USER_REF, userKey,
} from '../protocol';
import type { ImportAccount, ImportOptions } from './import';
import { byText } from './io';

/**
 * The per-kind emitters of `reseller-hosting import`, over one Emitter: each writes the
 * declarations of its kind's live objects (control-panel users, cloud servers, packages
 * with their mailboxes and forwarders) into the emitter's body.
 */

const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with as implements interface ' +
    'let package private protected public static yield any boolean constructor declare get module require number set string ' +
    'symbol type from of scope id app').split(' '),
);

/** Allocates construct ids: valid Terraform names (and TypeScript identifiers), unique with their `_settings`/`_password` siblings. */
class IdAllocator {
  private readonly used = new Set<string>();

  allocate(prefix: string, name: string): string {
    let base = `${prefix}_${name}`.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/_$/, '');
    if (!/^[a-z_]/.test(base)) base = `_${base}`;
    if (base.length > 60) base = base.slice(0, 60).replace(/_$/, '');
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}_${n}`;
      const names = [id, `${id}_settings`, `${id}_password`];
      if (RESERVED.has(id) || names.some((x) => this.used.has(x))) continue;
      names.forEach((x) => this.used.add(x));
      return id;
    }
  }
}

/** A TypeScript string literal. */
export function tsString(value: string): string {
  const body = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'").replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `'${body}'`;
}

/** Text safe inside a `//` comment. */
export function commentText(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

const PROVIDER_MEMBER: Record<CloudProvider, string> = {
  [CloudProvider.NATIVE]: 'CloudProvider.NATIVE',
  [CloudProvider.AWS]: 'CloudProvider.AWS',
  [CloudProvider.GCP]: 'CloudProvider.GCP',
};

const DECLARE = '\u0000';
const DECLARATION = /\u0000([A-Za-z0-9_]+)\u0000/g;


/** How many objects of each kind were declared, and how many were left out. */
export interface ImportCounts { packages: number; mailboxes: number; forwarders: number; cloudServers: number; users: number; dnsRecords: number; skipped: number }

/** What every kind's emitter writes into: the body lines, ids, names imported, variables referenced, counts. */
export class Emitter {
  readonly body: string[] = [];
  readonly ids = new IdAllocator();
  /** Library names the code uses (imported in the header). */
  readonly used = new Set<string>();
  /**
   * Variables something refers to: packages and servers are bound to a variable only
   * then (an unused local would break projects compiled with noUnusedLocals).
   */
  readonly referenced = new Set<string>();
  readonly counts: ImportCounts = { packages: 0, mailboxes: 0, forwarders: 0, cloudServers: 0, users: 0, dnsRecords: 0, skipped: 0 };
  /** Server id -> its variable. */
  readonly serverVar = new Map<number, string>();
  /** User ref -> its variable (with --users). */
  readonly userVar = new Map<string, string>();
  /** The account's control-panel users, by number. */
  readonly userRefs: readonly string[];

  /** Canonical names the user chose not to manage (ImportOptions.reference). */
  readonly references: ReadonlySet<string>;

  constructor(readonly account: ImportAccount, readonly options: ImportOptions) {
    this.references = new Set((options.reference ?? []).map((n) => canonicalDomain(n.trim())));
    this.userRefs = Object.keys(account.live.users.contact).filter((r) => STACK_USER_REF.test(r)).sort((a, b) => userNumber(a) - userNumber(b));
  }

  line(text = ''): void {
    this.body.push(text ? `    ${text}` : '');
  }

  /** Marks the start of a declaration bound to `id` when something refers to it (see `source`). */
  declare(id: string): string {
    return `${DECLARE}${id}${DECLARE}`;
  }

  /** A user as the generated code names it: its variable when declared, else its ref. */
  userExpr(ref: string): string {
    const v = this.userVar.get(ref);
    if (v) this.referenced.add(v);
    return v ?? tsString(ref);
  }

  /** The body lines with the declarations that are referenced bound to a `const`. */
  lines(): string[] {
    return this.body.map((l) => l.replace(DECLARATION, (_, id: string) => (this.referenced.has(id) ? `const ${id} = ` : '')));
  }
}

/** One StackUser per control-panel user with a valid, not yet declared e-mail (the natural key); with --users only. */
export function emitUsers(e: Emitter): void {
  if (!e.options.users || e.userRefs.length === 0) return;
  e.line('// ---- Control-panel users ----');
  e.line('// Names are set when a user is created: the API cannot change them later.');
  const seen = new Set<string>();
  for (const ref of e.userRefs) {
    const contact = e.account.live.users.contact[ref];
    const problem = checkEmailAddress(contact.email);
    const key = problem ? '' : userKey(contact.email);
    if (problem || seen.has(key)) {
      e.line(`// User ${ref} left out: ${problem ? `e-mail ${commentText(problem)}` : `another user has the e-mail ${commentText(contact.email)}`}`);
      e.counts.skipped++;
      continue;
    }
    seen.add(key);
    const id = e.ids.allocate('user', key);
    e.used.add('StackUser');
    e.userVar.set(ref, id);
    const name = contact.person_name ? `, personName: ${tsString(contact.person_name)}` : '';
    e.line(`${e.declare(id)}new StackUser(this, ${tsString(id)}, { email: ${tsString(canonicalEmail(contact.email.trim()))}${name} }); // ${ref}`);
    e.counts.users++;
  }
  e.line();
}

/** The cloud servers, protected (the API cannot cancel them); one the constructs cannot declare is referenced by host name. */
export function emitCloudServers(e: Emitter): void {
  const servers = [...e.account.live.servers].sort((a, b) => byText(a.name, b.name));
  if (servers.length) {
    e.line('// ---- Managed cloud servers ----');
    e.line('// The API cannot cancel servers, so each is protected from `terraform destroy`.');
    e.line('// forUser and periodMonths are not readable from the API and matter only when ordering:');
    e.line('// forUser is left out (an order may name no user), periodMonths is the default (1).');
  }
  for (const server of servers) emitCloudServer(e, server);
}

function emitCloudServer(e: Emitter, server: CloudServer): void {
  const host = canonicalDomain(server.name);
  const id = e.ids.allocate('server', host || server.name);
  e.serverVar.set(server.id, id);
  e.used.add('ManagedCloudServer');
  const provider = providerFromApi(server.configuration.Provider);
  const zone = server.configuration.Zone || server.location;
  const problem = checkDomainName(host)
    ? `host name "${server.name}" is not valid for ManagedCloudServer`
    : !provider
      ? `provider "${server.configuration.Provider}" is not one of ${CLOUD_PROVIDERS.join(', ')}`
      : checkCloudSpec(provider, server.configuration.spec) ?? checkCloudZone(provider, zone);
  const chosen = e.references.has(host);
  if (problem || !provider || chosen) {
    e.line(`// Cloud server ${commentText(server.name)} (id ${server.id}) is referenced, not managed: ${commentText(chosen ? 'as --reference asks (read at plan time with the provider engine)' : problem ?? '')}`);
    e.line(`${e.declare(id)}ManagedCloudServer.fromHostName(this, ${tsString(id)}, ${tsString(host || server.name)});`);
    e.counts.skipped++;
    return;
  }
  e.used.add('CloudProvider');
  const brand = e.account.brands.get(server.id);
  e.line(`// id ${server.id}; ${server.configuration.CpuCores} CPU, ${server.configuration.RamMb} MB RAM${brand ? `; branded as ${commentText(brand.name)}` : ''}`);
  e.line(`${e.declare(id)}new ManagedCloudServer(this, ${tsString(id)}, {`);
  e.line(`  hostName: ${tsString(host)},`);
  e.line(`  provider: ${PROVIDER_MEMBER[provider]},`);
  e.line(`  spec: ${tsString(server.configuration.spec)},`);
  e.line(`  zone: ${tsString(zone)},`);
  e.line('  periodMonths: 1, // not readable from the API');
  if (brand) e.line('  branded: true,');
  else if (provider === CloudProvider.NATIVE) e.line('  branded: false, // the API shows a brand only when the account has one set');
  e.line('  protect: true,');
  e.line('});');
  e.counts.cloudServers++;
}

/** The packages, each followed by the mailboxes and forwarders of its domains. */
export function emitPackages(e: Emitter): void {
  const { live } = e.account;
  const serverOfPackage = new Map<number, CloudServer>();
  for (const s of live.servers) for (const p of s.packageIds) serverOfPackage.set(p, s);
  for (const pkg of [...live.packages].sort((a, b) => byText(a.name, b.name))) {
    if (e.body.length) e.line();
    const emitted = emitPackage(e, pkg, serverOfPackage.get(pkg.id));
    if (!emitted) {
      e.counts.skipped++;
      continue;
    }
    e.counts.packages++;
    for (const name of pkg.names) {
      const mail = live.mail.get(canonicalDomain(name))?.mail;
      if (!mail) continue;
      const place = { domain: canonicalDomain(name), packageDomain: canonicalDomain(pkg.name), pkgVar: emitted };
      for (const m of [...mail.mailboxes].sort((a, b) => byText(a.local, b.local))) count(e, emitMailbox(e, m, place), 'mailboxes', emitted);
      const byLocal = new Map<string, ForwarderEntry[]>();
      for (const f of mail.forwarders) {
        const local = canonicalLocalPart(f.local);
        byLocal.set(local, [...(byLocal.get(local) ?? []), f]);
      }
      for (const [local, entries] of [...byLocal].sort((a, b) => byText(a[0], b[0]))) count(e, emitForwarder(e, local, entries, place), 'forwarders', emitted);
    }
    for (const zone of e.account.zones?.get(pkg.id) ?? []) {
      const place = { domain: zone.name, packageDomain: canonicalDomain(pkg.name), pkgVar: emitted };
      for (const r of zone.records.filter((x) => x.ref !== null && (DNS_RECORD_TYPES as readonly string[]).includes(x.type))) {
        count(e, emitDnsRecord(e, r, place), 'dnsRecords', emitted);
      }
    }
  }
}

/** Counts a mail object: declared (its package variable is then referenced) or left out. */
function count(e: Emitter, declared: boolean, what: 'mailboxes' | 'forwarders' | 'dnsRecords', pkgVar: string): void {
  if (!declared) {
    e.counts.skipped++;
    return;
  }
  e.counts[what]++;
  e.referenced.add(pkgVar);
}

function emitPackage(e: Emitter, pkg: PackageSummary, server: CloudServer | undefined): string | undefined {
  const { types } = e.account.live;
  const primary = canonicalDomain(pkg.name);
  const extras = pkg.names.filter((n) => n !== pkg.name).map(canonicalDomain);
  const bad = [pkg.name, ...pkg.names].find((n) => checkDomainName(n) !== undefined);
  if (bad !== undefined) {
    e.line(`// Package ${commentText(pkg.name)} (id ${pkg.id}) left out: the domain name "${commentText(bad)}" is not valid for HostingPackage.`);
    return undefined;
  }
  const id = e.ids.allocate('pkg', primary);
  e.used.add('HostingPackage');
  if ([primary, ...extras].some((n) => e.references.has(n))) {
    e.line(`// Package id ${pkg.id} is referenced, not managed, as --reference asks (read at plan time with the provider engine);`);
    e.line('// its mailboxes and forwarders are not declared: declare them on it to manage them.');
    e.line(`${e.declare(id)}HostingPackage.fromDomainName(this, ${tsString(id)}, ${tsString(primary)});`);
    return undefined;
  }
  const type = types.find((t) => t.id === pkg.typeRef);
  const ambiguous = type && types.filter((t) => t.label.trim().toLowerCase() === type.label.trim().toLowerCase()).length > 1;
  const packageType = type && !ambiguous && !/^[0-9]+$/.test(type.label) && type.label.trim() !== '' ? tsString(type.label) : String(pkg.typeRef);
  const label = labelOf(pkg);
  e.line(`// Package id ${pkg.id}${server ? ` on cloud server ${commentText(server.name)}` : ''}`);
  if (pkg.stackUsers.length > 1) {
    e.line(`// Linked to ${pkg.stackUsers.length} control-panel users (${pkg.stackUsers.join(', ')}): stackUser is not declared,`);
    e.line('// because declaring one would unlink the others. The links are left as they are.');
  }
  e.line(`${e.declare(id)}new HostingPackage(this, ${tsString(id)}, {`);
  e.line(`  domainName: ${tsString(primary)},`);
  if (extras.length) e.line(`  extraDomainNames: [${extras.map(tsString).join(', ')}],`);
  e.line(`  packageType: ${packageType},${type ? '' : ' // a type id the account does not list'}`);
  if (label !== '') e.line(`  label: ${tsString(label)},`);
  if (pkg.stackUsers.length === 1) e.line(`  stackUser: ${e.userExpr(pkg.stackUsers[0])},`);
  e.line(`  enabled: ${pkg.enabled},`);
  if (server) {
    e.line(`  cloudServer: ${e.serverVar.get(server.id)},`);
    e.referenced.add(e.serverVar.get(server.id)!);
  }
  e.line('});');
  return id;
}

/** Where a mail object is declared: its domain, its package's primary domain and variable. */
interface MailPlace {
  readonly domain: string;
  readonly packageDomain: string;
  readonly pkgVar: string;
}

function emitMailbox(e: Emitter, m: MailboxEntry, { domain, packageDomain, pkgVar }: MailPlace): boolean {
  const local = canonicalLocalPart(m.local);
  const problem = checkLocalPart(local);
  if (problem) {
    e.line(`// Mailbox ${commentText(m.local)}@${domain} (id ${m.id}) left out: local part ${commentText(problem)}`);
    return false;
  }
  const id = e.ids.allocate('mailbox', `${local}_${domain}`);
  e.used.add('Mailbox');
  const domainProp = domain === packageDomain ? '' : ` domain: ${tsString(domain)},`;
  e.line(`new Mailbox(this, ${tsString(id)}, { package: ${pkgVar}, localPart: ${tsString(local)},${domainProp} send: ${m.send}, receive: ${m.receive} });`);
  return true;
}

function emitForwarder(e: Emitter, local: string, entries: ForwarderEntry[], { domain, packageDomain, pkgVar }: MailPlace): boolean {
  const address = `${local}@${domain}`;
  if (entries.length > 1) {
    e.line(`// Forwarder ${commentText(address)} has ${entries.length} targets (${commentText(entries.map((x) => x.remote).join(', '))}): not declared,`);
    e.line('// because a Forwarder owns its local part with exactly one target and would remove the others.');
    return false;
  }
  const remote = entries[0].remote;
  const problem = checkLocalPart(local) ?? checkEmailAddress(remote);
  if (problem || canonicalEmail(remote).toLowerCase() === address) {
    e.line(`// Forwarder ${commentText(address)} -> ${commentText(remote)} (id ${entries[0].id}) left out: ${commentText(problem ?? 'it forwards to itself')}`);
    return false;
  }
  const id = e.ids.allocate('fwd', `${local}_${domain}`);
  e.used.add('Forwarder');
  const domainProp = domain === packageDomain ? '' : ` domain: ${tsString(domain)},`;
  e.line(`new Forwarder(this, ${tsString(id)}, { package: ${pkgVar}, localPart: ${tsString(local)},${domainProp} remote: ${tsString(canonicalEmail(remote))} });`);
  return true;
}

/** One DnsRecord (with --dns); `domain` is the zone. A record the construct would refuse is left out with the reason. */
function emitDnsRecord(e: Emitter, r: DnsRecord, { domain: zone, packageDomain, pkgVar }: MailPlace): boolean {
  const name = canonicalRecordName(r.host, zone);
  const raw = { kind: 'dns-record', path: 'import', packageDomain, zone, name, type: r.type, value: r.value, priority: r.priority, weight: r.weight, port: r.port };
  const { problems } = checkDnsRecord(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as unknown as DnsRecordSpec);
  if (problems.length) {
    e.line(`// DNS record ${r.type} ${commentText(r.host)} (ref ${r.ref}) left out: ${commentText(problems.map((p) => `${p.field} ${p.rule}`).join('; '))}`);
    return false;
  }
  const id = e.ids.allocate('dns', `${name === '@' ? '' : `${name}_`}${zone}_${r.type}`);
  e.used.add('DnsRecord');
  const props = [
    `package: ${pkgVar}`, ...(zone === packageDomain ? [] : [`zone: ${tsString(zone)}`]), `name: ${tsString(name)}`, `type: ${tsString(r.type)}`,
    `value: ${tsString(r.value)}`, ...(['priority', 'weight', 'port'] as const).filter((f) => r[f] !== undefined).map((f) => `${f}: ${r[f]}`),
  ];
  e.line(`new DnsRecord(this, ${tsString(id)}, { ${props.join(', ')} }); // ref ${r.ref}`);
  return true;
}

function userNumber(ref: string): number {
  return Number(ref.slice(ref.indexOf(':') + 1));
}

/** The sections of the generated stack, in order: each a kind's emitter (packages write their mail). */
export const SECTIONS: ReadonlyArray<(e: Emitter) => void> = [emitUsers, emitCloudServers, emitPackages];
