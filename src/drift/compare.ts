import type { CloudServer, MailboxEntry, PackageSummary, PackageType } from '../client';
import { verifiableLabelOf } from '../client';
import {
  CloudServerSpec, ForwarderSpec, Identity, Kind, kindLabel, kindOrder, MailboxSpec, PackageSpec, providerFromApi, StackUserRef, userKey,
} from '../protocol';
import type { FieldDiff } from '../reconcile';
import {
  diffCloudServer, diffForwarder, diffMailbox, diffPackage, diffStackUser, livePackageFromSummary, resolveTypeIn, resolveUserIn,
} from '../reconcile';
import type { DesiredObject } from './desired';
import { byText } from './io';
import type { LiveAccount } from './live';

/**
 * The comparison of declared objects with the live account. Field comparisons are
 * the core's own diff functions (src/reconcile), so drift reports exactly what an
 * ensure would change.
 */

/**
 * - `in-sync`: present and as declared;
 * - `missing`: declared, but not in the account;
 * - `changed`: present, but some fields differ (see `diffs`);
 * - `still-present`: declared `absent: true`, but still in the account;
 * - `absent`: declared `absent: true` and not in the account (in sync);
 * - `unknown`: present, but its declaration depends on Terraform variables, which only
 *   Terraform can evaluate;
 * - `error`: the declaration cannot be compared (e.g. a package type the account lacks).
 */
export type ObjectStatus = 'in-sync' | 'missing' | 'changed' | 'still-present' | 'absent' | 'unknown' | 'error';

export const DRIFT_STATUSES: readonly ObjectStatus[] = ['missing', 'changed', 'still-present'];

export interface ReportDiff {
  readonly field: string;
  readonly declared: unknown;
  readonly live: unknown;
}

export interface ObjectReport {
  readonly stack: string;
  readonly kind: Kind | null;
  /** Natural key (domain, local@domain, host name); null when it depends on Terraform variables. */
  readonly key: string | null;
  /** Package domain of a mail object, cloud server of a package, else ''. */
  readonly placement: string | null;
  readonly path: string;
  /** Terraform address of the object resource. */
  readonly address: string;
  readonly declared: 'present' | 'absent';
  readonly status: ObjectStatus;
  /** Fields that differ, declared -> live (only for `changed`). */
  readonly diffs: ReportDiff[];
  /** Why, for statuses that need one; null otherwise. */
  readonly message: string | null;
  /**
   * The resource a user could `terraform apply -replace=...` instead of `drift --fix`:
   * the object resource for a missing object (its settings and children follow), the
   * settings resource for a changed one; null when Terraform cannot repair it.
   */
  readonly replaceAddress: string | null;
  /** Live id of the object (package/server number, mail id), when present. */
  readonly liveId: string | null;
}

export interface UnmanagedObject {
  readonly kind: Kind;
  readonly key: string;
  /** Package domain of a mail object, cloud server host of a package, else ''. */
  readonly placement: string;
  readonly id: string;
  /** One line about it (a forwarder's target, a server's size). */
  readonly detail: string;
}

export interface ComparedObject {
  readonly desired: DesiredObject;
  readonly report: ObjectReport;
}

export interface Comparison {
  readonly objects: ComparedObject[];
  readonly unmanaged: UnmanagedObject[];
}

/**
 * Compares `declared` (the objects to report on) with the account. Objects in `managed`
 * (every stack found, also those not selected with --stack) are not unmanaged.
 */
export function compare(declared: readonly DesiredObject[], live: LiveAccount, managed: readonly DesiredObject[] = declared): Comparison {
  const index = indexLive(live);
  const objects = declared.map((desired) => ({ desired, report: compareOne(desired, index) }));
  objects.sort((a, b) => compareReports(a.report, b.report));
  return { objects, unmanaged: findUnmanaged(managed, live, index) };
}

