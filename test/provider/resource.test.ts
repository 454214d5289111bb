import type { ResourceKind } from '../../src/provider/resources/kind';
import { applyChange, checkAgainstAccount, importState, planChange, readState, validateConfig } from '../../src/provider/resources/resource';
import { flagsOf } from '../../src/provider/resources/schema';
import { isUnknown, TfObject } from '../../src/provider/wire/values';

/**
 * The generic resource layer over a test-only kind ("note", kept in a Map), so that
 * its rules are tested apart from any API: what Terraform sees in plans and state.
 */
interface NoteSpec { name: string; text?: string; tags?: string[]; secret?: string; secretVersion?: number; }

function noteKind(live: Map<string, Record<string, unknown>>, calls: string[] = []): ResourceKind<NoteSpec, string> {
  return {
    typeName: 'reseller_note', kindName: 'note', importIdOf: (key) => key, label: 'note', description: 'a note', importIdHelp: 'the name, e.g. hello', deletable: true,
    secret: { field: 'secret', versionField: 'secretVersion', words: 'password' },
    fields: [
      { name: 'name', attribute: 'name', type: 'string', description: 'Name.', role: 'identity', presence: 'required', readable: true },
      { name: 'text', attribute: 'text', type: 'string', description: 'Text.', role: 'setting', presence: 'optional', readable: true },
      { name: 'tags', attribute: 'tags', type: 'list(string)', description: 'Tags.', role: 'setting', presence: 'default', defaultValue: [], readable: true },
      { name: 'secret', attribute: 'secret_wo', type: 'string', description: 'Secret.', role: 'write-only', presence: 'optional', readable: false },
      { name: 'secretVersion', attribute: 'secret_wo_version', type: 'number', description: 'Version.', role: 'setting', presence: 'optional', readable: false },
      { name: 'serial', attribute: 'serial', type: 'number', description: 'Serial.', role: 'computed', presence: 'optional', readable: true },
    ],
    check(values) {
      const problems = [];
      if (typeof values.name !== 'string' || !/^[a-z]+$/i.test(values.name)) problems.push({ field: 'name', rule: 'must be letters', message: '' });
      (values.tags as string[] | undefined)?.forEach((t, i) => t.includes(' ') && problems.push({ field: `tags[${i}]`, rule: 'must not contain spaces', message: '' }));
      return { spec: { ...values, name: String(values.name).toLowerCase() } as NoteSpec, problems };
    },
    identity: (s) => s.name,
    key: (id) => id,
    parseImportId: (text) => (/^[a-z]+$/.test(text) ? { identity: text } : { problem: 'must be letters' }),
    observe: async (id) => (live.has(id) ? { values: live.get(id)! } : undefined),
    async ensure(spec, options) {
      calls.push(`ensure ${spec.name} creating=${options.creating} password=${options.secret ? 'given' : 'none'} rotate=${options.rotateSecret}`);
      const values = { name: spec.name, text: spec.text ?? live.get(spec.name)?.text ?? 'live text', tags: spec.tags ?? [], serial: 7 };
      live.set(spec.name, values);
      return { values };
    },
    async remove(spec) {
      calls.push(`remove ${spec.name}`);
      live.delete(spec.name);
    },
  };
}

const config = (over: Partial<TfObject> = {}): TfObject => ({
  id: null, name: 'Hello', text: null, tags: null, secret_wo: null, secret_wo_version: null, serial: null, ...over,
});
const runtime = { log: () => undefined, now: () => 0 };

describe('resource schema flags', () => {
  it('makes identity required, optional settings optional+computed, write-only sensitive and facts computed', () => {
    const kind = noteKind(new Map());
    const flags = Object.fromEntries(kind.fields.map((f) => [f.attribute, flagsOf(f)]));
    expect(flags.name).toMatchObject({ required: true, computed: false });
    expect(flags.text).toMatchObject({ optional: true, computed: true });
    expect(flags.secret_wo).toMatchObject({ optional: true, writeOnly: true, sensitive: true, computed: false });
    expect(flags.serial).toMatchObject({ computed: true, optional: false, required: false });
  });
});

