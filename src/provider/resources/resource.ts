import { attributePath, Diagnostic, error, hasErrors, messageOf, warning } from '../diagnostics';
import { isUnknown, TfObject, TfValue, UNKNOWN } from '../wire/values';
import { parseDuration } from './durations';
import type { FieldProblem, ObservedValues, ResourceField, ResourceKind } from './kind';
import { pendingAfterApply, pendingDiagnostics, withPending } from './pending';
import type { PendingRecord } from './private-state';
import { flagsOf, ID_ATTRIBUTE, isMootOnceMade, plansItsDefault, TIMEOUTS_BLOCK } from './schema';
import { attributeValue, nullObject, sameValue, specValuesOf } from './values';

/**
 * The behaviour every resource type shares (plan, apply, read, import, validate),
 * written once over a ResourceKind. Values in and out are decoded Terraform objects.
 */

export interface Result<T> {
  readonly value: T;
  readonly diagnostics: readonly Diagnostic[];
}

/** How the resource layer reports progress of long waits and asks whether Terraform asked it to stop. */
export interface ResourceRuntime {
  log(level: 'info' | 'debug' | 'warn', message: string, fields?: Record<string, unknown>): void;
  now(): number;
}

/** What the layer looks up in a kind's fields, derived once per kind (a plan calls it several times per resource). */
interface KindTables {
  readonly writeOnly?: ResourceField;
  /** The secret's version field (raising it writes the secret again). */
  readonly version?: ResourceField;
  /** What messages call the secret ('password'). */
  readonly secretWords: string;
  readonly identity: readonly ResourceField[];
  /** Each computed field with the fields it derives from (undeclared: every field that is not computed). */
  readonly computed: readonly { readonly field: ResourceField; readonly inputs: readonly ResourceField[] }[];
  /** The fields whose schema flags say computed. */
  readonly flaggedComputed: ReadonlySet<ResourceField>;
}

const kindTables = new WeakMap<ResourceKind, KindTables>();

function tablesOf(kind: ResourceKind): KindTables {
  let tables = kindTables.get(kind);
  if (!tables) {
    const secret = kind.secret;
    const writeOnly = secret ? kind.fields.find((f) => f.name === secret.field) : kind.fields.find((f) => f.role === 'write-only');
    const settled = kind.fields.filter((f) => f.role !== 'computed' && f.role !== 'write-only');
    tables = {
      writeOnly,
      version: secret && kind.fields.find((f) => f.name === secret.versionField),
      secretWords: secret?.words ?? 'value',
      identity: kind.fields.filter((f) => f.role === 'identity'),
      computed: kind.fields.filter((f) => f.role === 'computed').map((field) => ({
        field,
        inputs: field.derivesFrom ? kind.fields.filter((f) => field.derivesFrom!.includes(f.name)) : settled,
      })),
      flaggedComputed: new Set(kind.fields.filter((f) => flagsOf(f).computed)),
    };
    kindTables.set(kind, tables);
  }
  return tables;
}

/** The attribute path of a problem's field: `extraDomainNames[1]` -> extra_domain_names[1]. */
function problemPath(kind: ResourceKind, problem: Pick<FieldProblem, 'field'>) {
  const match = /^([A-Za-z0-9_]+)(?:\[(\d+)\]|\.(.+))?/.exec(problem.field);
  const field = match ? kind.fields.find((f) => f.name === match[1] || f.attribute === match[1]) : undefined;
  if (!field) return { attribute: undefined, name: problem.field };
  const elements: (string | number)[] = [];
  if (match?.[2] !== undefined) elements.push(Number(match[2]));
  if (match?.[3] !== undefined) elements.push(match[3]);
  return { attribute: attributePath(field.attribute, ...elements), name: field.attribute, root: field.name };
}

/**
 * Diagnostics for the rules a spec breaks. Problems of fields still unknown are left for
 * apply time, and so are those of absent fields while anything is unknown: whether an
 * absent field is needed, or what its default is, may depend on an unknown one (a
 * package on a cloud server needs no type; a mail domain defaults to its package's).
 */
