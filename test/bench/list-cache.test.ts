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
