/**
 * Live shapes as the doctor reports them: field names, value types and counts, never a
 * value. An object whose keys are data (user refs such as `stack-user:1`, domain names,
 * e-mail addresses, numeric ids) is a map: its keys are not shown, only how many there
 * are and the shape of its values. So a report carries no name, address or key.
 */
export type Shape = string | { readonly [field: string]: Shape };

/** Keys that are data rather than field names: they hold ":", ".", "@", or are all digits. */
const DATA_KEY = /[:.@]|^[0-9]+$/;

const MAX_DEPTH = 4;

/** The shape of a JSON value. */
export function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'array(empty)';
    return { '[]': mergedShape(value, depth + 1) };
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (depth >= MAX_DEPTH) return 'object';
    if (entries.length > 0 && entries.some(([key]) => DATA_KEY.test(key))) {
      return { [`{map of ${entries.length}}`]: mergedShape(entries.map(([, v]) => v), depth + 1) };
    }
    const out: Record<string, Shape> = {};
    for (const [key, v] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = shapeOf(v, depth + 1);
    return out;
  }
  return typeof value;
}

/** One shape for several values of one kind (records of every type: the fields of all); undefined for none. */
export function mergedShapeOf(values: readonly unknown[]): Shape | undefined {
  return values.length ? mergedShape(values, 0) : undefined;
}

/** One shape for several values (list elements, map values): fields of all, types joined with "|". */
function mergedShape(values: readonly unknown[], depth: number): Shape {
  const shapes = values.map((v) => shapeOf(v, depth));
  return shapes.reduce(mergeShapes);
}

function mergeShapes(a: Shape, b: Shape): Shape {
  if (typeof a === 'object' && typeof b === 'object') {
    const out: Record<string, Shape> = {};
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const left = a[key];
      const right = b[key];
      out[key] = left === undefined ? optional(right) : right === undefined ? optional(left) : mergeShapes(left, right);
    }
    return out;
  }
  if (typeof a === 'string' && typeof b === 'string') return [...new Set([...a.split('|'), ...b.split('|')])].sort().join('|');
  return typeof a === 'string' ? `${a}|object` : `${b}|object`;
}

function optional(shape: Shape): Shape {
  return typeof shape === 'string' ? [...new Set([...shape.split('|'), 'absent'])].sort().join('|') : shape;
}
