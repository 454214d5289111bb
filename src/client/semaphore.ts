/** A counting semaphore: at most `limit` holders at once, waiters served first come, first served. */
export class Semaphore {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`semaphore limit must be an integer >= 1, got ${limit}`);
  }

  get active(): number {
    return this.#active;
  }

  /** Resolves when a slot is free; call the returned function exactly once to free it. */
  async acquire(): Promise<() => void> {
    if (this.#active < this.limit) {
      this.#active++;
    } else {
      // The slot is handed over by release() without decrementing, so no newcomer can jump the queue.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    };
  }
}
