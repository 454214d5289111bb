import { DEFINITIONS, definitionOf, Kind, kindLabel, kindOrder } from '../../protocol';
import { byText } from '../../stacks';
import {
  attributeChanges, describeChange, describeUpdates, naturalKeyOf, kindOfType, phrasesOf, PROVIDER_TYPES, replacementCause, rotationText, secretWordsOf,
  specOfAttributes, versionRecordedText,
} from './provider';
import { asObject, identityOf, isSensitive, isUnknownAfter, NO_VALUE, readPlan, ResourceChange, triggerKey, triggersOf } from './plan';

/**
 * `reseller-hosting review`: a `terraform show -json <planfile>` document summarised in
 * the user's terms. The resources of one construct (object and settings; a password
 * resource in stacks synthesized by 0.1) are grouped into one line by the object's
 * identity triggers (kind, key).
 *
 * Categories:
 * - created: a new remote object;
 * - updated: mutable fields changed in place, or a password rotated (its version is
 *   a trigger of the settings resource, which is replaced);
 * - destructive: the remote object is deleted (declared `absent: true`) or replaced
 *   (deleted, then created again: an identity field changed);
 * - orphan: the construct was removed from the code without `absent: true`: the object
 *   resource is planned for delete but is no longer in the configuration, so its
 *   destroy-time provisioner cannot run and the remote object stays, unmanaged;
 * - retained: a cloud server planned for delete keeps running (the API cannot cancel servers);
 * - forgotten: a `removed` block with `destroy = false` drops the object from the state:
 *   it stays in the account as it is, no longer managed, and nothing is written;
 * - moved: only the object's address in the state changes (a `moved` block, e.g. after a
 *   construct was renamed): nothing is written to the account. A moved object that also
 *   changes keeps its category, and its line says where it moved from.
 */
export type ReviewCategory = 'destructive' | 'orphan' | 'retained' | 'updated' | 'created' | 'imported' | 'forgotten' | 'moved' | 'drift';

/**
 * Categories of planned changes, in the order they are shown. `imported` (an `import`
 * block adopts an existing object) and `drift` (found by refresh: changed outside
 * Terraform, in its own section) come from provider-engine stacks; `forgotten` (its
 * opposite, a `removed` block) from either engine.
 */
export const REVIEW_CATEGORIES: readonly ReviewCategory[] = ['destructive', 'orphan', 'retained', 'updated', 'created', 'imported', 'forgotten', 'moved', 'drift'];

/** Categories of the planned changes (items); `drift` items are in `Review.drift`. */
export const CHANGE_CATEGORIES: readonly ReviewCategory[] = REVIEW_CATEGORIES.filter((c) => c !== 'drift');

export interface FieldChange {
  readonly field: string;
  /** Display text of the old value; "(sensitive)" for a sensitive value, which is never shown. */
  readonly before: string;
  /** Display text of the new value; "(changed)" for a sensitive value. */
  readonly after: string;
  /** The value is sensitive: only the fact that it changes is shown. */
  readonly sensitive?: boolean;
}

export interface ReviewItem {
  readonly category: ReviewCategory;
  readonly kind: Kind;
  /** Natural key before the change (after it, for a created object). */
  readonly key: string;
  /** The new natural key, when a replace changes it. */
  readonly newKey?: string;
  /** Address of the object resource (without a count index). */
  readonly address: string;
  /** The address it had in the state, when this plan moves it. */
  readonly previousAddress?: string;
  /** What happens, in one sentence: `package example.com is created`. */
  readonly summary: string;
  /** The same without the object: `is created`. */
  readonly change: string;
  /** Changed fields (updates) or identity fields (replaces). */
  readonly changes: FieldChange[];
  /** A rotated secret (the kind's secret facet, a mailbox's password): old and new version (never a value). */
  readonly passwordRotation?: { readonly before: string; readonly after: string };
}

export interface Review {
  readonly items: ReviewItem[];
  /** Changes made outside Terraform that the refresh found (`resource_drift`), category `drift`. */
  readonly drift: ReviewItem[];
  readonly counts: Record<ReviewCategory, number>;
  /** Reseller constructs the plan leaves as they are. */
  readonly unchanged: number;
  /** Changes of resources that are not reseller constructs (address and actions). */
  readonly otherChanges: string[];
  /** Warnings about the plan itself (incomplete, errored, unexpected format). */
  readonly notes: string[];
}

interface Group {
  object: ResourceChange;
  settings: ResourceChange[];
  password: ResourceChange[];
}

