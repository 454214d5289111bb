import { Diagnostic, error } from './diagnostics';
import { isMoved, moveResourceState, readMovedState } from './move-state';
import type { ResourceKind } from './resources/kind';
import { applyChange, importState, planChange, readState, ResourceRuntime, validateConfig } from './resources/resource';
import { objectTypeOf, schemaMessageOf } from './resources/schema';
import type { ProviderHandlers } from './transport/server';
import type { Logger } from './transport/log';
import { decodeDynamic, encodeDynamic, TfObject, TfType, typeJson } from './wire/values';

/** The provider block: `api_url` and `reseller_id`; the API key only from RESELLER_API_KEY. */
export interface ProviderSettings {
  readonly apiUrl?: string;
  readonly resellerId?: string;
  readonly apiKey: string;
}

/** What the RPC layer drives: resource kinds, and how to connect them to the account. */
export interface ProviderModel {
  readonly kinds: readonly ResourceKind[];
  /** Connects the kinds' operations to the account; an error message when it cannot. */
  configure(settings: ProviderSettings): string | undefined;
  /** Terraform asked to stop (Ctrl-C): long waits give up at their next check. */
  stop(): void;
}

const PROVIDER_TYPE: TfType = ['object', { api_url: 'string', reseller_id: 'string' }];

const PROVIDER_SCHEMA = {
  version: 0,
  block: {
    version: 0,
    description: 'Manages a web-hosting reseller account. The API key is read from the RESELLER_API_KEY environment variable only.',
    attributes: [
      { name: 'api_url', type: typeJson('string'), optional: true, description: 'Base URL of the reseller API (default: RESELLER_API_URL, else the local emulator at http://127.0.0.1:8080).' },
      { name: 'reseller_id', type: typeJson('string'), optional: true, description: 'Reseller id, when the API key gives access to several accounts (default: RESELLER_ID).' },
    ],
  },
};

const unsupported = (what: string) => ({ diagnostics: [error(`${what} are not supported by the reseller provider`)] });

