/**
 * Sorting by UTF-16 code units, as `Array.prototype.sort` does by default: the same
 * order on every machine (`localeCompare` follows the machine's locale, which would
 * make the generated docs differ between a developer's laptop and CI).
 */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