const CARRIERS = new Set(['terraform_data', 'null_resource']);

/** The review of a plan document (`terraform show -json <planfile>`). */
export function reviewPlan(plan: unknown): Review {
  const { changes, configured, drift: driftChanges, notes } = readPlan(plan);

  const groups = new Map<string, Group>();
  const rest: ResourceChange[] = [];
  for (const rc of changes) {
    if (CARRIERS.has(rc.type) && identityOf(rc)) groups.set(rc.base, { object: rc, settings: [], password: [] });
  }
  const items: ReviewItem[] = [];
  let unchanged = 0;
  for (const rc of changes) {
    if (groups.get(rc.base)?.object === rc) continue;
    if (PROVIDER_TYPES.has(rc.type)) {
      const item = withMove(classifyProvider(rc, configured), rc, kindOfType(rc.type)!, providerKeyOf(rc));
      if (item) items.push(item);
      else unchanged++;
      continue;
    }
    const owner = CARRIERS.has(rc.type) ? /^(.*)_(settings|password)$/.exec(rc.base) : null;
    const group = owner ? groups.get(owner[1]) : undefined;
    if (group && owner) (owner[2] === 'settings' ? group.settings : group.password).push(rc);
    else rest.push(rc);
  }

  for (const group of groups.values()) {
    const item = withMove(classify(group, configured), group.object, identityOf(group.object)!.kind, carrierKeyOf(group.object));
    if (item) items.push(item);
    else unchanged++;
  }
  const order = (c: ReviewCategory) => REVIEW_CATEGORIES.indexOf(c);
  items.sort((a, b) => order(a.category) - order(b.category) || kindOrder(a.kind) - kindOrder(b.kind) || byText(a.key, b.key) || byText(a.address, b.address));
  const drift = driftChanges.map(driftItem).filter((i): i is ReviewItem => i !== undefined);
  drift.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || byText(a.key, b.key) || byText(a.address, b.address));
  const counts = Object.fromEntries(CHANGE_CATEGORIES.map((c) => [c, items.filter((i) => i.category === c).length])) as Record<ReviewCategory, number>;
  counts.drift = drift.length;
  const otherChanges = rest
    .filter((rc) => !rc.actions.every((a) => a === 'no-op' || a === 'read'))
    .map((rc) => `${rc.address}: ${rc.actions.join(', ')}`);
  return { items, drift, counts, unchanged, otherChanges, notes };
}

/** A provider resource's natural key before the change (after it, for a created object). */
const providerKeyOf = (rc: ResourceChange): string => naturalKeyOf(rc.type, rc.before) ?? naturalKeyOf(rc.type, rc.after) ?? rc.address;

/** A carrier object's key before the change: its identity trigger, else the identity the plan gives it. */
function carrierKeyOf(object: ResourceChange): string {
  const key = triggersOf(object.before)?.key;
  return typeof key === 'string' ? key : identityOf(object)!.key;
}

/**
 * A move in the state (`previous_address`): an item of its own when nothing else
 * changes, else a note on the change's line, so a reviewer sees that the object kept
 * its remote identity under a new address.
 */
function withMove(item: ReviewItem | undefined, rc: ResourceChange, kind: Kind, key: string): ReviewItem | undefined {
  const from = rc.previousAddress;
  if (!from) return item;
  if (!item) {
    const change = `is moved in the state from ${from} (no write)`;
    return { category: 'moved', kind, key, address: rc.base, previousAddress: from, changes: [], change, summary: `${kindLabel(kind)} ${key} ${change}` };
  }
  const change = `${item.change} (moved in the state from ${from})`;
  return { ...item, previousAddress: from, change, summary: `${kindLabel(item.kind)} ${item.key} ${change}` };
}

/**
 * One provider resource's planned change. Unlike the carriers, removing a construct
 * deletes its object (the provider's Delete runs whether or not the configuration still
 * has it), so any planned delete is destructive, except a cloud server's, which the API
 * cannot cancel: it is only forgotten.
 */
