/** One field whose live value differs from the declared one. */
export interface FieldDiff {
  readonly field: string;
  readonly declared: unknown;
  readonly live: unknown;
}

export function formatValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
}

/** `label "A" -> "B", enabled true -> false` (live -> declared: what the handler changes). */
export function describeDiffs(diffs: readonly FieldDiff[]): string {
  return diffs.map((d) => `${d.field} ${formatValue(d.live)} -> ${formatValue(d.declared)}`).join(', ');
}

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && [...new Set(b)].every((x) => sa.has(x));
}
