import { definitionOf, Kind, kindLabel } from '../../protocol';
import type { Comparison, ObjectReport, ObjectStatus, UnmanagedObject } from '../../stacks';
import { DRIFT_STATUSES } from '../../stacks';
import type { FixAction } from './fix';

/**
 * The drift report: a stable JSON document (`--json`, see docs/drift.md) and a
 * readable table. The document's shape only grows; a breaking change bumps `version`
 * (2: `summary.drift` says whether a declared object differs, never counting unmanaged
 * objects; `summary.unmanagedCounted` says whether they fail the run).
 */
export const DRIFT_DOCUMENT_VERSION = 2;

export interface DriftSummary {
  /** Objects declared by the stacks compared (present and absent). */
  readonly declared: number;
  readonly inSync: number;
  readonly missing: number;
  readonly changed: number;
  readonly stillPresent: number;
  /** Declared absent and gone: in sync. */
  readonly absent: number;
  readonly unknown: number;
  readonly error: number;
  /** Objects in the account that no stack declares: listed, and counted as drift only with `unmanagedCounted`. */
  readonly unmanaged: number;
  /** Whether a declared object differs from the account: missing, changed or still present. */
  readonly drift: boolean;
  /** `--fail-on-unmanaged`: unmanaged objects fail `--detailed-exitcode` as drift does. */
  readonly unmanagedCounted: boolean;
}

/** What `--detailed-exitcode` exits 2 for (besides what `--fix` skipped): declared drift, or unmanaged objects when they are counted. */
export function failing(s: DriftSummary): boolean {
  return s.drift || (s.unmanagedCounted && s.unmanaged > 0);
}

export interface DriftDocument {
  readonly version: number;
  readonly account: { readonly apiUrl: string; readonly resellerId: string };
  readonly stacks: ReadonlyArray<{ readonly name: string; readonly file: string }>;
  readonly summary: DriftSummary;
  readonly objects: ObjectReport[];
  readonly unmanaged: UnmanagedObject[];
  /** API requests the live read made (each list once, plus one per mail domain). */
  readonly requests: number;
  /** With --fix: what was done, and the summary before it (`summary` is after). */
  readonly fix: { readonly before: DriftSummary; readonly actions: FixAction[] } | null;
}

export function summarize(comparison: Comparison, unmanagedCounted: boolean): DriftSummary {
  const count = (s: ObjectStatus) => comparison.objects.filter((o) => o.report.status === s).length;
  const drifted = comparison.objects.some((o) => DRIFT_STATUSES.includes(o.report.status));
  return {
    declared: comparison.objects.length,
    inSync: count('in-sync'),
    missing: count('missing'),
    changed: count('changed'),
    stillPresent: count('still-present'),
    absent: count('absent'),
    unknown: count('unknown'),
    error: count('error'),
    unmanaged: comparison.unmanaged.length,
    drift: drifted,
    unmanagedCounted,
  };
}

const STATUS_TEXT: Record<ObjectStatus, string> = {
  'in-sync': 'in sync',
  missing: 'MISSING',
  changed: 'CHANGED',
  'still-present': 'STILL PRESENT',
  absent: 'absent (ok)',
  unknown: 'unknown',
  error: 'ERROR',
};

export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value ?? null);
}