function classifyProvider(rc: ResourceChange, configured: Set<string> | undefined): ReviewItem | undefined {
  const kind = kindOfType(rc.type)!;
  const words = lifecycleWords(kind);
  const oldKey = providerKeyOf(rc);
  const make = (category: ReviewCategory, change: string, extra: Partial<ReviewItem> = {}): ReviewItem => ({
    kind, key: oldKey, address: rc.address, changes: [], category, change, summary: `${kindLabel(kind)} ${extra.key ?? oldKey} ${change}`, ...extra,
  });
  const updates = () => attributeChanges(rc, ['setting', 'create-only']);
  const fieldChangesOf = (list: ReturnType<typeof updates>): FieldChange[] =>
    list.filter((c) => !c.secretVersion).map((c) => ({ field: c.field, before: c.before, after: c.after, sensitive: c.sensitive }));
  const rotationOf = (list: ReturnType<typeof updates>) => {
    const v = list.find((c) => c.secretVersion && c.before !== NO_VALUE);
    return v ? { before: v.before, after: v.after } : undefined;
  };

  if (isForget(rc.actions)) return make('forgotten', FORGOTTEN);
  if (rc.importing) {
    const list = updates();
    const { writes, records } = describeUpdates(list);
    const rest = (writes ? `; then updated: ${writes}` : ' as it is (no write)') + (records ? `; recorded in the state only: ${records}` : '');
    return make('imported', `is imported (adopted${rc.importing.id ? ` by id ${JSON.stringify(rc.importing.id)}` : ''})${rest}`, {
      changes: fieldChangesOf(list), passwordRotation: rotationOf(list),
    });
  }
  if (isCreate(rc.actions)) {
    const key = naturalKeyOf(rc.type, rc.after) ?? oldKey;
    // The settings a kind words in its own terms (phrases), said as what the create does.
    const said = attributeChanges({ ...rc, before: null }, ['setting']).flatMap((c) => c.phrased ?? []);
    return make('created', `${words.created}${said.length ? `: ${said.join('; ')}` : ''}`, { key });
  }
  if (isDelete(rc.actions)) {
    const removedFromCode = rc.reason === 'delete_because_no_resource_config' || (configured !== undefined && !configured.has(rc.address.replace(/\[[^\]]*\]$/, '')));
    const why = removedFromCode ? 'its construct was removed from the code' : 'declared absent';
    const quiet = quietRemoval(kind, specOfAttributes(definitionOf(kind), rc.before, rc.address), why);
    if (quiet) return make(quiet.category, quiet.change);
    if (words.cannotDelete) {
      return make('retained', `is retained (${why}; ${words.cannotDelete}): it is removed from the state, keeps running and billing; cancel it in the control panel if it is no longer needed`);
    }
    return make('destructive', `is DELETED (${why})${words.deletes}`);
  }
  if (isReplace(rc.actions)) {
    const cause = replacementCause(rc, rc.replacePaths);
    const newKey = naturalKeyOf(rc.type, rc.after);
    const changedKey = newKey && newKey !== oldKey ? newKey : undefined;
    const parentKind = definitionOf(kind).parent?.kind as Kind | undefined;
    const reason = cause.length ? `${cause.map((c) => `${c.words} ${c.before} -> ${c.after}`).join(', ')} forces it`
      : rc.reason === 'replace_by_triggers' && parentKind ? `its ${kindLabel(parentKind)} is replaced`
        : 'replacement was requested';
    return make('destructive', words.replaced(reason, changedKey), { newKey: changedKey, changes: cause.map((c) => ({ field: c.field, before: c.before, after: c.after })) });
  }
  // A kind the API replaces in one write (a DNS record within its zone): the provider plans it as an update.
  const replacedAtOnce = rc.actions.includes('update') && definitionOf(kind).lifecycle?.replacesInOneWrite ? attributeChanges(rc, ['identity']) : [];
  if (replacedAtOnce.length) {
    const after = naturalKeyOf(rc.type, rc.after);
    const newKey = after && after !== oldKey ? after : undefined;
    const reason = replacedAtOnce.map((c) => `${c.words} ${c.before} -> ${c.after}`).join(', ');
    return make('updated', `is replaced in one write${newKey ? ` by ${newKey}` : ''} (${reason}): added and deleted at once, never absent`, {
      newKey, changes: replacedAtOnce.map((c) => ({ field: c.field, before: c.before, after: c.after })),
    });
  }
  if (rc.actions.includes('update')) {
    const list = updates();
    const { writes, records } = describeUpdates(list);
    const what = writes ? `is updated in place: ${writes}${records ? `; recorded in the state only: ${records}` : ''}`
      : records ? `is updated in the state only (nothing is written): ${records}` : 'is updated in place: settings re-applied';
    return make('updated', what, {
      changes: fieldChangesOf(list), passwordRotation: rotationOf(list),
    });
  }
  return undefined;
}