describe('plan', () => {
  it('plans a create: defaults filled, facts and left-alone settings known after apply, write-only null, id from the natural key', () => {
    const kind = noteKind(new Map());
    const cfg = config({ secret_wo: 'pw', secret_wo_version: 1 });
    const { value, diagnostics } = planChange(kind, null, cfg, cfg);
    expect(diagnostics).toEqual([]);
    expect(value.planned).toMatchObject({ id: 'hello', name: 'Hello', tags: [], secret_wo: null, secret_wo_version: 1 });
    expect(isUnknown(value.planned!.serial)).toBe(true);
    expect(isUnknown(value.planned!.text)).toBe(true);
  });

  it('names the attribute (with its index) and the rule of a broken rule', () => {
    const kind = noteKind(new Map());
    const cfg = config({ tags: ['ok', 'not ok'] });
    const { diagnostics } = planChange(kind, null, cfg, cfg);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 1, summary: 'Invalid tags: must not contain spaces' });
    expect(diagnostics[0].attribute!.steps).toEqual([{ attributeName: 'tags' }, { elementKeyInt: 1 }]);
  });

  it('leaves the rules of values not known yet to apply time', () => {
    const kind = noteKind(new Map());
    const { UNKNOWN } = jest.requireActual('../../src/provider/wire/values');
    const cfg = config({ name: UNKNOWN });
    expect(planChange(kind, null, cfg, cfg).diagnostics).toEqual([]);
    expect(validateConfig(kind, cfg, true)).toEqual([]);
  });

  it('plans a replacement when an identity attribute changes, an update otherwise', () => {
    const kind = noteKind(new Map());
    const prior = config({ id: 'hello', text: 'a', tags: [], serial: 7 });
    const renamed = { ...prior, name: 'Other' };
    expect(planChange(kind, prior, renamed, config({ name: 'Other', text: 'a' })).value.requiresReplace).toEqual(['name']);
    const edited = { ...prior, text: 'b' };
    const plan = planChange(kind, prior, edited, config({ text: 'b' })).value;
    expect(plan.requiresReplace).toEqual([]);
    expect(plan.planned).toMatchObject({ id: 'hello', text: 'b' });
  });

  it('warns, on the attribute that forces it, that replacing an object deletes what it holds', () => {
    const kind = { ...noteKind(new Map()), deletesWithIt: { what: 'its attachments', declaredObjects: false } };
    const prior = config({ id: 'hello', text: 'a', tags: [], serial: 7 });
    const replaced = planChange(kind, prior, { ...prior, name: 'Other' }, config({ name: 'Other', text: 'a' }));
    expect(replaced.diagnostics).toEqual([expect.objectContaining({
      severity: 2, summary: 'Replacing this note deletes its attachments', attribute: { steps: [{ attributeName: 'name' }] },
    })]);
    expect(replaced.diagnostics[0].detail).toMatch(/name cannot change in place.*Keep name as it is to keep the note/);
    // An update, or a kind that holds nothing, says nothing.
    expect(planChange(kind, prior, { ...prior, text: 'b' }, config({ text: 'b' })).diagnostics).toEqual([]);
    expect(planChange(noteKind(new Map()), prior, { ...prior, name: 'Other' }, config({ name: 'Other', text: 'a' })).diagnostics).toEqual([]);
  });

  it('keeps a computed value only while every field it derives from is unchanged', () => {
    const base = noteKind(new Map());
    const derivingFrom = (inputs?: string[]) => ({ ...base, fields: base.fields.map((f) => (f.name === 'serial' ? { ...f, derivesFrom: inputs } : f)) });
    const prior = config({ id: 'hello', text: 'a', tags: [], serial: 7 });
    const edited = { ...prior, text: 'b' };
    // Derived from the text: unknown until the apply reads it back.
    expect(isUnknown(planChange(derivingFrom(['text']), prior, edited, config({ text: 'b' })).value.planned!.serial)).toBe(true);
    // Derived from the name only: a text change keeps it.
    expect(planChange(derivingFrom(['name']), prior, edited, config({ text: 'b' })).value.planned).toMatchObject({ serial: 7 });
    // Undeclared: it may follow any field.
    expect(isUnknown(planChange(derivingFrom(undefined), prior, edited, config({ text: 'b' })).value.planned!.serial)).toBe(true);
    // Nothing changed: kept.
    expect(planChange(derivingFrom(undefined), prior, prior, config({ text: 'a' })).value.planned).toMatchObject({ serial: 7 });
  });

  it('refuses at plan time to change a setting fixed after creation, and warns when the change was made outside', () => {
    const base = noteKind(new Map());
    const kind = { ...base, fields: base.fields.map((f) => (f.name === 'text' ? { ...f, fixedAfterCreate: true } : f)) };
    const prior = config({ id: 'hello', text: 'small', tags: [], serial: 7 });
    const { diagnostics } = planChange(kind, prior, { ...prior, text: 'large' }, config({ text: 'large' }), { text: 'small' });
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 1, summary: 'text of an existing note cannot be changed', attribute: { steps: [{ attributeName: 'text' }] } })]);
    expect(diagnostics[0].detail).toContain('Keep text = "small"');
    // Live "small" (changed in the control panel), configuration still what was applied ("large"): shown with a warning.
    const outside = planChange(kind, prior, { ...prior, text: 'large' }, config({ text: 'large' }), { text: 'large' }).diagnostics;
    expect(outside).toEqual([expect.objectContaining({ severity: 2, summary: 'text of this note was changed outside Terraform' })]);
    expect(planChange(kind, prior, prior, config({ text: 'small' })).diagnostics).toEqual([]);
    // Nothing known of it (imported, not readable): the declared value is recorded, not refused.
    const imported = config({ id: 'hello', text: null, tags: [], serial: 7 });
    expect(planChange(kind, imported, { ...imported, text: 'large' }, config({ text: 'large' })).diagnostics).toEqual([]);
  });

  it('refuses a new password version without the write-only password, and warns of a password without a version', () => {
    const kind = noteKind(new Map());
    const prior = config({ id: 'hello', secret_wo_version: 1, tags: [], serial: 7, text: 'a' });
    const bumped = { ...prior, secret_wo_version: 2 };
    const refused = planChange(kind, prior, bumped, config({ secret_wo_version: 2 })).diagnostics;
    expect(refused).toEqual([expect.objectContaining({ severity: 1, summary: 'secret_wo_version changed but secret_wo is not set' })]);
    const cfg = config({ secret_wo: 'pw' });
    expect(planChange(kind, null, cfg, cfg).diagnostics).toEqual([expect.objectContaining({ severity: 2, summary: 'secret_wo without secret_wo_version' })]);
  });
});

