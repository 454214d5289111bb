import { isKind, Kind } from '../../protocol';

/**
 * Reading a `terraform show -json <planfile>` document: the resource changes, the
 * configured addresses, and the trigger values of the carrier resources. Plan JSON is
 * untrusted input: every value is checked before it is used.
 */

/** A JSON object of the plan, or undefined for anything else. */
export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** One resource change of the plan, with the fields the review uses. */
export interface ResourceChange {
  readonly address: string;
  /** Address without a count/for_each index. */
  readonly base: string;
  readonly type: string;
  readonly name: string;
  readonly actions: string[];
  readonly reason?: string;
  readonly before: unknown;
  readonly after: unknown;
  readonly afterUnknown: unknown;
  readonly beforeSensitive: unknown;
  readonly afterSensitive: unknown;
  /** `change.importing`: the resource is imported by this plan (its import id). */
  readonly importing?: { readonly id?: string };
  /** `replace_paths`: the attributes that force a replacement. */
  readonly replacePaths?: unknown;
  /** `previous_address`: the address the resource had in the state before a `moved` block moved it (another resource, not another index). */
  readonly previousAddress?: string;
}

/** What the review needs of a plan. */
export interface PlanReading {
  readonly changes: ResourceChange[];
  /** Addresses the configuration declares; undefined when the plan has no configuration. */
  readonly configured?: Set<string>;
  /** `resource_drift`: what the refresh found changed outside Terraform. */
  readonly drift: ResourceChange[];
  /** Warnings about the plan itself (incomplete, errored, unexpected format). */
  readonly notes: string[];
}

/** Parses plan JSON text (forgiving about leading noise, clear about binary plan files). */
export function parsePlanText(text: string, source: string): unknown {
  if (text.startsWith('PK')) {
    throw new Error(`${source} is a binary plan file: convert it first with: terraform show -json ${source} > plan.json`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // e.g. a wrapper printed something before the JSON
    const start = text.indexOf('\n{');
    if (start >= 0) {
      try {
        return JSON.parse(text.slice(start + 1));
      } catch {
        // fall through
      }
    }
    throw new Error(`${source} is not JSON: pass the output of terraform show -json <planfile>`);
  }
}

/** The plan's managed resource changes, configured addresses and notes (throws when it is no plan). */
export function readPlan(value: unknown): PlanReading {
  const plan = asObject(value);
  if (!plan) throw new Error('the plan must be a JSON object (terraform show -json <planfile>)');
  if (!('resource_changes' in plan) && !('planned_values' in plan) && !('configuration' in plan)) {
    throw new Error('this JSON is not a Terraform plan: pass the output of terraform show -json <planfile>');
  }
  const notes: string[] = [];
  if (typeof plan.format_version === 'string' && !plan.format_version.startsWith('1.')) {
    notes.push(`plan format ${plan.format_version} is newer than this tool knows (1.x); the review may be incomplete`);
  }
  if (plan.errored === true) notes.push('terraform reported errors while planning: the plan is incomplete');
  else if (plan.complete === false) notes.push('the plan is incomplete (more changes may follow after this apply)');
  const changes = (Array.isArray(plan.resource_changes) ? plan.resource_changes : [])
    .map(asObject)
    .filter((rc): rc is JsonObject => rc !== undefined && (rc.mode ?? 'managed') === 'managed')
    .map(toChange);
  const drift = (Array.isArray(plan.resource_drift) ? plan.resource_drift : [])
    .map(asObject)
    .filter((rc): rc is JsonObject => rc !== undefined && (rc.mode ?? 'managed') === 'managed')
    .map(toChange);
  return { changes, configured: configuredAddresses(plan.configuration), drift, notes };
}

function toChange(rc: JsonObject): ResourceChange {
  const address = String(rc.address ?? '');
  const base = address.replace(/\[[^\]]*\]$/, '');
  const change = asObject(rc.change) ?? {};
  return {
    address,
    base,
    type: String(rc.type ?? ''),
    name: String(rc.name ?? ''),
    actions: Array.isArray(change.actions) ? change.actions.map(String) : [],
    reason: typeof rc.action_reason === 'string' ? rc.action_reason : undefined,
    before: change.before ?? null,
    after: change.after ?? null,
    afterUnknown: change.after_unknown ?? {},
    beforeSensitive: change.before_sensitive ?? {},
    afterSensitive: change.after_sensitive ?? {},
    importing: asObject(change.importing) ? { id: typeof asObject(change.importing)!.id === 'string' ? String(asObject(change.importing)!.id) : undefined } : undefined,
    replacePaths: rc.replace_paths,
    // Not Terraform's own moves across a count boundary (`x` <-> `x[0]`): the same construct, not a move the user made.
    previousAddress: typeof rc.previous_address === 'string' && rc.previous_address.replace(/\[[^\]]*\]$/, '') !== base ? rc.previous_address : undefined,
  };
}

/** Addresses of the resources the plan's configuration declares (root and child modules). */
function configuredAddresses(configuration: unknown): Set<string> | undefined {
  const config = asObject(configuration);
  if (!config) return undefined;
  const out = new Set<string>();
  const walk = (module: JsonObject | undefined, prefix: string) => {
    for (const r of Array.isArray(module?.resources) ? module.resources : []) {
      const address = asObject(r)?.address;
      if (typeof address === 'string') out.add(`${prefix}${address}`);
    }
    for (const [name, call] of Object.entries(asObject(module?.module_calls) ?? {})) walk(asObject(asObject(call)?.module), `${prefix}module.${name}.`);
  };
  walk(asObject(config.root_module), '');
  return out;
}

/** The replace-triggers of a carrier resource's values (`triggers_replace`, or `triggers` of null_resource). */
export function triggersOf(values: unknown): JsonObject | undefined {
  const v = asObject(values);
  return v ? asObject(v.triggers_replace ?? v.triggers) : undefined;
}

export function triggerKey(values: unknown): 'triggers_replace' | 'triggers' {
  const v = asObject(values);
  return v && 'triggers' in v && !('triggers_replace' in v) ? 'triggers' : 'triggers_replace';
}

/** The object identity (kind, key) in a carrier resource's triggers, after or before. */
export function identityOf(rc: ResourceChange): { kind: Kind; key: string } | undefined {
  for (const values of [rc.after, rc.before]) {
    const t = triggersOf(values);
    if (t && isKind(t.kind) && typeof t.key === 'string' && t.key !== '') return { kind: t.kind, key: t.key };
  }
  return undefined;
}

/** Whether a trigger field is sensitive in a `*_sensitive` mask. */
export function isSensitive(mask: unknown, values: unknown, field: string): boolean {
  if (mask === true) return true;
  const m = asObject(mask)?.[triggerKey(values)];
  return m === true || asObject(m)?.[field] === true;
}

/** The display text of an attribute or trigger with no value (null, absent): what the review's lines show and compare. */
export const NO_VALUE = '(none)';

/** Whether a trigger field (or all triggers) is unknown until apply. */
export function isUnknownAfter(rc: ResourceChange, field?: string): boolean {
  const unknown = asObject(rc.afterUnknown)?.[triggerKey(rc.after ?? rc.before)];
  return unknown === true || (field !== undefined && asObject(unknown)?.[field] === true);
}