/** A change the refresh found (`resource_drift`): what changed outside Terraform. */
function driftItem(rc: ResourceChange): ReviewItem | undefined {
  const kind = kindOfType(rc.type);
  if (!kind) return undefined;
  const key = naturalKeyOf(rc.type, rc.before) ?? rc.address;
  const base = { kind, key, address: rc.address, category: 'drift' as ReviewCategory };
  if (rc.actions.includes('delete') && !rc.actions.includes('create')) {
    const change = 'was deleted outside Terraform';
    return { ...base, change, summary: `${kindLabel(kind)} ${key} ${change}`, changes: [] };
  }
  if (!rc.actions.includes('update')) return undefined;
  // A state moved from another resource type (a carrier's, by a moved block) holds only the
  // identity: the first refresh fills in the rest, which Terraform reports as drift but the
  // account did not change. Only a value the moved state held and the account contradicts is.
  const list = attributeChanges(rc, ['identity', 'setting'], { drift: true }).filter((c) => !(rc.previousAddress && c.before === NO_VALUE));
  const said = list.map(describeChange).filter(Boolean);
  if (!said.length) return undefined;
  const change = `was changed outside Terraform: ${said.join('; ')}`;
  return { ...base, change, summary: `${kindLabel(kind)} ${key} ${change}`, changes: list.map((c) => ({ field: c.field, before: c.before, after: c.after, sensitive: c.sensitive })) };
}

const isReplace = (actions: string[]) => actions.includes('delete') && actions.includes('create');
/** Terraform's action for a `removed` block with `destroy = false` (Terraform 1.7+). */
const isForget = (actions: string[]) => actions.length === 1 && actions[0] === 'forget';
const FORGOTTEN = 'is no longer managed (a removed block with destroy = false): it stays in the account as it is; nothing is written';
const isDelete = (actions: string[]) => actions.length === 1 && actions[0] === 'delete';
const isCreate = (actions: string[]) => actions.length === 1 && actions[0] === 'create';
const changesObject = (rc: ResourceChange) => isReplace(rc.actions) || rc.actions.includes('update') || isCreate(rc.actions);

