/** A list read and when it started (ListCache's clock). */
interface ListEntry {
  readonly started: number;
  readonly value: Promise<unknown>;
}

/** A read asked for but not started yet: it waits for the writes in flight on its list (see ListCache.get). */
interface PendingRead {
  readonly value: Promise<unknown>;
  start(): void;
}

/**
 * How long a read that waits for writes in flight on its list (single flight, below)
 * waits at most before it starts anyway. Costs latency, never correctness.
 */
const COALESCE_MS = 25;

/**
 * How long a read waits at most for creates Terraform has planned but not started
 * (`expect`): a package's mailbox and forwarder reach the provider some 30 ms apart, and
 * one read then confirms both. Costs latency (bounded), never correctness.
 */
const EXPECTED_WAIT_MS = 250;

/** An expected create that never starts (a plan-only process, a failed apply) stops being waited for after this. */
const EXPECT_TTL_MS = 2_000;

/**
 * Gathering (`gatherMs`) is a bet that another write on the same list follows soon (a
 * new package's mailbox after its forwarder): it wins one read, and it costs its wait,
 * during which the caller holds one of Terraform's -parallelism slots. It is taken while
 * at least this share of the lists that asked to gather got a second write.
 */
const GATHER_PAYS_SHARE = 0.5;

/**
 * Per-context cache of list reads: observing N objects of a kind costs one list request
 * (plus one mail read per domain).
 *
 * With `shared` (a provider process: one context serves every object of a Terraform
 * walk, many at once), creates confirm through the same lists. A caller that needs a
 * read which STARTED after its write finished passes `after` (a tick taken after the
 * write): it joins such a read if one is in flight or about to start, else schedules
 * one. A scheduled read waits until no write registered on its list (`writing`) is in
 * flight (at most COALESCE_MS), nor expected (`expect`: a create Terraform has planned
 * and is about to apply, at most EXPECTED_WAIT_MS), so that concurrent creates of a
 * wave share one read instead of one each. Without `shared` (a provisioner handles one object), `ensure`
 * and `remove` clear the cache: a write makes every list stale.
 */
export class ListCache {
  readonly #entries = new Map<string, ListEntry>();
  readonly #pending = new Map<string, PendingRead>();
  readonly #inFlight = new Map<string, number>();
  /** list name -> keys of creates planned on it and not started yet, each with its expiry timer. */
  readonly #expected = new Map<string, Map<string, NodeJS.Timeout>>();
  /** list name -> the tick at which the last write on it that this process made ended. */
  readonly #lastWrite = new Map<string, number>();
  /** list name -> writes started on it (what tells whether gathering pays: #gatherPays). */
  readonly #writes = new Map<string, number>();
  /** The lists whose confirmations asked to gather, and how many of them got a second write. */
  readonly #gatherLists = new Set<string>();
  #gatherListsWritten = 0;
  #clock = 0;
  #reads = 0;

  /** `expectedWaitMs`: at most how long a read waits for expected creates (default EXPECTED_WAIT_MS; tests lift it). */
  constructor(readonly shared = false, private readonly expectedWaitMs = EXPECTED_WAIT_MS) {}

  /** A point in this cache's time: reads started later are `> tick`. */
  tick(): number {
    return ++this.#clock;
  }

  /**
   * The list: any read of it (`after` 0), or one that started after the tick `after`.
   * `gatherMs`: a read scheduled while no write is in flight or expected on the list
   * still waits this long for writes that are likely to follow (see readMail), as long
   * as such writes did follow on most lists that asked before (#gatherPays).
   */
  get<T>(name: string, read: () => Promise<T>, after = 0, gatherMs = 0): Promise<T> {
    if (after > 0 && gatherMs > 0) this.#askedToGather(name);
    const entry = this.#entries.get(name);
    if (entry && entry.started > after) return entry.value as Promise<T>;
    if (after === 0) return this.#start(name, read) as Promise<T>;
    const pending = this.#pending.get(name);
    if (pending) return pending.value as Promise<T>;
    return this.#schedule(name, read, gatherMs) as Promise<T>;
  }

  /** The tick at which the last write on `name` that this process made ended (0: none). */
  lastWrite(name: string): number {
    return this.#lastWrite.get(name) ?? 0;
  }

  /**
   * A view that sees every write this process made: each list read started after the
   * last write on it ended. For reads that must not miss an object this apply created
   * (a data source read after the resource it depends on); shared with every other
   * read while nothing is written (a plan), so it costs nothing more there.
   */
  sinceOwnWrites(): ListCache {
    return this.since((name) => this.lastWrite(name));
  }

  /** A view whose reads of each list started after the tick `after` gives for it (the confirmed state of one object). */
  since(after: number | ((name: string) => number)): ListCache {
    // eslint-disable-next-line @typescript-eslint/no-use-before-define
    return new ListsSince(this, after);
  }