/** The tfplugin6.Provider RPCs over a ProviderModel. */
export function providerHandlers(model: ProviderModel, logger: Logger, env: NodeJS.ProcessEnv): ProviderHandlers {
  const kinds = new Map(model.kinds.map((k) => [k.typeName, k]));
  const types = new Map(model.kinds.map((k) => [k.typeName, objectTypeOf(k)]));
  const runtime: ResourceRuntime = {
    log: (level, message, fields) => logger.log(level, message, fields),
    now: () => Date.now(),
  };

  /** Runs a resource RPC, or answers a diagnostic when the type is not ours. */
  const withKind = async <R extends Record<string, unknown>>(
    typeName: string, body: (kind: ResourceKind, type: TfType) => Promise<R>,
  ): Promise<R | { diagnostics: Diagnostic[] }> => {
    const kind = kinds.get(typeName);
    if (!kind) return { diagnostics: [error(`Unknown resource type ${typeName}`, `The reseller provider offers: ${[...kinds.keys()].join(', ')}.`)] };
    logger.log('trace', 'resource call', { resource: typeName });
    return body(kind, types.get(typeName)!);
  };
  const obj = (value: unknown, type: TfType) => decodeDynamic(value as never, type) as TfObject | null;

  return {
    GetMetadata: async () => ({
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: true, moveResourceState: true },
      resources: model.kinds.map((k) => ({ typeName: k.typeName })),
    }),
    GetProviderSchema: async () => ({
      provider: PROVIDER_SCHEMA,
      resourceSchemas: Object.fromEntries(model.kinds.map((k) => [k.typeName, schemaMessageOf(k)])),
      dataSourceSchemas: {},
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: true, moveResourceState: true },
    }),
    ValidateProviderConfig: async (req) => {
      const config = obj(req.config, PROVIDER_TYPE);
      const url = config?.api_url;
      if (typeof url === 'string' && !/^https?:\/\/[^/\s]+/.test(url)) {
        return { diagnostics: [error('Invalid api_url: must be an http(s) URL', `"${url}" is not an http(s) URL.`, { steps: [{ attributeName: 'api_url' }] })] };
      }
      return { diagnostics: [] };
    },
    ConfigureProvider: async (req) => {
      const config = obj(req.config, PROVIDER_TYPE) ?? {};
      const apiKey = env.RESELLER_API_KEY;
      if (!apiKey) {
        return {
          diagnostics: [error(
            'Missing API key: set RESELLER_API_KEY',
            'The reseller provider reads the API key from the RESELLER_API_KEY environment variable only (never from configuration, so it is never written to state or plan files).',
          )],
        };
      }
      const problem = model.configure({
        apiKey,
        apiUrl: (config.api_url as string | null) ?? env.RESELLER_API_URL ?? undefined,
        resellerId: (config.reseller_id as string | null) ?? env.RESELLER_ID ?? undefined,
      });
      logger.log('debug', 'provider configured', { terraform_version: req.terraformVersion });
      return { diagnostics: problem ? [error('Cannot configure the reseller provider', problem)] : [] };
    },
    ValidateResourceConfig: (req) => withKind(req.typeName, async (kind, type) => ({
      diagnostics: validateConfig(kind, obj(req.config, type) ?? {}, Boolean(req.clientCapabilities?.writeOnlyAttributesAllowed)),
    })),
    UpgradeResourceState: (req) => withKind(req.typeName, async (kind, type) => {
      // Version 0 is the only schema version so far: keep the known attributes, drop the rest.
      const raw = req.rawState?.json?.length ? JSON.parse(req.rawState.json.toString('utf8')) : {};
      return { upgradedState: encodeDynamic(decodeDynamicJson(raw, type), type), diagnostics: [] };
    }),
    ReadResource: (req) => withKind(req.typeName, async (kind, type) => {
      const moved = isMoved(req.private); // the first refresh after a moved block (move-state.ts)
      const { value, diagnostics } = await (moved ? readMovedState : readState)(kind, obj(req.currentState, type));
      return { newState: encodeDynamic(value, type), diagnostics, private: moved ? Buffer.alloc(0) : req.private };
    }),
    PlanResourceChange: (req) => withKind(req.typeName, async (kind, type) => {
      const { value, diagnostics } = planChange(kind, obj(req.priorState, type), obj(req.proposedNewState, type), obj(req.config, type));
      return {
        plannedState: encodeDynamic(value.planned, type),
        requiresReplace: value.requiresReplace.map((a) => ({ steps: [{ attributeName: a }] })),
        plannedPrivate: req.priorPrivate,
        diagnostics,
      };
    }),
    ApplyResourceChange: (req) => withKind(req.typeName, async (kind, type) => {
      const { value, diagnostics } = await applyChange(kind, obj(req.priorState, type), obj(req.plannedState, type), obj(req.config, type), runtime);
      return { newState: encodeDynamic(value, type), diagnostics };
    }),
    ImportResourceState: (req) => withKind(req.typeName, async (kind, type) => {
      const { value, diagnostics } = await importState(kind, req.id);
      return { importedResources: value ? [{ typeName: kind.typeName, state: encodeDynamic(value, type) }] : [], diagnostics };
    }),
    MoveResourceState: (req) => withKind(req.targetTypeName, (kind, type) => moveResourceState(kind, type, req)),
    ValidateDataResourceConfig: async () => unsupported('Data sources'),
    ReadDataSource: async () => unsupported('Data sources'),
    ValidateEphemeralResourceConfig: async () => unsupported('Ephemeral resources'),
    OpenEphemeralResource: async () => unsupported('Ephemeral resources'),
    RenewEphemeralResource: async () => unsupported('Ephemeral resources'),
    CloseEphemeralResource: async () => unsupported('Ephemeral resources'),
    GetFunctions: async () => ({ functions: {}, diagnostics: [] }),
    CallFunction: async () => ({ error: { text: 'the reseller provider has no functions' } }),
    StopProvider: async () => {
      logger.log('info', 'stop requested by Terraform');
      model.stop();
      return {};
    },
  };
}

/** A JSON state (UpgradeResourceState) read with the same rules as a msgpack one. */
function decodeDynamicJson(raw: unknown, type: TfType): TfObject | null {
  return decodeDynamic({ json: Buffer.from(JSON.stringify(raw)) }, type) as TfObject | null;
}