function problemDiagnostics(kind: ResourceKind, problems: readonly FieldProblem[], unknownFields: ReadonlySet<string>, values: Record<string, unknown> = {}): Diagnostic[] {
  const unknown = new Set(unknownFields);
  if (unknown.size) for (const f of kind.fields) if (!(f.name in values)) unknown.add(f.name);
  const out: Diagnostic[] = [];
  for (const problem of problems) {
    const path = problemPath(kind, problem);
    if (path.root && unknown.has(path.root)) continue;
    out.push(error(`Invalid ${path.name}: ${problem.rule}`, `${kind.typeName}: ${path.name} ${problem.rule}.`, path.attribute));
  }
  return out;
}

export function validateConfig(kind: ResourceKind, config: TfObject, writeOnlyAllowed: boolean): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const { writeOnly: secret, secretWords: words } = tablesOf(kind);
  if (secret && !writeOnlyAllowed && config[secret.attribute] !== null) {
    diagnostics.push(error(
      `${secret.attribute} needs Terraform 1.11 or later`,
      `${secret.attribute} is a write-only attribute: it is sent to the provider and never stored in state or plan. ` +
        `This Terraform cannot send write-only values, and would store the ${words} in its state. Upgrade to Terraform >= 1.11, ` +
        `or leave it out and set the ${words} another way (the terraform_data engine of cdktf-reseller-hosting takes it from an ephemeral variable).`,
      attributePath(secret.attribute),
    ));
  }
  const { values, unknown } = specValuesOf(kind, config);
  const { problems } = kind.check(values, kind.typeName);
  diagnostics.push(...problemDiagnostics(kind, problems, unknown, values));
  return diagnostics;
}

export interface Plan {
  readonly planned: TfObject | null;
  readonly requiresReplace: readonly string[];
  /**
   * What `accountDiagnostics` checks against the account: the valid planned spec, and
   * its fields (camelCase) that are known and change (all known ones for a create).
   */
  readonly account?: { readonly spec: unknown; readonly changing: ReadonlySet<string> };
}

/**
 * Whether a computed field keeps its last value: every field it derives from plans the
 * value it had (undeclared: every field that is not computed). Otherwise it is unknown
 * until the apply reads it back, so the state after the apply is the live object's.
 */
function inputsUnchanged(inputs: readonly ResourceField[], prior: TfObject, planned: TfObject): boolean {
  return inputs.every((f) => sameValue(prior[f.attribute] ?? null, planned[f.attribute] ?? null));
}

/**
 * `applied`: the fixed settings as last applied (private-state.ts), which tell a change
 * made in the control panel from one asked for in the configuration.
 */
