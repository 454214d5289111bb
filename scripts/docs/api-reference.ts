/** Placeholder replaced below. */
export function apiReference(_root: string): Map<string, string> {
  return new Map();
}