function classify(group: Group, configured: Set<string> | undefined): ReviewItem | undefined {
  const { object } = group;
  const before = triggersOf(object.before);
  const after = triggersOf(object.after);
  const id = identityOf(object)!;
  const oldKey = carrierKeyOf(object);
  const base = { kind: id.kind, key: oldKey, address: object.base, changes: [] as FieldChange[] };
  const words = lifecycleWords(id.kind);

  const item = (category: ReviewCategory, change: string, extra: Partial<ReviewItem> = {}): ReviewItem => ({
    ...base, category, change, summary: `${kindLabel(id.kind)} ${extra.key ?? oldKey} ${change}`, ...extra,
  });

  if (isCreate(object.actions)) {
    const key = typeof after?.key === 'string' ? after.key : id.key;
    return item('created', words.created, { key });
  }
  if (isForget(object.actions)) return item('forgotten', FORGOTTEN);

  if (isDelete(object.actions)) {
    const removedFromCode = object.reason === 'delete_because_no_resource_config' || (configured !== undefined && !configured.has(object.base));
    if (words.cannotDelete) {
      return item(
        'retained',
        `is retained (${words.cannotDelete}): it keeps running and billing, ` +
          `unmanaged${removedFromCode ? ' (its construct was removed from the code)' : ''}; cancel it in the control panel if it is no longer needed`,
      );
    }
    const quiet = removedFromCode ? undefined : quietRemoval(id.kind, settingsSpecOf(group, id.kind), 'declared absent: true');
    if (quiet) return item(quiet.category, quiet.change);
    if (removedFromCode) {
      return item(
        'orphan',
        'is orphaned: its construct was removed from the code without absent: true, so its destroy-time provisioner ' +
          'cannot run; the remote object stays, no longer managed. To delete it, restore the construct with absent: true, deploy, then remove it',
      );
    }
    return item('destructive', `is DELETED (declared absent: true)${words.deletes}`);
  }

  if (isReplace(object.actions)) {
    const identityChanges = identityDiff(object);
    const newKey = typeof after?.key === 'string' && after.key !== oldKey ? after.key : undefined;
    const changed = (field: string) => identityChanges.some((c) => c.field === field);
    const parentKind = definitionOf(id.kind).parent?.kind;
    const parent = parentKind ? kindLabel(parentKind as Kind) : 'parent';
    const placement = typeof before?.placement === 'string' && before.placement ? ` ${before.placement}` : '';
    const reason = changed('parent')
      ? `its ${parent}${placement} is replaced`
      : changed('placement')
        ? `it moves to another ${parent}`
        : changed('key')
          ? `its ${definitionOf(id.kind).keyName} changes`
          : 'replacement was requested';
    // A kind the API replaces in one write: the object's delete is left to the new one's ensure (handler/successor.ts).
    if (newKey && !changed('parent') && definitionOf(id.kind).lifecycle?.replacesInOneWrite) {
      return item('updated', `is replaced by ${newKey} (${reason}): added in the same write that deletes the old one (in another zone, just before), never absent`, {
        newKey, changes: identityChanges,
      });
    }
    return item('destructive', words.replaced(reason, newKey), { newKey, changes: identityChanges.filter((c) => c.field !== 'parent') });
  }

  // The object stays: look at its settings and password resources.
  // The secret's version (the kind's secret facet) is a settings trigger (a separate
  // password resource in stacks synthesized by 0.1): its change is a rotation, not a field.
  const secret = secretWordsOf(definitionOf(id.kind));
  const fields = group.settings.filter(changesObject).flatMap(fieldChanges);
  const settingsChanges = fields.filter((c) => c.field !== secret?.versionField);
  const versionChange = secret && fields.find((c) => c.field === secret.versionField);
  const password = secret && group.password.find((rc) => isReplace(rc.actions) || isCreate(rc.actions));
  let rotation: ReviewItem['passwordRotation'];
  // A version where there was none (a secret newly declared on the object, or a
  // stack synthesized by 0.1): `ensure` keeps the object's current secret then.
  const versionAppears = versionChange !== undefined && versionChange.before === NO_VALUE;
  if (versionChange && !versionAppears) {
    rotation = { before: versionChange.before, after: versionChange.after };
  } else if (secret && password && !versionChange) {
    rotation = { before: valueText(password, 'before', secret.versionField), after: valueText(password, 'after', secret.versionField) };
  }
  if (settingsChanges.length === 0 && !rotation && !versionAppears && !object.actions.includes('update')) return undefined;
  const parts = settingsChanges.flatMap((c) => (c.sensitive ? [`${c.field} (changed)`] : carrierPhrases(group, id.kind, oldKey, c.field) ?? [`${c.field} ${c.before} -> ${c.after}`]));
  if (secret && rotation) parts.push(rotationText(secret.words, rotation.before, rotation.after));
  if (secret && versionAppears) {
    parts.push(`${versionRecordedText(secret, versionChange!.after)} (raise ${secret.versionField} to set the declared one)`);
  }
  return item('updated', `is updated in place: ${parts.length ? parts.join('; ') : 'settings re-applied'}`, {
    changes: settingsChanges,
    passwordRotation: rotation,
  });
}

/**
 * A removal that deletes nothing, in the kind's words: settings that go back to the
 * platform's defaults (`lifecycle.restoresDefaults`: updated, not destructive), or a
 * delete that only forgets (`lifecycle.deleteForgets`: no longer managed).
 */
function quietRemoval(kind: Kind, spec: unknown, why: string): { category: ReviewCategory; change: string } | undefined {
  const life = definitionOf(kind).lifecycle;
  if (life?.deleteForgets) return { category: 'forgotten', change: `is no longer managed (${why}): ${life.deleteForgets}; nothing is written` };
  if (life?.restoresDefaults && spec !== undefined) {
    return { category: 'updated', change: `is removed (${why}): ${life.restoresDefaults(spec)}` };
  }
  return undefined;
}

/** A carrier settings trigger's value in spec form (JSON ones parsed; '' is none). */
function triggerValue(values: unknown, field: string): unknown {
  const v = triggersOf(values)?.[field];
  if (typeof v !== 'string') return v ?? undefined;
  if (JSON_FIELDS.has(field)) {
    try {
      return JSON.parse(v) ?? undefined;
    } catch {
      return v;
    }
  }
  return v === '' ? undefined : v;
}

/** The spec the settings resource was created with (its ensure provisioner's RESELLER_SPEC is not in a plan: rebuilt from the triggers). */
function settingsSpecOf(group: Group, kind: Kind): unknown {
  const settings = group.settings[0];
  const def = definitionOf(kind);
  const triggers = triggersOf(settings?.before);
  if (!triggers) return undefined;
  const values = Object.fromEntries(def.fields.filter((f) => f.name in triggers).map((f) => [f.name, triggerValue(settings.before, f.name)]));
  return { kind, ...values };
}