function compareReports(a: ObjectReport, b: ObjectReport): number {
  return (
    byText(a.stack, b.stack) ||
    kindOrder(a.kind) - kindOrder(b.kind) ||
    byText(a.key ?? '', b.key ?? '') ||
    byText(a.address, b.address)
  );
}

interface LiveIndex {
  live: LiveAccount;
  /** By primary domain. */
  packages: Map<string, PackageSummary>;
  /** Every domain name -> its package. */
  names: Map<string, PackageSummary>;
  servers: Map<string, CloudServer>;
  /** Package id -> the server it is on. */
  serverOfPackage: Map<number, CloudServer>;
}

function indexLive(live: LiveAccount): LiveIndex {
  const packages = new Map<string, PackageSummary>();
  const names = new Map<string, PackageSummary>();
  for (const p of live.packages) {
    packages.set(p.name.toLowerCase(), p);
    for (const n of p.names) if (!names.has(n.toLowerCase())) names.set(n.toLowerCase(), p);
  }
  const servers = new Map<string, CloudServer>();
  const serverOfPackage = new Map<number, CloudServer>();
  for (const s of live.servers) {
    servers.set(s.name.toLowerCase(), s);
    for (const id of s.packageIds) serverOfPackage.set(id, s);
  }
  return { live, packages, names, servers, serverOfPackage };
}

/** What compareOne works out; the report adds the common fields. */
interface Outcome {
  status: ObjectStatus;
  diffs?: ReportDiff[];
  message?: string;
  liveId?: string | number;
}

function compareOne(desired: DesiredObject, index: LiveIndex): ObjectReport {
  const id = desired.identity;
  const outcome = outcomeOf(desired, index);
  // A provider-engine object is repaired by a plain `terraform apply` (its plan sees the drift): no -replace.
  const replaceAddress = desired.resourceType.startsWith('reseller_')
    ? null
    : outcome.status === 'missing'
      ? desired.address
      : outcome.status === 'changed' && desired.settingsAddress && repairableByUpdate(desired.kind, outcome.diffs ?? [])
        ? desired.settingsAddress
        : null;
  return {
    stack: desired.stack,
    kind: desired.kind ?? null,
    key: id?.key ?? null,
    placement: id ? id.placement : null,
    path: desired.path,
    address: desired.address,
    declared: desired.absent ? 'absent' : 'present',
    status: outcome.status,
    diffs: outcome.diffs ?? [],
    message: outcome.message ?? null,
    replaceAddress,
    liveId: outcome.liveId === undefined ? null : String(outcome.liveId),
  };
}

/** Cloud servers cannot be changed through the API, and packages cannot be moved. */
function repairableByUpdate(kind: Kind | undefined, diffs: readonly ReportDiff[]): boolean {
  if (kind === 'cloud-server') return false;
  return !diffs.some((d) => d.field === 'cloudServer');
}

function outcomeOf(desired: DesiredObject, index: LiveIndex): Outcome {
  const id = desired.identity;
  if (!id) {
    return {
      status: desired.spec === undefined && desired.unknownSpec ? 'unknown' : 'error',
      message: desired.unknownSpec
        ? 'unknown (depends on Terraform variables): its natural key is only known to Terraform'
        : `cannot read the declaration: ${desired.specError ?? 'no identity'}`,
    };
  }
  const found = findLive(id, index);
  if (desired.absent) {
    return found.exists
      ? { status: 'still-present', liveId: found.liveId, message: 'declared absent: true, but still in the account' }
      : { status: 'absent' };
  }
  if (!found.exists) {
    const why = [found.why, desired.unknownSpec ? 'its other fields depend on Terraform variables' : undefined].filter(Boolean);
    return { status: 'missing', message: why.length ? why.join('; ') : undefined };
  }
  if (!desired.spec) {
    if (desired.unknownSpec) {
      return { status: 'unknown', liveId: found.liveId, message: 'unknown (depends on Terraform variables): present, fields not compared' };
    }
    return { status: 'error', liveId: found.liveId, message: `cannot read the declaration: ${desired.specError}` };
  }
  try {
    const diffs = diffsOf(desired.spec, found, index);
    return diffs.length ? { status: 'changed', diffs, liveId: found.liveId } : { status: 'in-sync', liveId: found.liveId };
  } catch (err) {
    if (err instanceof DeclarationProblem) return { status: 'error', liveId: found.liveId, message: err.message };
    throw err;
  }
}