export function planChange(
  kind: ResourceKind, prior: TfObject | null, proposed: TfObject | null, config: TfObject | null,
  applied?: Readonly<Record<string, TfValue>>, pending: PendingRecord = {}, now = Date.now(),
): Result<Plan> {
  if (proposed === null || config === null) {
    const said = prior && proposed === null ? [...removalDiagnostics(kind, prior), ...forgetDiagnostics(kind, prior)] : [];
    return { value: { planned: null, requiresReplace: [] }, diagnostics: said };
  }
  const diagnostics: Diagnostic[] = [];
  const tables = tablesOf(kind);
  const planned: TfObject = { ...proposed };
  for (const field of kind.fields) {
    const attr = field.attribute;
    if (field.role === 'write-only') planned[attr] = null;
    else if (field.role === 'computed') continue; // after every input is planned, below
    else if (tables.flaggedComputed.has(field) && config[attr] === null) {
      // Nothing applies a creation-time choice to an existing object: left out, it keeps what the state records.
      if (prior && isMootOnceMade(field)) planned[attr] = prior[attr] ?? null;
      else if (field.presence === 'default' && field.defaultValue !== undefined) planned[attr] = attributeValue(field.defaultValue);
      else if (!prior) planned[attr] = UNKNOWN; // left to the live object (or derived below): known after apply
    }
  }

  for (const { field, inputs } of tables.computed) {
    const keep = prior !== null && inputsUnchanged(inputs, prior, planned);
    planned[field.attribute] = keep ? (prior[field.attribute] ?? null) : UNKNOWN;
  }

  const { values, unknown } = specValuesOf(kind, planned);
  const checked = kind.check(values, kind.typeName);
  const invalid = problemDiagnostics(kind, checked.problems, unknown, values);
  diagnostics.push(...invalid);
  if (!checked.problems.length && kind.derived) {
    const derived = kind.derived(checked.spec);
    for (const field of kind.fields) {
      if (isUnknown(planned[field.attribute]) && config[field.attribute] === null && derived[field.name] !== undefined) {
        planned[field.attribute] = attributeValue(derived[field.name]);
      }
    }
  }
  const identityKnown = tables.identity.every((f) => !isUnknown(planned[f.attribute]));
  planned[ID_ATTRIBUTE] = prior?.[ID_ATTRIBUTE] && prior ? prior[ID_ATTRIBUTE] : UNKNOWN;
  if (!checked.problems.length && identityKnown) {
    planned[ID_ATTRIBUTE] = kind.key(kind.identity(checked.spec));
    if (!prior) kind.expectCreate?.(checked.spec);
  }

  const requiresReplace: string[] = [];
  if (prior) {
    for (const field of kind.fields) {
      const attr = field.attribute;
      if (field.role === 'identity' && !field.replacedInOneWrite && !sameValue(prior[attr], planned[attr])) requiresReplace.push(attr);
      // A null prior is nothing known of it (not readable, imported): the plan records the declared value, nothing changes.
      const fixedChange = prior[attr] !== null && prior[attr] !== undefined && !isUnknown(planned[attr]) && !sameValue(prior[attr], planned[attr]);
      if (field.fixedAfterCreate && field.role === 'setting' && fixedChange) {
        diagnostics.push(fixedSettingDiagnostic(kind, attr, prior[attr], planned[attr], applied));
      }
      if (field.role === 'create-only' && prior[attr] !== null && !sameValue(prior[attr], planned[attr])) {
        diagnostics.push(warning(
          `${attr} is applied at creation only`,
          `The API cannot change ${attr} of an existing ${kind.label}: the new value is recorded in state but not applied. ` +
            'Replace the resource (terraform apply -replace=ADDRESS) to apply it.',
          attributePath(attr),
        ));
      }
    }
    if (requiresReplace.length) {
      planned[ID_ATTRIBUTE] = UNKNOWN;
      if (kind.deletesWithIt && !keptOnDestroy(kind, prior)) diagnostics.push(replacementDeletesDiagnostic(kind.label, kind.deletesWithIt, requiresReplace));
      if (keptOnDestroy(kind, prior)) diagnostics.push(replacementKeepsDiagnostic(kind, requiresReplace));
    }
  }
  diagnostics.push(...secretPlanDiagnostics(kind, prior, planned, config));
  if (prior) diagnostics.push(...pendingDiagnostics(kind, planned, pending, now));
  const changing = !invalid.length && kind.checkAccount ? new Set(kind.fields
    .filter((f) => f.role !== 'computed' && f.name in values && !(prior && sameValue(prior[f.attribute], planned[f.attribute])))
    .map((f) => f.name)) : undefined;
  const account = changing?.size ? { spec: checked.spec, changing } : undefined;
  return { value: { planned, requiresReplace, ...(account ? { account } : {}) }, diagnostics };
}

/**
 * The planned object checked against the account (its references to what the account
 * holds and no plan creates: a package type), for the fields that are known and change,
 * so that a plan that cannot apply fails here, naming the attribute. A value the account
 * no longer offers, left as it is, is not checked. A check that cannot read the account
 * is a warning: the apply checks again. What the references resolve to fills the planned
 * computed attributes still unknown (a package type's id), so the plan shows the value.
 */