  /**
   * A create of the object `key` on the list `name` is about to start (Terraform planned
   * it in this process): reads scheduled meanwhile wait for it as for a write in flight,
   * at most EXPECTED_WAIT_MS, until it starts (`settle`) or EXPECT_TTL_MS pass.
   */
  expect(name: string, key: string): void {
    if (!this.shared) return;
    const keys = this.#expected.get(name) ?? new Map<string, NodeJS.Timeout>();
    clearTimeout(keys.get(key));
    const timer = setTimeout(() => this.settle(name, key), EXPECT_TTL_MS);
    timer.unref();
    keys.set(key, timer);
    this.#expected.set(name, keys);
  }

  /** The expected create of `key` started (its write now counts as in flight) or will not come. */
  settle(name: string, key: string): void {
    const keys = this.#expected.get(name);
    const timer = keys?.get(key);
    if (!keys || !timer) return;
    clearTimeout(timer);
    keys.delete(key);
    if (!keys.size) this.#expected.delete(name);
    // Once the continuation that settled it has run: its create's write, which starts
    // within it (no request comes first), then counts as in flight.
    setImmediate(() => this.#startIfQuiet(name));
  }

  /** Runs a write on the list `name`: reads scheduled meanwhile wait for it (see the class comment). */
  async writing<T>(name: string, write: () => Promise<T>): Promise<T> {
    this.#inFlight.set(name, (this.#inFlight.get(name) ?? 0) + 1);
    const writes = (this.#writes.get(name) ?? 0) + 1;
    this.#writes.set(name, writes);
    if (writes === 2 && this.#gatherLists.has(name)) this.#gatherListsWritten++;
    try {
      return await write();
    } finally {
      this.#lastWrite.set(name, this.tick());
      const left = (this.#inFlight.get(name) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(name, left);
      else {
        this.#inFlight.delete(name);
        this.#startIfQuiet(name);
      }
    }
  }

  #askedToGather(name: string): void {
    if (this.#gatherLists.has(name)) return;
    this.#gatherLists.add(name);
    if ((this.#writes.get(name) ?? 0) >= 2) this.#gatherListsWritten++;
  }

  /**
   * Whether a gather is worth its wait in this walk: another write followed on at least
   * GATHER_PAYS_SHARE of the lists that asked to gather (counting one such list in
   * advance, so the first one gathers). Where a package gets one mail object each (only
   * forwarders, only mailboxes), this stops the waiting after the first confirmation;
   * where most get a mailbox and a forwarder, their confirmations keep sharing a read.
   */
  #gatherPays(): boolean {
    return this.#gatherListsWritten + 1 >= GATHER_PAYS_SHARE * (this.#gatherLists.size + 1);
  }

  /** Starts the read scheduled on `name` once no write is in flight or expected there. */
  #startIfQuiet(name: string): void {
    if (this.#inFlight.has(name) || this.#expected.has(name)) return;
    // After the last writer's own continuation, which usually asks for its confirmation.
    const pending = this.#pending.get(name);
    if (pending) setImmediate(pending.start);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** How many reads this cache started (each one request, or one per page): what a pass over the account cost. */
  get reads(): number {
    return this.#reads;
  }

  #start(name: string, read: () => Promise<unknown>): Promise<unknown> {
    this.#reads++;
    const value = read();
    const entry = { started: this.tick(), value };
    this.#entries.set(name, entry);
    value.catch(() => {
      if (this.#entries.get(name) === entry) this.#entries.delete(name);
    });
    return value;
  }

  #schedule(name: string, read: () => Promise<unknown>, gatherMs: number): Promise<unknown> {
    let resolve!: (value: unknown) => void;
    let reject!: (err: unknown) => void;
    const value = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    let timer: NodeJS.Timeout | undefined;
    const pending: PendingRead = {
      value,
      start: () => {
        if (this.#pending.get(name) !== pending) return;
        this.#pending.delete(name);
        if (timer) clearTimeout(timer);
        this.#start(name, read).then(resolve, reject);
      },
    };
    this.#pending.set(name, pending);
    if (this.#expected.has(name)) timer = setTimeout(pending.start, this.expectedWaitMs);
    else if (this.#inFlight.has(name)) timer = setTimeout(pending.start, Math.max(COALESCE_MS, gatherMs));
    else if (gatherMs > 0 && this.#gatherPays()) timer = setTimeout(pending.start, gatherMs);
    else setImmediate(pending.start);
    return value;
  }
}

/** ListCache.since: the same cache, every read started after `after`. */
class ListsSince extends ListCache {
  readonly #after: (name: string) => number;

  constructor(private readonly base: ListCache, after: number | ((name: string) => number)) {
    super(base.shared);
    this.#after = typeof after === 'number' ? () => after : after;
  }

  override tick(): number {
    return this.base.tick();
  }

  override get reads(): number {
    return this.base.reads;
  }

  override lastWrite(name: string): number {
    return this.base.lastWrite(name);
  }

  override get<T>(name: string, read: () => Promise<T>, after = 0, gatherMs = 0): Promise<T> {
    return this.base.get(name, read, Math.max(this.#after(name), after), gatherMs);
  }

  override writing<T>(name: string, write: () => Promise<T>): Promise<T> {
    return this.base.writing(name, write);
  }

  override expect(name: string, key: string): void {
    this.base.expect(name, key);
  }

  override settle(name: string, key: string): void {
    this.base.settle(name, key);
  }

  override clear(): void {
    this.base.clear();
  }
}