interface Found {
  exists: boolean;
  liveId?: string | number;
  why?: string;
  pkg?: PackageSummary;
  server?: CloudServer;
  mailbox?: MailboxEntry;
  forwarders?: Array<{ id: string; local: string; remote: string }>;
  user?: { ref: string; personName?: string };
}

function findLive(id: Identity, index: LiveIndex): Found {
  switch (id.kind) {
    case 'package': {
      const pkg = index.packages.get(id.key);
      if (pkg) return { exists: true, liveId: pkg.id, pkg };
      const owner = index.names.get(id.key);
      return { exists: false, why: owner ? `${id.key} is an extra domain of package ${owner.name} (id ${owner.id}), not a package of its own` : undefined };
    }
    case 'cloud-server': {
      const server = index.servers.get(id.key);
      return server ? { exists: true, liveId: server.id, server } : { exists: false, why: 'not listed in the account (cancelled, or still provisioning)' };
    }
    case 'mailbox':
    case 'forwarder': {
      const at = id.key.lastIndexOf('@');
      const local = id.key.slice(0, at);
      const domain = id.key.slice(at + 1);
      const pkg = index.packages.get(id.placement);
      if (!pkg) return { exists: false, why: `its package ${id.placement} does not exist` };
      if (!pkg.names.map((n) => n.toLowerCase()).includes(domain)) {
        return { exists: false, why: `${domain} is not a domain of package ${id.placement}` };
      }
      const mail = index.live.mail.get(domain)?.mail;
      if (!mail) return { exists: false, why: `the mail of ${domain} could not be read` };
      if (id.kind === 'mailbox') {
        const mailbox = mail.mailboxes.find((m) => m.local.toLowerCase() === local);
        return mailbox ? { exists: true, liveId: mailbox.id, mailbox } : { exists: false };
      }
      const forwarders = mail.forwarders.filter((f) => f.local.toLowerCase() === local);
      return forwarders.length ? { exists: true, liveId: forwarders.map((f) => f.id).join(','), forwarders } : { exists: false };
    }
    case 'stack-user': {
      const found = Object.entries(index.live.users.contact).find(([ref, c]) => ref === id.key || userKey(c.email) === id.key);
      return found ? { exists: true, liveId: found[0], user: { ref: found[0], personName: found[1].person_name } } : { exists: false };
    }
  }
}

class DeclarationProblem extends Error {}

function diffsOf(spec: DesiredObject['spec'] & object, found: Found, index: LiveIndex): ReportDiff[] {
  switch (spec.kind) {
    case 'package':
      return packageDiffs(spec, found.pkg!, index);
    case 'mailbox':
      return diffMailbox(spec as MailboxSpec, found.mailbox!).map(plain);
    case 'forwarder':
      return forwarderDiffs(spec, found.forwarders!);
    case 'cloud-server':
      return diffCloudServer(spec as CloudServerSpec, found.server!).map(plain);
    case 'stack-user':
      return diffStackUser(spec, found.user!).map(plain);
  }
}

const plain = (d: FieldDiff): ReportDiff => ({ field: d.field, declared: d.declared, live: d.live });

