/**
 * A notebook shared by the steps of one run: the provisioner carriers give the handler's
 * journal (every provisioner is its own process), a provider process keeps it in memory.
 * What the core notes in it: orders of cloud servers (never order twice), packages
 * created in this run (their first mail objects need no look-up), and caches of
 * rarely changing lists (package types, users). Losing it costs requests, never a
 * wrong write.
 */
export interface Store {
  read<T>(name: string, maxAgeMs: number): T | undefined;
  write(name: string, value: unknown): void;
  remove(name: string): void;
  /** The entry if younger than `maxAgeMs` (unless `fresh`), else `read()`'s value, recorded. */
  fill<T>(name: string, maxAgeMs: number, read: () => Promise<T>, fresh?: boolean): Promise<{ value: T; cached: boolean }>;
}

/** A Store in this process's memory. */
export function memoryStore(now: () => number = Date.now): Store {
  const entries = new Map<string, { at: number; value: unknown }>();
  const read = <T>(name: string, maxAgeMs: number): T | undefined => {
    const e = entries.get(name);
    return e && now() - e.at <= maxAgeMs ? (e.value as T) : undefined;
  };
  const write = (name: string, value: unknown) => void entries.set(name, { at: now(), value });
  // Fills in flight: concurrent misses of one entry (a provider's first creates) share one read.
  const filling = new Map<string, Promise<unknown>>();
  return {
    read,
    write,
    remove: (name) => void entries.delete(name),
    async fill<T>(name: string, maxAgeMs: number, reader: () => Promise<T>, fresh = false) {
      const hit = fresh ? undefined : read<T>(name, maxAgeMs);
      if (hit !== undefined && hit !== null) return { value: hit, cached: true };
      const joined = fresh ? undefined : (filling.get(name) as Promise<T> | undefined);
      if (joined) return { value: await joined, cached: false };
      const reading = reader();
      filling.set(name, reading);
      try {
        const value = await reading;
        write(name, value);
        return { value, cached: false };
      } finally {
        if (filling.get(name) === reading) filling.delete(name);
      }
    },
  };
}
