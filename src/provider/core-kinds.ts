import { DEFINITIONS, FieldDefinition, KindDefinition, ObjectSpec } from '../protocol';
import { DEFAULT_CLOUD_TIMEOUT_MINUTES } from '../protocol/handler-contract';
import { diff, ensure, EnsureHistory, expectCreate, observe, Observed, ReconcileContext, remove } from '../reconcile';
import { Connection } from './connection';
import { dataSources } from './data-sources';
import type { ProviderModel } from './provider';
import type { EnsureOptions, ObservedValues, ResourceField, ResourceKind } from './resources/kind';

/**
 * The five resource types, bound to the core: each kind's definition gives the schema
 * and the checks, the reconcile entry does the work. This file is the only place
 * that knows how a spec's values look as Terraform attributes.
 */

/** Fields whose spec value is a control-panel user reference: `stack-user:N` or `{ email }`. */
const USER_REF_FIELDS = new Set(['stackUser', 'forUser']);

/** Attribute value -> spec value. */
function toSpecValue(field: FieldDefinition, value: unknown): unknown {
  if (USER_REF_FIELDS.has(field.name) && typeof value === 'string' && value.includes('@')) return { email: value };
  if (field.name === 'packageType' && typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value);
  return value;
}

/** Spec or live value -> attribute value. */
export function toAttributeValue(field: FieldDefinition, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'email' in value) return (value as { email: string }).email;
  if (field.type === 'string' && typeof value === 'number') return String(value);
  return value;
}

/**
 * Names Terraform reserves for meta-arguments in a resource block: an attribute cannot
 * have one (`provider = "native"` would select a provider named "native"). The cloud
 * server's `provider` field becomes `cloud_provider`.
 */
const RESERVED_ATTRIBUTES: Record<string, string> = { provider: 'cloud_provider' };
const META_ARGUMENTS = new Set(['count', 'for_each', 'depends_on', 'lifecycle', 'provider', 'provisioner', 'connection']);

export function attributeNameOf(field: FieldDefinition): string {
  const renamed = RESERVED_ATTRIBUTES[field.attribute];
  if (renamed) return renamed;
  if (META_ARGUMENTS.has(field.attribute)) throw new Error(`${field.name}: attribute name "${field.attribute}" is a Terraform meta-argument`);
  return field.attribute;
}

function resourceField(field: FieldDefinition): ResourceField {
  return { ...field, attribute: attributeNameOf(field) };
}

const DESCRIPTIONS: Record<string, string> = {
  package: 'A hosting package, found by its primary domain.',
  mailbox: 'A mailbox on a hosting package\'s mail domain, found by local@domain. Its password is write-only.',
  forwarder: 'A mail forwarder on a hosting package\'s mail domain, found by local@domain.',
  'cloud-server': 'A managed cloud server, found by its host name. The API cannot cancel one: destroying it only removes it from state.',
  'stack-user': 'A control-panel user, found by the e-mail of its contact record.',
};

function observedValues(def: KindDefinition, observed: Observed, same?: ReadonlySet<string>): ObservedValues {
  const values: Record<string, unknown> = {};
  for (const field of def.fields) {
    const source = field.role === 'computed' ? observed.computed : observed.fields;
    if (field.name in source) values[field.name] = toAttributeValue(field, source[field.name]);
  }
  return { values, sameAsDeclared: same };
}