/** The table of one report (before or after a fix). */
export function renderTable(doc: Omit<DriftDocument, 'fix'>, options: { heading?: string } = {}): string {
  const lines: string[] = [];
  const stackNames = doc.stacks.map((s) => s.name);
  lines.push(
    options.heading ??
      `Drift of ${stackNames.length === 1 ? `stack ${stackNames[0]}` : `${stackNames.length} stacks (${stackNames.join(', ')})`} ` +
        `against ${doc.account.apiUrl} (reseller ${doc.account.resellerId})`,
  );
  for (const stack of doc.stacks) {
    const rows = doc.objects.filter((o) => o.stack === stack.name);
    lines.push('', `Stack ${stack.name} (${stack.file}): ${rows.length} object(s)`);
    if (rows.length === 0) continue;
    const table = rows.map((o) => [STATUS_TEXT[o.status], o.kind ? kindLabel(o.kind) : '?', o.key ?? '(depends on variables)', o.address]);
    const widths = [0, 1, 2].map((i) => Math.max(...table.map((r) => r[i].length), ['STATUS', 'KIND', 'KEY'][i].length));
    const row = (cells: string[]) => `  ${cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c)).join('  ')}`.trimEnd();
    lines.push(row(['STATUS', 'KIND', 'KEY', 'ADDRESS']));
    rows.forEach((o, i) => {
      lines.push(row(table[i]));
      const indent = ' '.repeat(4 + widths[0]);
      for (const d of o.diffs) lines.push(`${indent}${d.field}: ${formatValue(d.declared)} (declared) -> ${formatValue(d.live)} (live)`);
      if (o.message && o.status !== 'in-sync') lines.push(`${indent}${o.message}`);
    });
  }
  lines.push('');
  if (doc.unmanaged.length) {
    const counted = doc.summary.unmanagedCounted ? 'counted as drift (--fail-on-unmanaged)' : 'listed, not counted as drift';
    lines.push(`Unmanaged: ${doc.unmanaged.length} object(s) in the account that no stack declares, ${counted} (drift --fix never deletes them):`);
    const kindWidth = Math.max(...doc.unmanaged.map((u) => kindLabel(u.kind).length));
    const keyWidth = Math.max(...doc.unmanaged.map((u) => u.key.length));
    for (const u of doc.unmanaged) {
      const where = u.placement ? ` on ${u.placement}` : '';
      lines.push(`  ${kindLabel(u.kind).padEnd(kindWidth)}  ${u.key.padEnd(keyWidth)}  id ${u.id}${where}: ${u.detail}`);
    }
    lines.push('');
  }
  lines.push(summaryLine(doc.summary));
  const drifted = doc.objects.filter((o) => DRIFT_STATUSES.includes(o.status));
  if (drifted.length) {
    lines.push('', 'To repair: reseller-hosting drift --fix');
    for (const stack of doc.stacks) {
      const addresses = drifted.filter((o) => o.stack === stack.name && o.replaceAddress).map((o) => `-replace=${o.replaceAddress}`);
      if (addresses.length) lines.push(`  or, in the stack directory of ${stack.name}: terraform apply ${addresses.join(' ')}`);
      // Provider resources: Terraform's own refresh sees the drift, so a plain apply repairs it.
      const provider = drifted.filter((o) => o.stack === stack.name && byPlainApply(o));
      if (provider.length) lines.push(`  or, in the stack directory of ${stack.name}: terraform apply (the plan shows the drift of ${provider.map((o) => o.address).join(', ')} and repairs it)`);
    }
    const notByTerraform = drifted.filter((o) => !o.replaceAddress && !byPlainApply(o));
    if (notByTerraform.length) {
      lines.push(`  (Terraform cannot repair: ${notByTerraform.map((o) => `${o.address} (${o.status === 'still-present' ? 'no longer in its state' : 'not changeable through the API'})`).join(', ')})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A provider-engine object whose drift `terraform apply` repairs (not one fixed after create, like a cloud server; an absent one is not in the state). */
function byPlainApply(o: { address: string; kind: Kind | null; status: string }): boolean {
  const fixed = o.kind ? definitionOf(o.kind).lifecycle?.fixedAfterCreate : false;
  return o.address.startsWith('reseller_') && !fixed && o.status !== 'still-present';
}

export function summaryLine(s: DriftSummary): string {
  const parts = [
    `${s.inSync} in sync`,
    s.changed && `${s.changed} changed`,
    s.missing && `${s.missing} missing`,
    s.stillPresent && `${s.stillPresent} still present`,
    s.absent && `${s.absent} absent as declared`,
    s.unknown && `${s.unknown} unknown`,
    s.error && `${s.error} with errors`,
  ].filter(Boolean);
  const result = s.drift ? 'Drift found.' : failing(s) ? 'No drift of declared objects; unmanaged objects counted (--fail-on-unmanaged).' : 'No drift.';
  return `Summary: ${s.declared} declared object(s): ${parts.join(', ')}; ${s.unmanaged} unmanaged. ${result}`;
}

export function renderFixActions(actions: readonly FixAction[]): string {
  if (actions.length === 0) return 'Nothing to fix.\n';
  const lines = [`Fix: ${actions.length} object(s)`];
  for (const a of actions) {
    lines.push(`  ${a.outcome.padEnd(7)}  ${a.address}  ${a.kind ? kindLabel(a.kind) : 'object'} ${a.key ?? ''}: ${a.message}`);
  }
  return `${lines.join('\n')}\n`;
}