export async function checkAgainstAccount(kind: ResourceKind, plan: Plan): Promise<Result<TfObject | null>> {
  const { account, planned } = plan;
  if (!account || !kind.checkAccount || !planned) return { value: planned, diagnostics: [] };
  try {
    const { problems, known = {} } = await kind.checkAccount(account.spec, (field) => account.changing.has(field));
    if (problems.length) return { value: planned, diagnostics: problemDiagnostics(kind, problems, new Set()) };
    const filled: TfObject = { ...planned };
    for (const field of kind.fields) {
      if (field.role === 'computed' && isUnknown(planned[field.attribute]) && known[field.name] !== undefined) filled[field.attribute] = attributeValue(known[field.name]);
    }
    return { value: filled, diagnostics: [] };
  } catch (err) {
    return { value: planned, diagnostics: [warning(`Could not check the ${kind.label} against the account`, `${messageOf(err)}. The apply checks it again.`)] };
  }
}

/** A removal that deletes nothing (the kind's settings go back to the platform's defaults): the plan says what it does. */
function removalDiagnostics(kind: ResourceKind, prior: TfObject): Diagnostic[] {
  if (kind.keepOnDestroy) return [keepOnDestroyDiagnostic(kind, prior)];
  if (!kind.removal) return [];
  const { spec, problems } = kind.check(specValuesOf(kind, prior).values, kind.typeName);
  if (problems.length) return [];
  return [warning(`Removing ${String(prior[ID_ATTRIBUTE])}'s ${kind.label} restores the platform's defaults`, `${kind.removal(spec)}.`)];
}

/**
 * A replacement deletes the old object first, and with it what it holds (a package's mail
 * and DNS records). The objects declared in it are in the plan only if their own attributes
 * change (a new primary domain); when they refer to it by something that stays the same,
 * Terraform does not know they go, and only the next plan finds them missing.
 */
function replacementDeletesDiagnostic(
  label: string, { what, declaredObjects }: NonNullable<ResourceKind['deletesWithIt']>, causes: readonly string[],
): Diagnostic {
  return warning(
    `Replacing this ${label} deletes ${what}`,
    `${causes.join(', ')} cannot change in place, so the ${label} is deleted and created again, and the API deletes ${what} with it, for good. ` +
      (declaredObjects ? 'Objects declared in it that this plan does not replace go too: the next plan creates them again, empty. ' : '') +
      `Keep ${causes.join(', ')} as it is to keep the ${label}.`,
    attributePath(causes[0]),
  );
}

/** The plan of a destroy of a kind whose delete only forgets it: a warning that says what the account keeps. */
function forgetDiagnostics(kind: ResourceKind, prior: TfObject | null): Diagnostic[] {
  if (!prior || !kind.forgetsOnDelete) return [];
  return [warning(
    `Destroying this ${kind.label} only removes it from the state`,
    `Nothing is written to the account for ${String(prior[ID_ATTRIBUTE])}: ${kind.forgetsOnDelete}. To change it, change the configuration and apply before removing the resource.`,
  )];
}

/**
 * The destroy of an object that can be kept on destroy: kept (what stays, unmanaged), or
 * deleted with what it holds, and how to keep it instead (apply keep_on_destroy first).
 */
function keepOnDestroyDiagnostic(kind: ResourceKind, prior: TfObject): Diagnostic {
  const id = String(prior[ID_ATTRIBUTE]);
  const what = kind.deletesWithIt?.what;
  if (keptOnDestroy(kind, prior)) {
    return warning(`Destroying the ${kind.label} ${id} keeps it in the account`, `${kind.keepOnDestroy} = true: it is removed from state only${what ? `, with ${what}` : ''}, no longer managed.`);
  }
  return warning(
    `Destroying the ${kind.label} ${id} deletes it${what ? ` with ${what}` : ''}`,
    `To keep it in the account instead, set ${kind.keepOnDestroy} = true and apply before removing it (a destroy reads the value last applied).`,
  );
}

