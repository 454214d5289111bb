import type { Brand, CloudServer, ForwarderEntry, MailboxEntry, PackageSummary, PackageType, ResellerClient } from '../client';
import { labelOf } from '../client';
import type { CdkPackage } from '../protocol';
import {
  canonicalDomain, canonicalEmail, canonicalLocalPart, checkCloudSpec, checkCloudZone, checkDomainName, checkEmailAddress,
  checkLocalPart, CLOUD_PROVIDERS, CloudProvider, providerFromApi, STACK_USER_REF, userKey,
} from '../protocol';
import { byText, mapConcurrent } from './io';
import type { LiveAccount } from './live';
import { readLive } from './live';

/**
 * `reseller-hosting import`: the live account as a cdktf stack in TypeScript. The
 * generated stack declares exactly what is there, so deploying it adopts every object
 * (the handler's `ensure` finds each by its natural key) and changes nothing.
 */
export interface ImportOptions {
  /** Name of the generated TerraformStack subclass. @default ImportedResellerStack */
  readonly className?: string;
  /** Shown in the header comment. */
  readonly source?: string;
  /**
   * Declare the account's control-panel users as StackUser constructs too; packages and
   * servers then refer to them. @default false
   */
  readonly users?: boolean;
  /**
   * Declare the stack's engine (a `ResellerHosting` construct with `engine`). Without it the
   * stack uses the library's default engine.
   * @default - none declared
   */
  readonly engine?: 'provider' | 'terraform_data' | 'null_resource';
  /** The CDK the generated code imports `TerraformStack` from. @default 'cdktf' */
  readonly cdk?: CdkPackage;
}

export const DEFAULT_CLASS_NAME = 'ImportedResellerStack';

/** What import reads beyond the drift read: each cloud server's brand (one read per server). */
export interface ImportAccount {
  readonly live: LiveAccount;
  readonly brands: Map<number, Brand | undefined>;
}

