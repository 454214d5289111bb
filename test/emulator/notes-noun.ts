import { targetAccount } from '../../src/emulator/backend/accounts';
import type { ApiContext, ControlContext } from '../../src/emulator/context';
import { notFound } from '../../src/emulator/errors';
import type { ApiNoun } from '../../src/emulator/nouns';
import { requirePackage } from '../../src/emulator/nouns/packages/backend';
import { html } from '../../src/emulator/page/html';
import { plural } from '../../src/emulator/page/parts';
import { withAssumed } from '../../src/emulator/profile';
import { bare, Router, wrapped } from '../../src/emulator/router';
import { arrayOf, bool, fields, int, str } from '../../src/emulator/shape';
import type { AccountDump } from '../../src/emulator/snapshot';
import { expectArray, expectBody, expectObject, expectString } from '../../src/emulator/validate';
import { validationError } from '../../src/emulator/assumed';

/**
 * A test-only API noun, never shipped: notes on the domain names of a package. It is
 * written the way a real noun is (nouns/<noun>/…, here in one file) and registered with
 * one call, to prove that a new noun needs nothing else of src/emulator: it has routes,
 * a counter, members of every package (fresh, checked, upgraded into an older data
 * file), a part of the state dump, a section of the page, a reaction to another noun's
 * change, an assumed field the `documented` profile leaves out, and a control extra.
 *
 *   GET  /package/{id}/notes            [{id: "n1", domain, text, pinned?}]
 *   POST /package/{id}/notes            {"new": {domain, text, pinned?}} and/or {"delete": ["n1"]}
 *   POST /__emulator/notes              {account?, package, domain, text}
 */

declare module '../../src/emulator/backend/model' {
  interface Package {
    notes: Note[];
  }
  interface Counters {
    noteId: number;
  }
}

declare module '../../src/emulator/snapshot' {
  interface PackageDump {
    /** Optional only because other tests build dumps by hand, without this test's noun. */
    notes?: Array<{ id: string; domain: string; text: string; pinned: boolean }>;
  }
}

export interface Note {
  id: number;
  /** One of the package's names. */
  domain: string;
  text: string;
  pinned: boolean;
}

/** ASSUMED (for the test): the `pinned` member of a read; the `documented` profile leaves it out. */
function noteEntry(n: Note, showAssumed: boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = { id: `n${n.id}`, domain: n.domain, text: n.text };
  if (showAssumed) entry.pinned = n.pinned;
  return entry;
}

function readNote(value: unknown, ctx: Pick<ApiContext, 'state'>, names: readonly string[]): Note {
  const input = expectObject(value, 'new');
  const domain = expectString(input.domain, 'new.domain', { min: 1 });
  if (!names.includes(domain)) throw notFound(`domain ${domain} is not a name of this package`);
  const pinned = input.pinned === undefined ? false : input.pinned === true;
  return { id: ctx.state.counters.noteId++, domain, text: expectString(input.text, 'new.text', { min: 1, max: 200 }), pinned };
}

function addRoutes(router: Router<ApiContext>): void {
  router.add('GET', '/package/:pkg/notes', (ctx) => {
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    return bare(pkg.notes.map((n) => noteEntry(n, withAssumed(ctx.profile))));
  });
  router.add('POST', '/package/:pkg/notes', (ctx) => {
    const body = expectBody(ctx.body);
    const pkg = requirePackage(ctx.account, ctx.params.pkg);
    if (body.new === undefined && body.delete === undefined) throw validationError('give new and/or delete');
    // Delete first, then add: an add that fails after a delete must undo the delete (the store's transaction).
    if (body.delete !== undefined) {
      const gone = new Set(expectArray(body.delete, 'delete'));
      pkg.notes = pkg.notes.filter((n) => !gone.has(`n${n.id}`));
    }
    const note = body.new === undefined ? null : readNote(body.new, ctx, pkg.names);
    if (note) pkg.notes.push(note);
    return wrapped(note ? { id: `n${note.id}` } : true);
  });
}

function addControl(router: Router<ControlContext>): void {
  router.add('POST', '/__emulator/notes', ({ emu, body }) => {
    const input = expectBody(body);
    const id = emu.store.transact((state) => {
      const pkg = requirePackage(targetAccount(state, input.account), expectString(input.package, 'package'));
      const domain = expectString(input.domain, 'domain');
      if (!pkg.names.includes(domain)) throw notFound(`domain ${domain} is not a name of this package`);
      const note: Note = { id: state.counters.noteId++, domain, text: expectString(input.text, 'text'), pinned: true };
      pkg.notes.push(note);
      return note.id;
    });
    return bare({ ok: true, id: `n${id}` });
  });
}

const noteCount = (account: AccountDump) => account.packages.reduce((n, p) => n + (p.notes?.length ?? 0), 0);

function notesSection(account: AccountDump) {
  const notes = account.packages.flatMap((p) => p.notes ?? []);
  return html`
    <section aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      ${notes.length === 0
        ? html`<p class="empty">No notes in this account yet.</p>`
        : html`<table>
        <caption>${plural(notes.length, 'note')}</caption>
        <thead><tr><th scope="col">Domain</th><th scope="col">Note</th></tr></thead>
        <tbody>${notes.map((n) => html`<tr><th scope="row">${n.domain}</th><td>${n.text}</td></tr>`)}</tbody>
      </table>`}
    </section>`;
}

export const notes = {
  name: 'notes',
  // Data files written before this noun existed (version 4) get empty notes on load.
  since: 5,
  counters: { noteId: 1 },
  package: {
    check: { notes: arrayOf((n) => fields(n, { id: int, domain: str, text: str, pinned: bool })) },
    fresh: () => ({ notes: [] }),
    dump: (pkg) => ({ notes: pkg.notes.map((n) => ({ id: `n${n.id}`, domain: n.domain, text: n.text, pinned: n.pinned })) }),
  },
  routes: addRoutes,
  control: addControl,
  on: {
    packageNamesChanged: ({ pkg, removed }) => {
      pkg.notes = pkg.notes.filter((n) => !removed.includes(n.domain));
    },
  },
  page: {
    figures: [{ label: 'Notes', value: noteCount, listCell: noteCount }],
    section: notesSection,
  },
} satisfies ApiNoun;