function bindKind(def: KindDefinition, conn: Connection): ResourceKind<ObjectSpec, ReturnType<KindDefinition['identity']>> {
  const fields = def.fields.filter((f) => !f.carrierOnly);
  const specOf = (values: Record<string, unknown>, address: string, timeoutMinutes?: number): ObjectSpec => {
    const spec: Record<string, unknown> = { kind: def.kind, path: address };
    for (const field of fields) {
      if (field.name in values) spec[field.name] = toSpecValue(field, values[field.name]);
      else if (field.presence === 'default' && field.defaultValue !== undefined) spec[field.name] = field.defaultValue; // the check does not fill defaults
    }
    if (def.kind === 'cloud-server') spec.timeoutMinutes = timeoutMinutes ?? DEFAULT_CLOUD_TIMEOUT_MINUTES;
    // The mail domain defaults to the package's primary domain (the constructs fill it the same way).
    if ((def.kind === 'mailbox' || def.kind === 'forwarder') && spec.domain === undefined && spec.packageDomain !== undefined) spec.domain = spec.packageDomain;
    return spec as unknown as ObjectSpec;
  };
  /** Readable fields the core's semantic diff finds equal to the declared ones (kept in their declared form). */
  const sameAs = async (ctx: ReconcileContext, spec: ObjectSpec | undefined, observed: Observed): Promise<Set<string> | undefined> => {
    if (!spec) return undefined;
    try {
      const differing = new Set((await diff(ctx, spec, observed)).map((d) => d.field));
      return new Set(fields.filter((f) => f.readable && !differing.has(f.name)).map((f) => f.name));
    } catch {
      return undefined; // a spec the core cannot compare (e.g. from an odd state): compare values instead
    }
  };
  return {
    typeName: def.resourceType,
    label: def.label,
    description: DESCRIPTIONS[def.kind] ?? def.label,
    fields: fields.map(resourceField),
    importIdHelp: def.importIdHelp,
    timeouts: def.kind === 'cloud-server' ? { create: `${DEFAULT_CLOUD_TIMEOUT_MINUTES}m` } : undefined,
    deletable: true, // cloud servers: the core's remove warns that the server keeps running
    check(values, address) {
      const { spec, problems } = def.check(specOf(values, address) as never, address);
      return { spec: spec as ObjectSpec, problems };
    },
    identity: (spec) => def.identity(spec as never),
    derived(spec) {
      const out: Record<string, unknown> = {};
      for (const field of fields) {
        const value = (spec as unknown as Record<string, unknown>)[field.name];
        if (field.presence === 'default' && field.defaultValue === undefined && value !== undefined) out[field.name] = toAttributeValue(field, value);
      }
      return out;
    },
    key: (id) => id.key,
    parseImportId(text) {
      const parsed = def.parseImportId(text);
      return typeof parsed === 'string' ? { problem: parsed } : { identity: parsed };
    },
    async observe(id, declared) {
      const ctx = conn.ctx;
      const observed = await observe(ctx, id);
      return observed && observedValues(def, observed, await sameAs(ctx, declared, observed));
    },
    expectCreate(spec) {
      const ctx = conn.ctxIfConfigured;
      if (ctx) expectCreate(ctx, spec);
    },
    async ensure(spec, options: EnsureOptions) {
      // The core sets a mailbox password when the object is first ensured (history
      // without `replaced`) or when the replaced version differs from the declared one.
      const rotate = !options.creating && options.rotatePassword;
      const history: EnsureHistory = options.creating
        ? {}
        : { replaced: { passwordVersion: rotate ? 0 : ((spec as { passwordVersion?: number }).passwordVersion ?? 1) } };
      const withTimeout = options.deadline !== undefined && spec.kind === 'cloud-server'
        ? { ...spec, timeoutMinutes: Math.max(1 / 60, (options.deadline - Date.now()) / 60_000) }
        : spec;
      const ctx = conn.forCall({
        info: options.progress, warn: options.warn, history,
        password: options.creating || rotate ? options.password : undefined,
      });
      const observed = await ensure(ctx, withTimeout);
      return observedValues(def, observed);
    },
    async remove(spec, warn) {
      await remove(conn.forCall({ info: () => undefined, warn }), def.identity(spec as never));
    },
  };
}

/** The provider's model: the five resource types over one connection, configured by ConfigureProvider. */
export function coreModel(env: NodeJS.ProcessEnv): ProviderModel {
  const conn = new Connection();
  return {
    kinds: DEFINITIONS.map((def) => bindKind(def, conn)),
    dataSources: { sources: dataSources(), context: () => conn.ctx },
    configure: (settings) => conn.configure(settings, env),
    stop: () => {
      conn.stopped = true;
    },
  };
}
