/**
 * Changes to JSON-shaped data that can be undone: `recording(root, log)` gives a view of
 * `root` through which every write (set, delete, an array's length) first notes in `log`
 * how to put back what it replaces, and `undo(log)` replays those notes backwards.
 *
 * Why: a failed request must leave no partial change behind (store.ts), and copying the
 * whole state before every write made each write cost the size of the account (7 ms at
 * 600 packages, so an apply of N objects cost the emulator N^2). With the log, a write
 * costs what it changes.
 *
 * The view hands out one proxy per object, so identity comparisons between objects
 * read through it hold. Values written through it are stored unwrapped: the state itself
 * never holds a proxy (it is saved, cloned and served after the change).
 */

export type UndoLog = Array<() => void>;

type Bag = Record<PropertyKey, unknown>;

/** Each view's proxy -> the object behind it (proxies are unique objects: one map serves every view). */
const targets = new WeakMap<object, object>();

/**
 * The object behind a value read through a view (the value itself when it is not a
 * proxy), for read-only scans: through the view every property and element read is a
 * trap, and scanning every package's names on each write made a write cost the size of
 * the account. Never change what it returns: that change would not be in the log.
 */
export function underlying<T>(value: T): T {
  return (value !== null && typeof value === 'object' ? targets.get(value) ?? value : value) as T;
}

export function recording<T extends object>(root: T, log: UndoLog): T {
  const proxies = new WeakMap<object, object>();

  const wrap = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    let proxy = proxies.get(value);
    if (!proxy) {
      proxy = new Proxy(value, handler);
      proxies.set(value, proxy);
      targets.set(proxy, value);
    }
    return proxy;
  };

  /** The value with every proxy in it replaced by its object (new arrays and objects are changed in place: only the change holds them). */
  const unwrap = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const target = targets.get(value);
    if (target) return target;
    const bag = value as Bag;
    for (const key of Object.keys(bag)) {
      const inner = bag[key];
      if (inner !== null && typeof inner === 'object') bag[key] = unwrap(inner);
    }
    return value;
  };

  const noteRestore = (target: Bag, key: PropertyKey) => {
    if (Object.prototype.hasOwnProperty.call(target, key)) {
      const old = target[key];
      log.push(() => {
        target[key] = old;
      });
    } else {
      log.push(() => {
        delete target[key];
      });
    }
  };

  /**
   * What an array's length does on its own: an element past the end lengthens it (undo:
   * the old length, after the element is deleted), and a shorter length drops the tail
   * without a delete per element (undo: the elements it drops; those already deleted
   * one by one, as pop and splice do, are holes here and put back by their own notes).
   */
  const noteLength = (array: unknown[], key: PropertyKey, value: unknown) => {
    const length = array.length;
    if (key === 'length') {
      if (typeof value !== 'number' || value >= length) return;
      const tail = array.slice(value);
      log.push(() => {
        tail.forEach((item, i) => {
          array[value + i] = item;
        });
      });
    } else if (typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) >= length) {
      log.push(() => {
        array.length = length;
      });
    }
  };

  const handler: ProxyHandler<object> = {
    get: (target, key) => wrap((target as Bag)[key]),
    set: (target, key, value) => {
      const bag = target as Bag;
      if (Array.isArray(target)) noteLength(target, key, value);
      noteRestore(bag, key);
      bag[key] = unwrap(value);
      return true;
    },
    deleteProperty: (target, key) => {
      noteRestore(target as Bag, key);
      return delete (target as Bag)[key];
    },
    defineProperty: (target, key, descriptor) => {
      if (Array.isArray(target)) noteLength(target, key, descriptor.value);
      noteRestore(target as Bag, key);
      return Reflect.defineProperty(target, key, 'value' in descriptor ? { ...descriptor, value: unwrap(descriptor.value) } : descriptor);
    },
  };

  return wrap(root) as T;
}

/** Puts back, newest first, everything the log noted. */
export function undo(log: UndoLog): void {
  for (let i = log.length - 1; i >= 0; i--) log[i]();
  log.length = 0;
}