describe('plan: what the account must hold', () => {
  /** The note kind with an account check: a text the "account" does not offer is refused. */
  function checkedKind(seen: string[], fail?: Error): ResourceKind<NoteSpec, string> {
    return {
      ...noteKind(new Map()),
      async checkAccount(spec, checked) {
        seen.push(`checked text: ${checked('text')}`);
        if (fail) throw fail;
        if (checked('text') && spec.text === 'forbidden') return { problems: [{ field: 'text', rule: '"forbidden" is not a text of this account', message: '' }] };
        return { problems: [], known: checked('text') ? { serial: 42 } : {} }; // what the text resolves to in the account
      },
    };
  }
  const prior = (text: string): TfObject => ({ ...config({ text }), id: 'hello', name: 'hello', tags: [], serial: 7 });

  it('a create naming what the account lacks fails the plan, on the attribute', async () => {
    const seen: string[] = [];
    const kind = checkedKind(seen);
    const cfg = config({ text: 'forbidden' });
    const { diagnostics } = await checkAgainstAccount(kind, planChange(kind, null, cfg, cfg).value);
    expect(seen).toEqual(['checked text: true']);
    expect(diagnostics).toEqual([expect.objectContaining({
      severity: 1, summary: 'Invalid text: "forbidden" is not a text of this account', attribute: { steps: [{ attributeName: 'text' }] },
    })]);
  });

  it('an update that leaves such a value as it is is not checked for it (the account may have retired it)', async () => {
    const seen: string[] = [];
    const kind = checkedKind(seen);
    const unchanged = planChange(kind, prior('forbidden'), { ...prior('forbidden'), tags: ['new'] }, config({ text: 'forbidden', tags: ['new'] })).value;
    expect((await checkAgainstAccount(kind, unchanged)).diagnostics).toEqual([]);
    expect(seen).toEqual(['checked text: false']);
    const changed = planChange(kind, prior('fine'), { ...prior('fine'), text: 'forbidden' }, config({ text: 'forbidden' })).value;
    expect((await checkAgainstAccount(kind, changed)).diagnostics.map((d) => d.severity)).toEqual([1]); // an error
  });

  it('what the check resolves fills a computed attribute the plan left unknown, and nothing else', async () => {
    const kind = checkedKind([]);
    const cfg = config({ text: 'fine' });
    const created = planChange(kind, null, cfg, cfg).value;
    expect(isUnknown(created.planned!.serial)).toBe(true);
    expect(await checkAgainstAccount(kind, created)).toEqual({ value: { ...created.planned, serial: 42 }, diagnostics: [] });
    // Where serial derives from the name only, a text change keeps the prior serial: the account's is not used.
    const byName = { ...kind, fields: kind.fields.map((f) => (f.name === 'serial' ? { ...f, derivesFrom: ['name'] } : f)) };
    const kept = planChange(byName, prior('fine'), { ...prior('fine'), text: 'other' }, config({ text: 'other' })).value;
    expect((await checkAgainstAccount(byName, kept)).value!.serial).toBe(7);
  });

  it('a check that cannot read the account is a warning: the apply checks again', async () => {
    const kind = checkedKind([], new Error('GET /reseller/*/packageTypes -> 503'));
    const cfg = config({ text: 'forbidden' });
    const { diagnostics } = await checkAgainstAccount(kind, planChange(kind, null, cfg, cfg).value);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 2, summary: 'Could not check the note against the account' })]);
    expect(diagnostics[0].detail).toContain('GET /reseller/*/packageTypes -> 503. The apply checks it again.');
  });
});

