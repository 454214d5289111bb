import { recording, underlying, undo, UndoLog } from '../../src/emulator/backend/undo-log';

/**
 * The emulator's write transactions undo a failed change through this log instead of
 * copying the state first (backend/store.ts): every way a handler changes JSON data must
 * be put back exactly, and the state must never keep a proxy.
 */

type Item = { id: number; tags?: string[] };
interface Doc { list: Item[]; n: number; extra?: { a: number } }

const fresh = (): Doc => ({ list: [{ id: 1, tags: ['a'] }, { id: 2 }, { id: 3 }], n: 1, extra: { a: 1 } });

const changes: Record<string, (d: Doc) => void> = {
  push: (d) => d.list.push({ id: 4 }),
  'push twice and edit an element': (d) => {
    d.list.push({ id: 4 });
    d.list.push({ id: 5 });
    d.list[0].id = 9;
  },
  pop: (d) => void d.list.pop(),
  shift: (d) => void d.list.shift(),
  unshift: (d) => void d.list.unshift({ id: 0 }),
  splice: (d) => void d.list.splice(1, 1, { id: 7 }, { id: 8 }),
  sort: (d) => void d.list.sort((a, b) => b.id - a.id),
  reverse: (d) => void d.list.reverse(),
  'assign a filtered list': (d) => {
    d.list = d.list.filter((x) => x.id !== 2);
  },
  'shorten with length': (d) => {
    d.list.length = 1;
  },
  'write past the end': (d) => {
    d.list[5] = { id: 6 };
  },
  'delete and add properties': (d) => {
    delete d.extra;
    (d as unknown as Record<string, unknown>).added = { b: 2 };
    d.n++;
  },
  'Object.assign on a nested object': (d) => void Object.assign(d.list[1], { id: 20, tags: ['x'] }),
  'nested array push': (d) => void d.list[0].tags!.push('b'),
};

describe('undo log', () => {
  for (const [name, change] of Object.entries(changes)) {
    it(`puts back: ${name}`, () => {
      const doc = fresh();
      const log: UndoLog = [];
      change(recording(doc, log));
      expect(doc).not.toEqual(fresh()); // the change did happen, in place
      undo(log);
      expect(doc).toEqual(fresh());
      expect(JSON.stringify(doc)).toBe(JSON.stringify(fresh())); // key order and no holes either
    });
  }

  it('keeps identities of objects read through the view, and never stores a proxy in the state', () => {
    const doc = fresh();
    const view = recording(doc, []);
    const second = view.list.find((x) => x.id === 2)!;
    expect(view.list.indexOf(second)).toBe(1);
    view.list = view.list.filter((x) => x !== second);
    view.extra = { a: view.list[0].id };
    (view as unknown as Record<string, unknown>).copy = view.list; // an existing array under a second name
    expect(() => structuredClone(doc)).not.toThrow(); // a proxy cannot be cloned: none is left in the state
    expect(structuredClone(doc)).toEqual({ list: [{ id: 1, tags: ['a'] }, { id: 3 }], n: 1, extra: { a: 1 }, copy: [{ id: 1, tags: ['a'] }, { id: 3 }] });
  });

  it('underlying: a scan behind the view reads the same data and notes nothing; what it finds, changed through the view, is put back', () => {
    const doc = fresh();
    const log: UndoLog = [];
    const view = recording(doc, log);
    const raw = underlying(view.list);
    expect(raw).toBe(doc.list); // the state's own array: no trap per element
    expect(underlying(view.list[1])).toBe(doc.list[1]);
    expect(underlying(doc.list)).toBe(doc.list); // not a proxy: itself
    const i = raw.findIndex((x) => x.tags?.includes('a'));
    expect(log).toHaveLength(0);
    view.list[i].id = 42; // the match, changed through the view (as findPackage hands it out)
    expect(doc.list[0].id).toBe(42);
    undo(log);
    expect(doc).toEqual(fresh());
  });
});