/** The sentences of a settings trigger's change when the kind words the field itself (its `phrases`). */
function carrierPhrases(group: Group, kind: Kind, key: string, field: string): readonly string[] | undefined {
  const def = definitionOf(kind).fields.find((f) => f.name === field);
  const rc = group.settings.find(changesObject);
  if (!def?.phrases || !rc) return undefined;
  const after = triggersOf(rc.after) ?? {};
  const others = Object.fromEntries(Object.keys(after).map((f) => [f, triggerValue(rc.after, f)]));
  return phrasesOf(def, key, triggerValue(rc.before, field), triggerValue(rc.after, field), others);
}

/** What review says of a kind's creates, deletes and replaces: its definition's lifecycle in words. */
function lifecycleWords(kind: Kind) {
  const def = definitionOf(kind);
  const life = def.lifecycle ?? {};
  const noun = def.shortLabel ?? def.label;
  const cannotDelete = life.cannotDelete ? `the API cannot cancel ${noun}s` : undefined;
  return {
    created: life.orderCharges ? 'is ordered (the account is charged)' : 'is created',
    cannotDelete,
    deletes: life.deletes ? `, with ${life.deletes}` : '',
    replaced: (reason: string, newKey: string | undefined) => (cannotDelete
      ? `is REPLACED (${reason}): the old ${noun} is retained (${cannotDelete}) and a new one${newKey ? ` ${newKey}` : ''} is ${life.orderCharges ? 'ordered (charged)' : 'created'}`
      : `is REPLACED: deleted${life.deletes ? ` with ${life.deletes}` : ''}${newKey ? `, then ${newKey} created` : ', then created again'} (${reason})`),
  };
}

/** Identity triggers that change (key, placement, parent), as display text. */
function identityDiff(rc: ResourceChange): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of ['key', 'placement', 'parent']) {
    const b = valueText(rc, 'before', field);
    const a = valueText(rc, 'after', field);
    if (b !== a) out.push({ field, before: b, after: a });
  }
  return out;
}

/** The mutable fields of a settings resource that change (the parent id `object` is not one). */
function fieldChanges(rc: ResourceChange): FieldChange[] {
  const before = triggersOf(rc.before) ?? {};
  const after = triggersOf(rc.after) ?? {};
  const unknown = asObject(asObject(rc.afterUnknown)?.[triggerKey(rc.after ?? rc.before)]) ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(unknown)])]
    .filter((f) => f !== 'object')
    .sort();
  const out: FieldChange[] = [];
  for (const field of fields) {
    const sensitive = isSensitive(rc.beforeSensitive, rc.before, field) || isSensitive(rc.afterSensitive, rc.after, field);
    const unknownAfter = isUnknownAfter(rc, field);
    if (!unknownAfter && JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    if (sensitive) out.push({ field, before: '(sensitive)', after: '(changed)', sensitive: true });
    else out.push({ field, before: valueText(rc, 'before', field), after: valueText(rc, 'after', field) });
  }
  return out;
}

/** Secret versions (each kind's secret facet): shown as the number they are. */
const SECRET_VERSION_FIELDS = new Set(DEFINITIONS.flatMap((d) => (d.secret ? [d.secret.versionField] : [])));

/** JSON-encoded trigger fields: what each kind's definition says its settings() encodes as JSON. */
const JSON_FIELDS = new Set(DEFINITIONS.flatMap((d) => d.jsonSettings));

/** Display text of one trigger value of a resource, before or after. */
function valueText(rc: ResourceChange, when: 'before' | 'after', field: string): string {
  const values = when === 'before' ? rc.before : rc.after;
  const sensitiveMask = when === 'before' ? rc.beforeSensitive : rc.afterSensitive;
  if (isSensitive(sensitiveMask, values, field)) return '(sensitive)';
  if (when === 'after' && isUnknownAfter(rc, field)) return '(known after apply)';
  const t = triggersOf(values);
  if (!t || !(field in t)) return NO_VALUE;
  const v = t[field];
  if (typeof v === 'string' && JSON_FIELDS.has(field)) {
    try {
      const parsed = JSON.parse(v);
      return parsed === null ? NO_VALUE : JSON.stringify(parsed);
    } catch {
      return JSON.stringify(v);
    }
  }
  if (SECRET_VERSION_FIELDS.has(field) && typeof v === 'string') return v;
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null);
}

