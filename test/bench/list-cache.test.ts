import { ListCache } from '../../src/reconcile';

/**
 * The shared list reads that let a provider confirm concurrent creates with one read
 * (src/reconcile/context.ts): a confirmation is served only by a read that started
 * after its write finished, and the writers of one wave share it.
 */
function counter() {
  let reads = 0;
  let version = 0;
  return {
    read: async () => {
      reads++;
      const seen = version;
      await new Promise((r) => setTimeout(r, 5));
      return seen;
    },
    write: async () => {
      await new Promise((r) => setTimeout(r, 5));
      version++;
    },
    get reads() {
      return reads;
    },
  };
}

test('ten writes in flight together are confirmed by one read that starts after the last of them', async () => {
  const lists = new ListCache(true);
  const api = counter();
  const seen = await Promise.all(Array.from({ length: 10 }, async () => {
    await lists.writing('packages', api.write);
    return lists.get('packages', api.read, lists.tick());
  }));
  expect(seen).toEqual(Array(10).fill(10)); // every confirmation saw every write
  expect(api.reads).toBe(1);
});

test('a read that started before a write finished never confirms it', async () => {
  const lists = new ListCache(true);
  const api = counter();
  const early = lists.get('packages', api.read); // in flight while the write happens
  await lists.writing('packages', api.write);
  expect(await lists.get('packages', api.read, lists.tick())).toBe(1);
  expect(await early).toBe(0);
  expect(api.reads).toBe(2);
});

test('a plain read reuses the latest one; since() asks for a newer one', async () => {
  const lists = new ListCache(true);
  const api = counter();
  await lists.get('packages', api.read);
  await lists.get('packages', api.read);
  expect(api.reads).toBe(1);
  const mark = lists.tick();
  await lists.since(mark).get('packages', api.read);
  await lists.since(mark).get('packages', api.read);
  expect(api.reads).toBe(2);
});

test('a failed read is not kept: the next one reads again', async () => {
  const lists = new ListCache(true);
  let calls = 0;
  const failing = async () => {
    calls++;
    if (calls === 1) throw new Error('503');
    return 'ok';
  };
  await expect(lists.get('x', failing, lists.tick())).rejects.toThrow('503');
  expect(await lists.get('x', failing)).toBe('ok');
});

describe('expected creates (a provider: Terraform planned them and is about to apply them)', () => {
  /** Reads and writes that complete within microtasks: no timer, so no test here depends on timing. */
  function account() {
    const state = { version: 0, reads: 0 };
    return {
      state,
      read: async () => {
        state.reads++;
        return state.version;
      },
      write: async () => {
        state.version++;
      },
    };
  }

  /** Lets the event loop run its pending immediates: a read not held back would start now. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  /** Shared lists whose reads wait for expected creates without a bound, so that nothing here depends on the clock. */
  const unbounded = () => new ListCache(true, 3_600_000);

  test("a confirmation waits for a sibling's expected create, and one read confirms both", async () => {
    const lists = unbounded();
    const api = account();
    lists.expect('mail:d', 'fwd@d'); // the forwarder was planned
    await lists.writing('mail:d', api.write); // the mailbox is created
    const mailbox = lists.get('mail:d', api.read, lists.tick()); // its confirmation waits for the forwarder
    await turn();
    await turn();
    lists.settle('mail:d', 'fwd@d'); // the forwarder's ensure starts ...
    await lists.writing('mail:d', api.write); // ... and writes
    const forwarder = lists.get('mail:d', api.read, lists.tick());
    expect(await Promise.all([mailbox, forwarder])).toEqual([2, 2]);
    expect(api.state.reads).toBe(1);
  });

  test('an expected create that never comes delays a confirmation, never stops it', async () => {
    const lists = new ListCache(true);
    const api = account();
    lists.expect('mail:d', 'never@d');
    await lists.writing('mail:d', api.write);
    expect(await lists.get('mail:d', api.read, lists.tick())).toBe(1);
    expect(api.state.reads).toBe(1);
  });

  test('a confirmation that gathers is shared by a write that starts while it waits', async () => {
    const lists = unbounded();
    const api = account();
    await lists.writing('packages', api.write);
    const first = lists.get('packages', api.read, lists.tick(), 3_600_000); // would wait an hour for stragglers ...
    await turn();
    await turn();
    await lists.writing('packages', api.write); // ... but a straggler's write ends: the read starts now
    const second = lists.get('packages', api.read, lists.tick());
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(api.state.reads).toBe(1);
  });

  test('confirmations keep gathering while siblings follow: one read per domain', async () => {
    const lists = unbounded();
    const api = account();
    for (const domain of ['a', 'b', 'c']) {
      const list = `mail:${domain}`;
      const reads = api.state.reads;
      await lists.writing(list, api.write); // the forwarder of a new package
      const forwarder = lists.get(list, api.read, lists.tick(), 3_600_000);
      await turn();
      await turn();
      expect(api.state.reads).toBe(reads); // it waits for a sibling ...
      await lists.writing(list, api.write); // ... and the mailbox comes
      const mailbox = lists.get(list, api.read, lists.tick(), 3_600_000);
      await Promise.all([forwarder, mailbox]);
    }
    expect(api.state.reads).toBe(3);
  });

  test('confirmations stop gathering when the lists that gathered before got no second write', async () => {
    const lists = new ListCache(true);
    const api = account();
    // The only forwarder of a new package: its confirmation gathers (for 1 ms here), and no sibling comes.
    await lists.writing('mail:a', api.write);
    await lists.get('mail:a', api.read, lists.tick(), 1);
    // The next package's only forwarder: its confirmation would wait an hour, but it reads at once.
    await lists.writing('mail:b', api.write);
    const next = lists.get('mail:b', api.read, lists.tick(), 3_600_000);
    await turn();
    expect(api.state.reads).toBe(2);
    expect(await next).toBe(2);
  });

  test('without shared lists (a provisioner), expectations are ignored', async () => {
    const lists = new ListCache(false);
    lists.expect('mail:d', 'fwd@d');
    lists.settle('mail:d', 'fwd@d');
    const api = account();
    expect(await lists.get('mail:d', api.read)).toBe(0);
  });
});
