import { AnyKindDefinition, attributeFieldsOf, DEFINITIONS, Identity, ObjectSpec, secretVersionOf, specFromValues, TERRAFORM_META_ARGUMENTS, valuesOfSpec } from '../protocol';
import { checkAccount, diff, ensure, EnsureHistory, expectCreate, observe, Observed, ReconcileContext, remove } from '../reconcile';
import { Connection } from './connection';
import { dataSources } from './data-sources';
import { ephemeralResources } from './ephemeral';
import type { ProviderModel } from './provider';
import type { EnsureOptions, ObservedValues, ResourceField, ResourceKind } from './resources/kind';

/**
 * The resource types, bound to the core: each kind's definition gives the schema, the
 * checks and its facets (description, create timeout), the protocol's attribute codec
 * converts values, and the reconcile entry does the work. No kind is named here.
 */

/** An observed object in attribute form (readable and computed fields). */
function observedValues(def: AnyKindDefinition, observed: Observed, same?: ReadonlySet<string>): ObservedValues {
  // The computed fields added to the readable ones' object (not both copied into a third).
  const values = Object.assign(
    valuesOfSpec(def, observed.fields, (f) => f.role !== 'computed'),
    valuesOfSpec(def, observed.computed, (f) => f.role === 'computed'),
  );
  return { values, sameAsDeclared: same, ...(observed.pending ? { pending: observed.pending } : {}) };
}

function resourceFields(def: AnyKindDefinition): ResourceField[] {
  const oneWrite = def.lifecycle?.replacesInOneWrite;
  return attributeFieldsOf(def).map((field) => {
    // A protocol test keeps meta-arguments out of the definitions; this says which one, should one slip in.
    if (TERRAFORM_META_ARGUMENTS.includes(field.attribute)) throw new Error(`${def.kind} ${field.name}: attribute name "${field.attribute}" is a Terraform meta-argument`);
    const replacedInOneWrite = oneWrite !== undefined && field.role === 'identity' && !oneWrite.keeping.includes(field.name);
    return { ...field, ...(replacedInOneWrite ? { replacedInOneWrite } : {}) };
  });
}

function bindKind(def: AnyKindDefinition, conn: Connection): ResourceKind<ObjectSpec, Identity> {
  const fields = attributeFieldsOf(def);
  const timeout = def.createTimeout;
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
    kindName: def.kind,
    label: def.label,
    description: def.description,
    fields: resourceFields(def),
    importIdHelp: def.importIdHelp,
    timeouts: timeout ? { create: `${timeout.defaultMinutes}m`, ...(timeout.waitsFor ? { waitsFor: timeout.waitsFor } : {}) } : undefined,
    deletable: true, // what the API cannot delete (a cloud server): the core's remove warns that it keeps running
    deletesWithIt: def.lifecycle?.deletes ? { what: def.lifecycle.deletes, declaredObjects: Boolean(def.lifecycle.newIdField) } : undefined,
    forgetsOnDelete: def.lifecycle?.deleteForgets,
    secret: def.secret,
    removal: def.lifecycle?.restoresDefaults && ((spec) => def.lifecycle!.restoresDefaults!(spec)),
    keepOnDestroy: def.lifecycle?.keepOnDestroy ? def.fields.find((f) => f.name === def.lifecycle?.keepOnDestroy)?.attribute : undefined,
    check(values, address) {
      return def.check(specFromValues(def, values, address), address);
    },
    identity: (spec) => def.identity(spec),
    async checkAccount(spec, checked) {
      const { problems, known } = await checkAccount(conn.ctx, spec, checked);
      return { problems: problems.map((p) => ({ ...p, message: `${spec.path}: ${p.field} ${p.rule}` })), known };
    },
    derived(spec) {
      // Fields whose default the check derives from another field (a mail domain, its package's).
      return valuesOfSpec(def, spec, (f) => f.presence === 'default' && f.defaultValue === undefined);
    },
    key: (id) => id.key,
    importIdOf: (key, placement) => def.formatImportId({ kind: def.kind, key, placement, parent: '' }),
    parseImportId(text) {
      const parsed = def.parseImportId(text);
      return typeof parsed === 'string' ? { problem: parsed } : { identity: parsed };
    },
    async observe(id, declared) {
      const ctx = conn.ctx;
      // As the declaration sees it (a set it speaks of only in part), when there is one.
      const observed = await observe(ctx, id, declared);
      return observed && observedValues(def, observed, await sameAs(ctx, declared, observed));
    },
    expectCreate(spec) {
      const ctx = conn.ctxIfConfigured;
      if (ctx) expectCreate(ctx, spec);
    },
    async ensure(spec, options: EnsureOptions) {
      // The core sets an object's secret when the object is first ensured (history
      // without `replaced`) or when the replaced version differs from the declared one.
      const rotate = !options.creating && options.rotateSecret;
      const history: EnsureHistory = options.creating
        ? {}
        : { replaced: { secretVersion: rotate ? 0 : secretVersionOf(spec) } };
      const withTimeout = options.deadline !== undefined && timeout
        ? { ...spec, [timeout.field]: Math.max(1 / 60, (options.deadline - Date.now()) / 60_000) }
        : spec;
      const ctx = conn.forCall({
        info: options.progress, warn: options.warn, history,
        secret: options.creating || rotate ? options.secret : undefined,
      });
      const observed = await ensure(ctx, withTimeout, { replacing: options.replacing as Identity | undefined });
      return observedValues(def, observed);
    },
    async remove(spec, warn) {
      await remove(conn.forCall({ info: () => undefined, warn }), def.identity(spec), { declared: spec });
    },
  };
}

/** The provider's model: one resource type per kind over one connection, configured by ConfigureProvider. */
export function coreModel(env: NodeJS.ProcessEnv): ProviderModel {
  const conn = new Connection();
  return {
    kinds: DEFINITIONS.map((def) => bindKind(def, conn)),
    // A data source read during an apply (after the resource it depends on) must see what this process wrote.
    dataSources: { sources: dataSources(), context: () => ({ ...conn.ctx, lists: conn.ctx.lists.sinceOwnWrites() }) },
    // Opened during an apply after what it names was created: it too must see this process's writes.
    ephemeralResources: { resources: ephemeralResources(), context: () => ({ ...conn.ctx, lists: conn.ctx.lists.sinceOwnWrites() }) },
    configure: (settings) => conn.configure(settings, env),
    stop: () => conn.stop(),
  };
}