describe('validate', () => {
  it('tells an older Terraform that cannot send write-only values what to do instead', () => {
    const [diag] = validateConfig(noteKind(new Map()), config({ secret_wo: 'pw' }), false);
    expect(diag.summary).toBe('secret_wo needs Terraform 1.11 or later');
    expect(diag.detail).toMatch(/Upgrade to Terraform >= 1.11.*terraform_data engine/s);
    expect(diag.detail).not.toContain('pw"');
  });
});

describe('apply, read and import', () => {
  it('creates with the password, never stores it, and fills what was unknown from the live object', async () => {
    const live = new Map<string, Record<string, unknown>>();
    const calls: string[] = [];
    const kind = noteKind(live, calls);
    const cfg = config({ secret_wo: 'pw', secret_wo_version: 1 });
    const planned = planChange(kind, null, cfg, cfg).value.planned;
    const { value, diagnostics } = await applyChange(kind, null, planned, cfg, runtime);
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({ id: 'hello', name: 'Hello', text: 'live text', serial: 7, secret_wo: null, secret_wo_version: 1 });
    expect(calls).toEqual(['ensure hello creating=true password=given rotate=true']);
    expect(JSON.stringify(value)).not.toContain('pw');
  });

  it('rotates the password only when its version changes', async () => {
    const live = new Map([['hello', { name: 'hello', text: 'a', tags: [], serial: 7 }]]);
    const calls: string[] = [];
    const kind = noteKind(live, calls);
    const prior = config({ id: 'hello', text: 'a', tags: [], serial: 7, secret_wo_version: 1 });
    await applyChange(kind, prior, { ...prior, text: 'b' }, config({ text: 'b', secret_wo: 'pw', secret_wo_version: 1 }), runtime);
    await applyChange(kind, prior, { ...prior, secret_wo_version: 2 }, config({ text: 'a', secret_wo: 'pw2', secret_wo_version: 2 }), runtime);
    expect(calls).toEqual(['ensure hello creating=false password=given rotate=false', 'ensure hello creating=false password=given rotate=true']);
  });

  it('reads drift as live values, keeps declared forms that mean the same, and drops a deleted object', async () => {
    const live = new Map([['hello', { name: 'hello', text: 'changed outside', tags: ['b', 'a'], serial: 8 }]]);
    const kind = noteKind(live);
    const state = config({ id: 'hello', name: 'Hello', text: 'mine', tags: ['a', 'b'], serial: 7, secret_wo_version: 3 });
    const { value } = await readState(kind, state);
    expect(value).toMatchObject({ name: 'Hello', text: 'changed outside', tags: ['a', 'b'], serial: 8, secret_wo_version: 3 });
    live.clear();
    expect((await readState(kind, state)).value).toBeNull();
  });

  it('imports by natural key, and says what an import id looks like when it is wrong or not found', async () => {
    const live = new Map([['hello', { name: 'hello', text: 't', tags: [], serial: 7 }]]);
    const kind = noteKind(live);
    expect((await importState(kind, 'hello')).value).toMatchObject({ id: 'hello', name: 'hello', text: 't', secret_wo: null });
    const bad = await importState(kind, 'no such!');
    expect(bad.diagnostics[0]).toMatchObject({ summary: 'Invalid import id for reseller_note: "no such!"', detail: 'must be letters. Expected the name, e.g. hello.' });
    const missing = await importState(kind, 'gone');
    expect(missing.diagnostics[0].summary).toBe('Cannot import reseller_note: no note "gone" in the account');
  });

  it('imports a create-only field with a default as the default, so that declaring it plans no change; a kept setting stays null', async () => {
    const live = new Map([['hello', { name: 'hello', text: 't', tags: [], serial: 7 }]]);
    const base = noteKind(live);
    const kind: ResourceKind<NoteSpec, string> = {
      ...base,
      fields: [
        ...base.fields,
        { name: 'origin', attribute: 'origin', type: 'string', description: 'Origin.', role: 'create-only', presence: 'default', defaultValue: 'web', readable: false },
        { name: 'colour', attribute: 'colour', type: 'string', description: 'Colour.', role: 'setting', presence: 'default', defaultValue: 'red', readable: false, fixedAfterCreate: true },
      ],
    };
    const imported = (await importState(kind, 'hello')).value!;
    expect(imported).toMatchObject({ origin: 'web', colour: null, secret_wo_version: null });
    const declared = config({ name: 'hello', text: 't', tags: [], origin: 'web', colour: 'red' });
    // Terraform proposes the configuration with the prior's computed values.
    const same = planChange(kind, imported, { ...declared, serial: imported.serial }, declared);
    expect(same.diagnostics).toEqual([]);
    // Only the kept setting is recorded: the create-only field plans what the state holds
    // (the note's computed serial depends on every input, so the recorded colour makes it unknown).
    const changed = Object.keys(imported).filter((a) => a !== 'serial' && JSON.stringify(same.value.planned![a]) !== JSON.stringify(imported[a]));
    expect(changed).toEqual(['colour']);
    const other = planChange(kind, imported, { ...declared, origin: 'api' }, { ...declared, origin: 'api' });
    expect(other.diagnostics.map((d) => d.summary)).toEqual(['origin is applied at creation only']);
    // Left out: a create plans the default; an update keeps what the state records (also a null of an older state).
    expect(flagsOf(kind.fields.find((f) => f.name === 'origin')!)).toMatchObject({ optional: true, computed: true });
    const omitted: TfObject = { ...declared, origin: null };
    expect(planChange(kind, null, omitted, omitted).value.planned!.origin).toBe('web');
    expect(planChange(kind, imported, { ...omitted, origin: imported.origin, serial: imported.serial }, omitted).value.planned!.origin).toBe('web');
    const older: TfObject = { ...imported, origin: null };
    expect(planChange(kind, older, { ...omitted, serial: older.serial }, omitted).value.planned!.origin).toBeNull();
  });

  it('gives an import the natural key of what it found, whatever the import id named', async () => {
    const live = new Map([['hello', { name: 'hello', text: 't', tags: [], serial: 7 }]]);
    // The identity of an import by reference is the reference itself; the object found has its own key.
    const base = noteKind(live);
    const kind = { ...base, parseImportId: (text: string) => ({ identity: text }), observe: (id: string) => base.observe(id === 'note:7' ? 'hello' : id) };
    expect((await importState(kind, 'note:7')).value).toMatchObject({ id: 'hello', name: 'hello' });
  });

  it('does not judge an absent field while another is unknown (it may depend on it), and does once all are known', () => {
    const { UNKNOWN } = jest.requireActual('../../src/provider/wire/values');
    const kind = noteKind(new Map());
    const strict = { ...kind, check: (values: Record<string, unknown>) => ({ spec: values as any, problems: values.text === undefined ? [{ field: 'text', rule: 'is required here', message: '' }] : [] }) };
    expect(validateConfig(strict, config({ tags: [UNKNOWN] }), true)).toEqual([]);
    expect(validateConfig(strict, config({ tags: ['a'] }), true)).toEqual([expect.objectContaining({ summary: 'Invalid text: is required here' })]);
  });

  it('deletes when the plan is null', async () => {
    const live = new Map([['hello', { name: 'hello', text: 't', tags: [], serial: 7 }]]);
    const calls: string[] = [];
    const kind = noteKind(live, calls);
    const { value } = await applyChange(kind, config({ id: 'hello', text: 't', tags: [] }), null, null, runtime);
    expect(value).toBeNull();
    expect(calls).toEqual(['remove hello']);
    expect(live.size).toBe(0);
  });
});
