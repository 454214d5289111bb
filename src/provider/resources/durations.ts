/** Parses a Terraform-style duration ("45m", "1h30m", "90s") into milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, , name] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|h|m|s)/g)) total += Number(amount) * unit[name];
  return total;
}