/** Whether the state says a delete of the object only forgets it (the kind's `keepOnDestroy` attribute). */
const keptOnDestroy = (kind: ResourceKind, state: TfObject | null): boolean => kind.keepOnDestroy !== undefined && state?.[kind.keepOnDestroy] === true;

/** A replacement of an object kept on destroy: a new one is created, the old one stays in the account, unmanaged. */
function replacementKeepsDiagnostic(kind: ResourceKind, causes: readonly string[]): Diagnostic {
  return warning(
    `Replacing this ${kind.label} keeps the old one in the account`,
    `${causes.join(', ')} cannot change in place, so a new ${kind.label} is created. With ${kind.keepOnDestroy} = true the old one is only forgotten: ` +
      `it stays in the account${kind.deletesWithIt ? ` with ${kind.deletesWithIt.what}` : ''}, no longer managed, until it is deleted in the control panel.`,
    attributePath(causes[0]),
  );
}

/**
 * A fixed setting that differs: changed in the control panel while the configuration
 * still says what was applied (a warning; the plan shows the difference), or changed in
 * the configuration (an error now, instead of an apply that fails).
 */
function fixedSettingDiagnostic(kind: ResourceKind, attr: string, live: TfValue, wanted: TfValue, applied?: Readonly<Record<string, TfValue>>): Diagnostic {
  const identity = kind.fields.filter((f) => f.role === 'identity' && f.presence === 'required').map((f) => f.attribute).join(' / ');
  if (applied && attr in applied && sameValue(applied[attr], wanted)) {
    return warning(
      `${attr} of this ${kind.label} was changed outside Terraform`,
      `The ${kind.label} now has ${attr} = ${JSON.stringify(live)} (changed in the control panel), the configuration says ${JSON.stringify(wanted)}, ` +
        `and the API cannot change it back, so applying will fail. Declare ${JSON.stringify(live)}, or make a new ${kind.label} with another ${identity}.`,
      attributePath(attr),
    );
  }
  return error(
    `${attr} of an existing ${kind.label} cannot be changed`,
    `The API cannot change ${attr} once the ${kind.label} exists (it is ${JSON.stringify(live)}; the configuration asks for ${JSON.stringify(wanted)}). ` +
      `Keep ${attr} = ${JSON.stringify(live)}, or declare a new ${kind.label} with another ${identity} to get one with ${JSON.stringify(wanted)}.`,
    attributePath(attr),
  );
}

/** A secret's version raised without the secret, or a secret without a version to rotate it by. */
function secretPlanDiagnostics(kind: ResourceKind, prior: TfObject | null, planned: TfObject, config: TfObject): Diagnostic[] {
  const { writeOnly: secret, version, secretWords: words } = tablesOf(kind);
  if (!secret || !version) return [];
  const value = config[secret.attribute];
  const changed = prior !== null && !sameValue(prior[version.attribute], planned[version.attribute]) && planned[version.attribute] !== null;
  if (changed && value === null) {
    return [error(
      `${version.attribute} changed but ${secret.attribute} is not set`,
      `A new ${version.attribute} rotates the ${words} to the value of ${secret.attribute}; set ${secret.attribute} as well.`,
      attributePath(secret.attribute),
    )];
  }
  if (value !== null && !isUnknown(value) && planned[version.attribute] === null) {
    return [warning(
      `${secret.attribute} without ${version.attribute}`,
      `The ${words} is set when the ${kind.label} is created. Terraform does not store write-only values, so it cannot see a new ${words}: ` +
        `set ${version.attribute} and increase it to rotate the ${words}.`,
      attributePath(version.attribute),
    )];
  }
  return [];
}

function deadlineOf(kind: ResourceKind, planned: TfObject, now: number): number | undefined {
  if (!kind.timeouts) return undefined;
  const block = planned[TIMEOUTS_BLOCK] as TfObject | null;
  const text = (block?.create as string | null) ?? kind.timeouts.create;
  const ms = parseDuration(text) ?? parseDuration(kind.timeouts.create)!;
  return now + ms;
}