function packageDiffs(spec: PackageSpec, pkg: PackageSummary, index: LiveIndex): ReportDiff[] {
  const { types, users } = index.live;
  const type = spec.packageType === undefined ? undefined : resolveTypeIn(types, spec.packageType);
  if (spec.packageType !== undefined && !type) {
    throw new DeclarationProblem(
      `packageType "${spec.packageType}" is not a package type of this account; available: ${types.map((t) => `${t.label} (${t.id})`).join(', ')}`,
    );
  }
  const stackUser = spec.stackUser === undefined ? undefined : resolveUserIn(users, spec.stackUser);
  if (spec.stackUser !== undefined && stackUser === undefined) {
    throw new DeclarationProblem(`stackUser ${describeUserRef(spec.stackUser)} is not a control-panel user of this account`);
  }
  const diffs = diffPackage({ spec, type, stackUser }, livePackageFromSummary(pkg, verifiableLabelOf(pkg))).map((d: FieldDiff) =>
    d.field === 'packageType' ? { field: d.field, declared: typeName(types, d.declared), live: typeName(types, d.live) } : plain(d),
  );
  const server = index.serverOfPackage.get(pkg.id);
  const liveServer = server ? server.name.toLowerCase() : '';
  if ((spec.cloudServer ?? '') !== liveServer) {
    diffs.push({ field: 'cloudServer', declared: spec.cloudServer ?? '(reseller account)', live: server ? liveServer : '(reseller account)' });
  }
  return diffs;
}

function forwarderDiffs(spec: ForwarderSpec, live: Array<{ remote: string }>): ReportDiff[] {
  return diffForwarder(spec, live.map((f) => f.remote)).map(plain);
}

function describeUserRef(ref: StackUserRef): string {
  return typeof ref === 'string' ? `"${ref}"` : `{ email: "${ref.email}" }`;
}

function typeName(types: readonly PackageType[], id: unknown): unknown {
  return types.find((t) => t.id === id)?.label ?? id;
}

function findUnmanaged(managed: readonly DesiredObject[], live: LiveAccount, index: LiveIndex): UnmanagedObject[] {
  const keys = new Set<string>();
  for (const o of managed) if (o.identity) keys.add(`${o.identity.kind}:${o.identity.key}`);
  const out: UnmanagedObject[] = [];
  for (const s of live.servers) {
    const name = s.name.toLowerCase();
    if (keys.has(`cloud-server:${name}`)) continue;
    const provider = providerFromApi(s.configuration.Provider) ?? s.configuration.Provider;
    out.push({
      kind: 'cloud-server', key: name, placement: '', id: String(s.id),
      detail: `${provider} ${s.configuration.spec} in ${s.configuration.Zone || s.location}${s.packageIds.length ? `, ${s.packageIds.length} package(s) on it` : ''}`,
    });
  }
  for (const p of live.packages) {
    const name = p.name.toLowerCase();
    if (keys.has(`package:${name}`)) continue;
    const server = index.serverOfPackage.get(p.id);
    const extra = p.names.filter((n) => n !== p.name);
    out.push({
      kind: 'package', key: name, placement: server ? server.name.toLowerCase() : '', id: String(p.id),
      detail: `${p.packageTypeName || `type ${p.typeRef}`}${extra.length ? `, also ${extra.join(', ')}` : ''}${p.enabled ? '' : ', disabled'}`,
    });
  }
  for (const { domain, packageName, mail } of [...live.mail.values()].sort((a, b) => byText(a.domain, b.domain))) {
    for (const m of mail.mailboxes) {
      const key = `${m.local.toLowerCase()}@${domain}`;
      if (!keys.has(`mailbox:${key}`)) out.push({ kind: 'mailbox', key, placement: packageName, id: m.id, detail: `send ${m.send}, receive ${m.receive}` });
    }
    for (const f of mail.forwarders) {
      const key = `${f.local.toLowerCase()}@${domain}`;
      if (!keys.has(`forwarder:${key}`)) out.push({ kind: 'forwarder', key, placement: packageName, id: f.id, detail: `-> ${f.remote}` });
    }
  }
  out.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || byText(a.key, b.key) || byText(a.id, b.id));
  return out;
}

/** `cloud server web1.example.com`. */
export function objectName(kind: Kind | null, key: string | null): string {
  return `${kind ? kindLabel(kind) : 'object'} ${key ?? '(key depends on Terraform variables)'}`;
}
