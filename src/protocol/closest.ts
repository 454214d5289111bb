/**
 * The existing names closest to one that was not found, for a not-found diagnostic:
 * by edit distance, then by a shared suffix (same parent domain), at most `limit`.
 */
export function closestNames(wanted: string, existing: readonly string[], limit = 3): string[] {
  const target = wanted.toLowerCase();
  const scored = [...new Set(existing)].map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }));
  scored.sort((a, b) => a.distance - b.distance || sharedSuffix(target, b.name) - sharedSuffix(target, a.name) || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}

/** Levenshtein distance (names here are short: the quadratic table is fine). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function sharedSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