/** State after a create or update: planned values, with what was unknown filled in from the live object. */
function stateAfterApply(kind: ResourceKind, planned: TfObject, observed: ObservedValues, key: string): TfObject {
  const state: TfObject = { ...planned, [ID_ATTRIBUTE]: key };
  for (const field of kind.fields) {
    const attr = field.attribute;
    if (field.role === 'write-only') state[attr] = null;
    else if (isUnknown(state[attr])) state[attr] = attributeValue(observed.values[field.name]);
  }
  return state;
}

/**
 * The identity of the object an update replaces in one write (`replacedInOneWrite`
 * fields changed), or undefined when the identity stayed (a plain update).
 */
function previousIdentity(kind: ResourceKind, prior: TfObject, key: string): unknown {
  if (!kind.fields.some((f) => f.replacedInOneWrite)) return undefined;
  const { spec, problems } = kind.check(specValuesOf(kind, prior).values, kind.typeName);
  if (problems.length) return undefined;
  const identity = kind.identity(spec);
  return kind.key(identity) === key ? undefined : identity;
}

export async function applyChange(
  kind: ResourceKind, prior: TfObject | null, planned: TfObject | null, config: TfObject | null, runtime: ResourceRuntime,
): Promise<Result<TfObject | null> & { readonly pending?: PendingRecord }> {
  const diagnostics: Diagnostic[] = [];
  const warn = (line: string) => diagnostics.push(warning(line));
  if (planned === null) {
    if (!prior) return { value: null, diagnostics };
    const { spec } = kind.check(specValuesOf(kind, prior).values, kind.typeName);
    if (keptOnDestroy(kind, prior)) {
      diagnostics.push(warning(
        `The ${kind.label} ${String(prior[ID_ATTRIBUTE])} was removed from state and kept in the account`,
        `${kind.keepOnDestroy} = true: nothing was deleted${kind.deletesWithIt ? `; it keeps ${kind.deletesWithIt.what}` : ''}, no longer managed. Delete it in the control panel when it is no longer needed.`,
      ));
      return { value: null, diagnostics };
    }
    if (!kind.deletable) {
      diagnostics.push(warning(
        `The ${kind.label} ${String(prior[ID_ATTRIBUTE])} was removed from state but keeps running`,
        `The API cannot cancel a ${kind.label}: it stays in the account (and billed) until it is cancelled in the control panel.`,
      ));
      return { value: null, diagnostics };
    }
    try {
      await kind.remove(spec, warn);
      return { value: null, diagnostics };
    } catch (err) {
      diagnostics.push(error(`Could not delete the ${kind.label} ${String(prior[ID_ATTRIBUTE])}`, messageOf(err)));
      return { value: prior, diagnostics };
    }
  }

  const { values } = specValuesOf(kind, planned, (f) => f.role !== 'computed' && f.role !== 'write-only');
  const { spec, problems } = kind.check(values, kind.typeName);
  if (problems.length) return { value: prior, diagnostics: problemDiagnostics(kind, problems, new Set()) };
  const { writeOnly: secret, version } = tablesOf(kind);
  const secretValue = secret && config ? config[secret.attribute] : null;
  const rotateSecret = !prior || (version !== undefined && !sameValue(prior[version.attribute], planned[version.attribute]));
  const started = runtime.now();
  const deadline = deadlineOf(kind, planned, started);
  const key = kind.key(kind.identity(spec));
  try {
    const observed = await kind.ensure(spec, {
      replacing: prior ? previousIdentity(kind, prior, key) : undefined,
      creating: !prior,
      secret: typeof secretValue === 'string' ? secretValue : undefined,
      rotateSecret,
      deadline,
      progress: (line) => runtime.log('info', line, { resource: kind.typeName, id: key }),
      warn,
    });
    return { value: stateAfterApply(kind, planned, observed, key), diagnostics, pending: pendingAfterApply(kind, observed, runtime.now()) };
  } catch (err) {
    diagnostics.push(error(`Could not ${prior ? 'update' : 'create'} the ${kind.label} ${key}`, messageOf(err), erringAttribute(kind, err)));
    return { value: prior, diagnostics };
  }
}

