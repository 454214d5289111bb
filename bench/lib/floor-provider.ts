import { providerHandlers } from '../../src/provider/provider';
import { coreModel } from '../../src/provider/kind-resources';
import type { ResourceKind } from '../../src/provider/resources/kind';
import { flagsOf, ID_ATTRIBUTE, objectTypeOf } from '../../src/provider/resources/schema';
import { Logger, stderrLogger } from '../../src/provider/transport/log';
import { ProviderHandlers, servePlugin } from '../../src/provider/transport/server';
import { decodeDynamic, encodeDynamic, isUnknown, TfObject, TfType, TfValue, UNKNOWN } from '../../src/provider/wire/values';

/**
 * The FLOOR provider of the benchmarks: our provider with its resource RPCs emptied.
 *
 * It is the real provider in every way Terraform can see except that it does no work:
 * the same schema (GetProviderSchema, provider configuration and the other RPCs are the
 * real handlers), the same transport (grpc-js on a Unix socket, go-plugin handshake,
 * automatic mutual TLS), the same codecs, and the same start-up (bench/lib/floor-install.ts
 * bundles it with esbuild and loads it through the installed provider's loader from a V8
 * code cache, exactly as the real bundle is loaded). Only the resource RPCs differ:
 * - ValidateResourceConfig: no diagnostics, nothing decoded;
 * - UpgradeResourceState: the raw JSON state handed back as a `DynamicValue.json`;
 * - ReadResource: the current state echoed (no request to the account);
 * - PlanResourceChange: the proposed state echoed, except what the protocol demands of
 *   any provider: write-only attributes nulled, and on create the computed attributes
 *   the configuration leaves null marked unknown ("known after apply");
 * - ApplyResourceChange: the planned state with every unknown filled with a value of
 *   its type (nothing is created).
 *
 * Why: it is the floor of ANY provider on this transport. Whatever our provider costs
 * above the floor is ours (reads, reconciling, checks); whatever the floor costs above
 * bare built-in `terraform_data` is the price of Terraform talking to an out-of-process
 * plugin at all (the plugin protocol, per resource RPCs, Terraform's own work for a
 * plugin-backed resource), which no provider code can remove. The benchmarks
 * (bench/provider.ts) run it side by side with the real provider and bare resources.
 */

/** Terraform starts this as its plugin: serve until Terraform shuts the plugin down. */
export function main(): void {
  const logger = stderrLogger();
  servePlugin({
    env: process.env,
    handlers: floorHandlers(process.env, logger),
    logger,
    writeHandshake: (line) => process.stdout.write(line),
    onShutdown: () => process.exit(0),
  }).catch((err: unknown) => {
    process.stderr.write(`floor provider: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** What the code cache compiles before it is written (as the real bundle's build does). */
export { warm } from '../../src/provider/main';

/** The real handlers with the resource RPCs replaced by the no-work ones above. */
export function floorHandlers(env: NodeJS.ProcessEnv, logger: Logger): ProviderHandlers {
  const model = coreModel(env);
  const real = providerHandlers(model, logger, env);
  const kinds = new Map(model.kinds.map((k) => [k.typeName, { kind: k, type: objectTypeOf(k), ...attributesOf(k) }]));
  const kindOf = (typeName: string) => {
    const k = kinds.get(typeName);
    if (!k) throw new Error(`floor provider: unknown resource type ${typeName}`);
    return k;
  };
  let serial = 0;
  /** A value of the type in place of each unknown (what a create would learn from the account). */
  const fill = (value: TfValue, type: TfType): TfValue => {
    if (isUnknown(value)) {
      const base = typeof type === 'string' ? type : type[0];
      if (base === 'string') return `floor-${++serial}`;
      if (base === 'number') return ++serial;
      if (base === 'bool') return false;
      if (base === 'list' || base === 'set') return [];
      if (base === 'map') return {};
      return null;
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof type !== 'string' && type[0] === 'object') {
      const out: TfObject = {};
      for (const [name, attrType] of Object.entries(type[1] as Record<string, TfType>)) out[name] = fill(value[name] ?? null, attrType);
      return out;
    }
    return value;
  };

  return {
    ...real,
    ValidateResourceConfig: async () => ({ diagnostics: [] }),
    UpgradeResourceState: async (req) => ({ upgradedState: { json: req.rawState?.json ?? Buffer.from('null') }, diagnostics: [] }),
    ReadResource: async (req) => ({ newState: req.currentState, private: req.private, diagnostics: [] }),
    PlanResourceChange: async (req) => {
      const k = kindOf(req.typeName);
      const creating = isNull(req.priorState);
      // An update of a kind without write-only attributes: the proposed state as it is.
      if (!creating && k.writeOnly.length === 0) {
        return { plannedState: req.proposedNewState, requiresReplace: [], plannedPrivate: req.priorPrivate, diagnostics: [] };
      }
      const planned = decodeDynamic(req.proposedNewState, k.type) as TfObject | null;
      if (planned) {
        for (const attr of k.writeOnly) planned[attr] = null;
        if (creating) for (const attr of k.computed) if (planned[attr] === null) planned[attr] = UNKNOWN;
      }
      return { plannedState: encodeDynamic(planned, k.type), requiresReplace: [], plannedPrivate: req.priorPrivate, diagnostics: [] };
    },
    ApplyResourceChange: async (req) => {
      const k = kindOf(req.typeName);
      const planned = decodeDynamic(req.plannedState, k.type);
      return { newState: encodeDynamic(planned === null ? null : fill(planned, k.type), k.type), diagnostics: [] };
    },
  };
}

/**
 * Whether a DynamicValue is null without decoding it: Terraform sends a null prior
 * state (a create) as the one msgpack byte nil (0xc0), or as JSON `null`.
 */
function isNull(value: { msgpack?: Buffer; json?: Buffer } | undefined): boolean {
  if (value?.msgpack?.length) return value.msgpack.length === 1 && value.msgpack[0] === 0xc0;
  if (value?.json?.length) return value.json.toString('utf8').trim() === 'null';
  return true;
}

/** The attributes a plan must treat specially: write-only (always null) and computed (unknown on create). */
function attributesOf(kind: ResourceKind): { writeOnly: string[]; computed: string[] } {
  const flags = kind.fields.map((f) => ({ attribute: f.attribute, ...flagsOf(f) }));
  return {
    writeOnly: flags.filter((f) => f.writeOnly).map((f) => f.attribute),
    computed: [ID_ATTRIBUTE, ...flags.filter((f) => f.computed).map((f) => f.attribute)],
  };
}