export async function readImportAccount(client: ResellerClient): Promise<ImportAccount> {
  const live = await readLive(client);
  const brands = new Map<number, Brand | undefined>();
  await mapConcurrent(live.servers, 4, async (server) => {
    brands.set(server.id, (await client.cloudServers.get(server.id))?.brand);
  });
  return { live, brands };
}

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
function commentText(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

const PROVIDER_MEMBER: Record<CloudProvider, string> = {
  [CloudProvider.NATIVE]: 'CloudProvider.NATIVE',
  [CloudProvider.AWS]: 'CloudProvider.AWS',
  [CloudProvider.GCP]: 'CloudProvider.GCP',
};

const DECLARE = '\u0000';
const DECLARATION = /\u0000([A-Za-z0-9_]+)\u0000/g;

export interface ImportResult {
  readonly source: string;
  readonly counts: { packages: number; mailboxes: number; forwarders: number; cloudServers: number; users: number; skipped: number };
}

/** The TypeScript source of a stack declaring the account. */
export function generateStack(account: ImportAccount, options: ImportOptions = {}): ImportResult {
  const { live, brands } = account;
  const className = options.className ?? DEFAULT_CLASS_NAME;
  const ids = new IdAllocator();
  const used = new Set<string>();
  const body: string[] = [];
  const counts = { packages: 0, mailboxes: 0, forwarders: 0, cloudServers: 0, users: 0, skipped: 0 };
  const line = (text = '') => body.push(text ? `    ${text}` : '');
  // Packages and servers are bound to a variable only when something refers to them
  // (an unused local would break projects compiled with noUnusedLocals).
  const referenced = new Set<string>();
  const declare = (id: string) => `${DECLARE}${id}${DECLARE}`;

  // ---- cloud servers ----------------------------------------------------------------
  const serverVar = new Map<number, string>();
  const servers = [...live.servers].sort((a, b) => byText(a.name, b.name));
  const userRefs = Object.keys(live.users.contact).filter((r) => STACK_USER_REF.test(r)).sort((a, b) => userNumber(a) - userNumber(b));
  const placeholderUser = userRefs[0];
  // ---- control-panel users (--users) --------------------------------------------------
  const userVar = new Map<string, string>();
  if (options.users) emitUsers(live, userRefs, ids, line, used, declare, userVar, counts);
  /** A user as the generated code names it: its variable when declared, else its ref. */
  const userExpr = (ref: string) => {
    const v = userVar.get(ref);
    if (v) referenced.add(v);
    return v ?? tsString(ref);
  };
  if (servers.length) {
    line('// ---- Managed cloud servers ----');
    line('// The API cannot cancel servers, so each is protected from `terraform destroy`.');
    line('// forUser is not readable from the API (only used when ordering, never when adopting):');
    line(`// placeholder: the account's first control-panel user${placeholderUser ? ` (${placeholderUser})` : ''}. periodMonths: likewise (1).`);
  }
  for (const server of servers) {
    const host = canonicalDomain(server.name);
    const id = ids.allocate('server', host || server.name);
    serverVar.set(server.id, id);
    used.add('ManagedCloudServer');
    const provider = providerFromApi(server.configuration.Provider);
    const zone = server.configuration.Zone || server.location;
    const problem = checkDomainName(host)
      ? `host name "${server.name}" is not valid for ManagedCloudServer`
      : !provider
        ? `provider "${server.configuration.Provider}" is not one of ${CLOUD_PROVIDERS.join(', ')}`
        : checkCloudSpec(provider, server.configuration.spec) ?? checkCloudZone(provider, zone) ?? (placeholderUser ? undefined : 'the account has no control-panel user for forUser');
    if (problem || !provider) {
      line(`// Cloud server ${commentText(server.name)} (id ${server.id}) is referenced, not managed: ${commentText(problem ?? '')}`);
      line(`${declare(id)}ManagedCloudServer.fromHostName(this, ${tsString(id)}, ${tsString(host || server.name)});`);
      counts.skipped++;
      continue;
    }
    used.add('CloudProvider');
    const brand = brands.get(server.id);
    line(`// id ${server.id}; ${server.configuration.CpuCores} CPU, ${server.configuration.RamMb} MB RAM${brand ? `; branded as ${commentText(brand.name)}` : ''}`);
    line(`${declare(id)}new ManagedCloudServer(this, ${tsString(id)}, {`);
    line(`  hostName: ${tsString(host)},`);
    line(`  provider: ${PROVIDER_MEMBER[provider]},`);
    line(`  spec: ${tsString(server.configuration.spec)},`);
    line(`  zone: ${tsString(zone)},`);
    line('  periodMonths: 1, // not readable from the API');
    line(`  forUser: ${userExpr(placeholderUser!)}, // placeholder: not readable from the API`);
    if (brand) line('  branded: true,');
    else if (provider === CloudProvider.NATIVE) line('  branded: false, // the API shows a brand only when the account has one set');
    line('  protect: true,');
    line('});');
    counts.cloudServers++;
  }

  // ---- packages and their mail ------------------------------------------------------
  const serverOfPackage = new Map<number, CloudServer>();
  for (const s of live.servers) for (const p of s.packageIds) serverOfPackage.set(p, s);
  const packages = [...live.packages].sort((a, b) => byText(a.name, b.name));
  for (const pkg of packages) {
    if (body.length) line();
    const emitted = emitPackage(pkg, live.types, serverOfPackage.get(pkg.id), serverVar, ids, line, used, declare, referenced, userExpr);
    if (!emitted) {
      counts.skipped++;
      continue;
    }
    counts.packages++;
    for (const name of pkg.names) {
      const mail = live.mail.get(canonicalDomain(name))?.mail;
      if (!mail) continue;
      const domain = canonicalDomain(name);
      for (const m of [...mail.mailboxes].sort((a, b) => byText(a.local, b.local))) {
        if (emitMailbox(m, domain, canonicalDomain(pkg.name), emitted, ids, line, used)) {
          counts.mailboxes++;
          referenced.add(emitted);
        } else {
          counts.skipped++;
        }
      }
      const byLocal = new Map<string, ForwarderEntry[]>();
      for (const f of mail.forwarders) {
        const local = canonicalLocalPart(f.local);
        byLocal.set(local, [...(byLocal.get(local) ?? []), f]);
      }
      for (const [local, entries] of [...byLocal].sort((a, b) => byText(a[0], b[0]))) {
        if (emitForwarder(local, entries, domain, canonicalDomain(pkg.name), emitted, ids, line, used)) {
          counts.forwarders++;
          referenced.add(emitted);
        } else {
          counts.skipped++;
        }
      }
    }
  }
  if (body.length === 0) line('// The account has no packages or cloud servers.');

  if (options.engine) used.add('ResellerHosting');
  const names = ['CloudProvider', 'Forwarder', 'HostingPackage', 'Mailbox', 'ManagedCloudServer', 'ResellerHosting', 'StackUser'].filter((n) => used.has(n));
  const header = [
    '// Generated by `reseller-hosting import`' + (options.source ? ` from ${commentText(options.source)}` : '') + '.',
    `// ${counts.cloudServers} cloud server(s), ${counts.packages} package(s), ${counts.mailboxes} mailbox(es), ${counts.forwarders} forwarder(s)` +
      (options.users ? `, ${counts.users} stack user(s)` : '') +
      (counts.skipped ? `; ${counts.skipped} object(s) left out or referenced only (see the comments)` : '') + '.',
    '// Deploying it adopts every object as it is (found by its natural key) and changes nothing.',
    '// Mailboxes are declared without a password: adoption keeps the current one. Add one',
    '// (a sensitive TerraformVariable with passwordVersion) only when you want to set it.',
    // The provider engine (also the library's default) adopts through import blocks, not at deploy.
    ...(options.engine !== 'terraform_data' && options.engine !== 'null_resource'
      ? [`// With the provider engine${options.engine ? '' : ' (the default)'}: after cdktf synth, \`reseller-hosting import --blocks\` writes the import blocks that adopt them.`]
      : []),
    `// Use it in your ${options.cdk ?? 'cdktf'} app: new ${className}(app, 'imported');`,
    `import { TerraformStack } from '${options.cdk ?? 'cdktf'}';`,
    "import { Construct } from 'constructs';",
    names.length ? `import { ${names.join(', ')} } from 'cdktf-reseller-hosting';` : '',
  ].filter((l) => l !== '');
  const source = [
    ...header,
    '',
    `export class ${className} extends TerraformStack {`,
    '  constructor(scope: Construct, id: string) {',
    '    super(scope, id);',
    ...(options.engine ? [`    new ResellerHosting(this, 'reseller', { engine: '${options.engine}' });`] : []),
    '',
    ...body.map((l) => l.replace(DECLARATION, (_, id: string) => (referenced.has(id) ? `const ${id} = ` : ''))),
    '  }',
    '}',
    '',
  ].join('\n');
  return { source, counts };
}

function emitPackage(
  pkg: PackageSummary,
  types: readonly PackageType[],
  server: CloudServer | undefined,
  serverVar: Map<number, string>,
  ids: IdAllocator,
  line: (text?: string) => void,
  used: Set<string>,
  declare: (id: string) => string,
  referenced: Set<string>,
  userExpr: (ref: string) => string,
): string | undefined {
  const primary = canonicalDomain(pkg.name);
  const extras = pkg.names.filter((n) => n !== pkg.name).map(canonicalDomain);
  const bad = [pkg.name, ...pkg.names].find((n) => checkDomainName(n) !== undefined);
  if (bad !== undefined) {
    line(`// Package ${commentText(pkg.name)} (id ${pkg.id}) left out: the domain name "${commentText(bad)}" is not valid for HostingPackage.`);
    return undefined;
  }
  const id = ids.allocate('pkg', primary);
  used.add('HostingPackage');
  const type = types.find((t) => t.id === pkg.typeRef);
  const ambiguous = type && types.filter((t) => t.label.trim().toLowerCase() === type.label.trim().toLowerCase()).length > 1;
  const packageType = type && !ambiguous && !/^[0-9]+$/.test(type.label) && type.label.trim() !== '' ? tsString(type.label) : String(pkg.typeRef);
  const label = labelOf(pkg);
  line(`// Package id ${pkg.id}${server ? ` on cloud server ${commentText(server.name)}` : ''}`);
  if (pkg.stackUsers.length > 1) {
    line(`// Linked to ${pkg.stackUsers.length} control-panel users (${pkg.stackUsers.join(', ')}): stackUser is not declared,`);
    line('// because declaring one would unlink the others. The links are left as they are.');
  }
  line(`${declare(id)}new HostingPackage(this, ${tsString(id)}, {`);
  line(`  domainName: ${tsString(primary)},`);
  if (extras.length) line(`  extraDomainNames: [${extras.map(tsString).join(', ')}],`);
  line(`  packageType: ${packageType},${type ? '' : ' // a type id the account does not list'}`);
  if (label !== '') line(`  label: ${tsString(label)},`);
  if (pkg.stackUsers.length === 1) line(`  stackUser: ${userExpr(pkg.stackUsers[0])},`);
  line(`  enabled: ${pkg.enabled},`);
  if (server) {
    line(`  cloudServer: ${serverVar.get(server.id)},`);
    referenced.add(serverVar.get(server.id)!);
  }
  line('});');
  return id;
}

function emitMailbox(
  m: MailboxEntry, domain: string, packageDomain: string, pkgVar: string, ids: IdAllocator, line: (text?: string) => void, used: Set<string>,
): boolean {
  const local = canonicalLocalPart(m.local);
  const problem = checkLocalPart(local);
  if (problem) {
    line(`// Mailbox ${commentText(m.local)}@${domain} (id ${m.id}) left out: local part ${commentText(problem)}`);
    return false;
  }
  const id = ids.allocate('mailbox', `${local}_${domain}`);
  used.add('Mailbox');
  const domainProp = domain === packageDomain ? '' : ` domain: ${tsString(domain)},`;
  line(`new Mailbox(this, ${tsString(id)}, { package: ${pkgVar}, localPart: ${tsString(local)},${domainProp} send: ${m.send}, receive: ${m.receive} });`);
  return true;
}

function emitForwarder(
  local: string, entries: ForwarderEntry[], domain: string, packageDomain: string, pkgVar: string, ids: IdAllocator, line: (text?: string) => void,
  used: Set<string>,
): boolean {
  const address = `${local}@${domain}`;
  if (entries.length > 1) {
    line(`// Forwarder ${commentText(address)} has ${entries.length} targets (${commentText(entries.map((e) => e.remote).join(', '))}): not declared,`);
    line('// because a Forwarder owns its local part with exactly one target and would remove the others.');
    return false;
  }
  const remote = entries[0].remote;
  const problem = checkLocalPart(local) ?? checkEmailAddress(remote);
  if (problem || canonicalEmail(remote).toLowerCase() === address) {
    line(`// Forwarder ${commentText(address)} -> ${commentText(remote)} (id ${entries[0].id}) left out: ${commentText(problem ?? 'it forwards to itself')}`);
    return false;
  }
  const id = ids.allocate('fwd', `${local}_${domain}`);
  used.add('Forwarder');
  const domainProp = domain === packageDomain ? '' : ` domain: ${tsString(domain)},`;
  line(`new Forwarder(this, ${tsString(id)}, { package: ${pkgVar}, localPart: ${tsString(local)},${domainProp} remote: ${tsString(canonicalEmail(remote))} });`);
  return true;
}

/** One StackUser per control-panel user with a valid, not yet declared e-mail (the natural key). */
function emitUsers(
  live: LiveAccount, refs: readonly string[], ids: IdAllocator, line: (text?: string) => void, used: Set<string>,
  declare: (id: string) => string, userVar: Map<string, string>, counts: { users: number; skipped: number },
): void {
  if (refs.length === 0) return;
  line('// ---- Control-panel users ----');
  line('// Names are set when a user is created: the API cannot change them later.');
  const seen = new Set<string>();
  for (const ref of refs) {
    const contact = live.users.contact[ref];
    const problem = checkEmailAddress(contact.email);
    const key = problem ? '' : userKey(contact.email);
    if (problem || seen.has(key)) {
      line(`// User ${ref} left out: ${problem ? `e-mail ${commentText(problem)}` : `another user has the e-mail ${commentText(contact.email)}`}`);
      counts.skipped++;
      continue;
    }
    seen.add(key);
    const id = ids.allocate('user', key);
    used.add('StackUser');
    userVar.set(ref, id);
    const name = contact.person_name ? `, personName: ${tsString(contact.person_name)}` : '';
    line(`${declare(id)}new StackUser(this, ${tsString(id)}, { email: ${tsString(canonicalEmail(contact.email.trim()))}${name} }); // ${ref}`);
    counts.users++;
  }
  line();
}

function userNumber(ref: string): number {
  return Number(ref.slice(ref.indexOf(':') + 1));
}