/** The attribute an apply error is about, when the core names its field (a reference the account lacks). */
function erringAttribute(kind: ResourceKind, err: unknown) {
  const field = (err as { field?: unknown } | null)?.field;
  return typeof field === 'string' ? problemPath(kind, { field }).attribute : undefined;
}

/** The live object in the state's terms: declared forms kept where they mean the same, live values where they differ. */
function refreshedState(kind: ResourceKind, state: TfObject, canonical: Record<string, unknown>, observed: ObservedValues): TfObject {
  const next: TfObject = { ...state };
  for (const field of kind.fields) {
    if (!field.readable || field.role === 'write-only' || field.role === 'create-only') continue;
    if (!(field.name in observed.values)) continue; // not verifiable: keep what we have
    const live = attributeValue(observed.values[field.name]);
    const declared = state[field.attribute];
    if (field.role === 'computed') next[field.attribute] = live;
    else if (observed.sameAsDeclared?.has(field.name)) next[field.attribute] = declared;
    else if (sameValue(declared, live) || sameValue(attributeValue(canonical[field.name]), live)) next[field.attribute] = declared;
    else next[field.attribute] = live;
  }
  return next;
}

/**
 * The object read back. `pending`: the elements an apply asked for and not yet applied
 * (private state, pending.ts): counted as present while their time lasts; the record
 * that remains comes back with the result.
 */
export async function readState(
  kind: ResourceKind, state: TfObject | null, pending: PendingRecord = {}, now = Date.now(),
): Promise<Result<TfObject | null> & { readonly pending: PendingRecord }> {
  if (!state) return { value: null, diagnostics: [], pending: {} };
  const { spec } = kind.check(specValuesOf(kind, state).values, kind.typeName);
  try {
    const read = await kind.observe(kind.identity(spec), spec);
    if (!read) return { value: null, diagnostics: [], pending: {} };
    const { observed, record } = withPending(kind, state, read, pending, now);
    return { value: refreshedState(kind, state, spec as Record<string, unknown>, observed), diagnostics: [], pending: record };
  } catch (err) {
    return { value: state, diagnostics: [error(`Could not read the ${kind.label} ${String(state[ID_ATTRIBUTE])}`, messageOf(err))], pending };
  }
}

export async function importState(kind: ResourceKind, text: string): Promise<Result<TfObject | null>> {
  const parsed = kind.parseImportId(text);
  if ('problem' in parsed) {
    return { value: null, diagnostics: [error(`Invalid import id for ${kind.typeName}: "${text}"`, `${parsed.problem}. Expected ${kind.importIdHelp}.`)] };
  }
  const id = parsed.identity;
  try {
    const observed = await kind.observe(id);
    if (!observed) {
      return { value: null, diagnostics: [error(`Cannot import ${kind.typeName}: no ${kind.label} "${kind.key(id)}" in the account`, `Expected ${kind.importIdHelp} of an existing ${kind.label}.`)] };
    }
    const state = nullObject(kind);
    state[ID_ATTRIBUTE] = kind.key(id);
    for (const field of kind.fields) {
      if (field.name in observed.values) state[field.attribute] = attributeValue(observed.values[field.name]);
      else if (isMootOnceMade(field) || plansItsDefault(field)) state[field.attribute] = attributeValue(field.defaultValue);
      // Anything else that cannot be read back stays null: the configuration decides it on the next plan.
    }
    // The id is the natural key of what was found (an import by `stack-user:N` finds a user whose key is its e-mail).
    const found = kind.check(specValuesOf(kind, state).values, kind.typeName);
    if (!found.problems.length) state[ID_ATTRIBUTE] = kind.key(kind.identity(found.spec));
    return { value: state, diagnostics: [] };
  } catch (err) {
    return { value: null, diagnostics: [error(`Could not import the ${kind.label} ${text}`, messageOf(err))] };
  }
}

export { hasErrors };
export type { TfValue };
