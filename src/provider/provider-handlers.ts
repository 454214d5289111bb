import { dataSourceHandlers } from './data-sources';
import { error, warning } from './diagnostics';
import { ephemeralHandlers } from './ephemeral';
import { PROVIDER_SCHEMA, PROVIDER_TYPE, resolveProviderSettings, validateProviderConfig } from './provider-config';
import type { ProviderModel, ProviderSession } from './provider';
import { schemaMessageOf } from './resources/schema';
import type { Logger } from './transport/log';
import type { RpcName } from './wire/messages';
import { checkedHandlers, ProviderServer } from './wire/rpc';
import { decodeDynamic, TfObject } from './wire/values';
import { terraformVersionProblem, userAgentOf } from './version';

/** The RPCs about the provider as a whole: metadata, schema, its own block, stopping, and what it does not offer. */
type ProviderLevel = Pick<ProviderServer, Exclude<RpcName, ResourceLevelRpc>>;
/** The RPCs about one resource type (resource-handlers.ts). */
export type ResourceLevelRpc =
  | 'ValidateResourceConfig' | 'UpgradeResourceState' | 'ReadResource' | 'PlanResourceChange'
  | 'ApplyResourceChange' | 'ImportResourceState' | 'MoveResourceState';

// getProviderSchemaOptional: Terraform need not ask each plugin start for the schema it already has (one RPC less per start).
// planDestroy: a plan that removes a resource asks the provider too, which says what a removal does not do (a warning): settings that go back to the platform's defaults, a kind whose delete only forgets.
const CAPABILITIES = { planDestroy: true, getProviderSchemaOptional: true, moveResourceState: true };

export function providerLevelHandlers(model: ProviderModel, session: ProviderSession, logger: Logger, env: NodeJS.ProcessEnv): ProviderLevel {
  const config = (value: Parameters<typeof decodeDynamic>[0]) => decodeDynamic(value, PROVIDER_TYPE) as TfObject | null;
  let announced = false;
  const data = dataSourceHandlers(model.dataSources);
  const ephemeral = ephemeralHandlers(model.ephemeralResources);
  return checkedHandlers({
    GetMetadata: async () => ({
      serverCapabilities: CAPABILITIES,
      resources: model.kinds.map((k) => ({ typeName: k.typeName })),
      dataSources: data.metadata(),
      ephemeralResources: ephemeral.metadata(),
    }),
    GetProviderSchema: async () => ({
      provider: PROVIDER_SCHEMA,
      resourceSchemas: Object.fromEntries(model.kinds.map((k) => [k.typeName, schemaMessageOf(k)])),
      dataSourceSchemas: data.schemas(),
      ephemeralResourceSchemas: ephemeral.schemas(),
      serverCapabilities: CAPABILITIES,
    }),
    ValidateProviderConfig: async (req) => ({ diagnostics: validateProviderConfig(config(req.config)) }),
    ConfigureProvider: async (req) => {
      if (!announced) {
        announced = true;
        logger.log('info', `reseller provider ${session.version}`, { version: session.version, terraform_version: req.terraformVersion, node_version: process.versions.node });
      }
      const tooOld = terraformVersionProblem(req.terraformVersion);
      if (tooOld) return { diagnostics: [error(tooOld)] };
      const resolved = resolveProviderSettings(config(req.config), env);
      if ('diagnostics' in resolved) return { diagnostics: resolved.diagnostics };
      if ('unknown' in resolved) {
        // Planning before the values exist: creates plan without the account; reads keep the last state (resource-handlers.ts).
        session.unknownConfiguration = resolved.unknown;
        logger.log('debug', 'provider configuration known only after apply', { attributes: resolved.unknown });
        return { diagnostics: [] };
      }
      session.unknownConfiguration = [];
      const problem = model.configure({
        ...resolved.settings,
        userAgent: userAgentOf(session.version, req.terraformVersion),
        logRequest: (attempt) => logger.log('debug', `API ${attempt.method} ${attempt.path} -> ${attempt.status}`, { ...attempt }),
      });
      logger.log('debug', 'provider configured', { terraform_version: req.terraformVersion });
      return { diagnostics: [...resolved.warnings, ...(problem ? [error('Cannot configure the reseller provider', problem)] : [])] };
    },
    ValidateDataResourceConfig: data.ValidateDataResourceConfig,
    // The account cannot be read before the provider block is known: say so rather than read the wrong account.
    ReadDataSource: async (req) => (session.unknownConfiguration.length ? { diagnostics: [unreadable(session, req.typeName)] } : data.ReadDataSource(req)),
    ValidateEphemeralResourceConfig: ephemeral.ValidateEphemeralResourceConfig,
    // As for a data source: the account cannot be read before the provider block is known.
    OpenEphemeralResource: async (req) => (session.unknownConfiguration.length ? { diagnostics: [unreadable(session, req.typeName)] } : ephemeral.OpenEphemeralResource(req)),
    RenewEphemeralResource: ephemeral.RenewEphemeralResource,
    CloseEphemeralResource: ephemeral.CloseEphemeralResource,
    GetFunctions: async () => ({ functions: {}, diagnostics: [] }),
    CallFunction: async () => ({ error: { text: 'the reseller provider has no functions' } }),
    StopProvider: async () => {
      logger.log('info', 'stop requested by Terraform');
      model.stop();
      return {};
    },
  });
}

/** A warning for a read skipped because the provider block is known only after apply. */
export function notRefreshed(session: ProviderSession, address: string) {
  return warning(
    `${address} not refreshed: the provider configuration is known only after apply`,
    `The provider's ${session.unknownConfiguration.join(', ')} comes from a resource not applied yet, so the account cannot be read while planning: ` +
      'this plan compares the configuration with the last known state. Apply, then plan again to see changes made outside Terraform.',
  );
}

/** A data source read while the provider block is known only after apply. */
function unreadable(session: ProviderSession, typeName: string) {
  return error(
    `${typeName} cannot be read: the provider configuration is known only after apply`,
    `The provider's ${session.unknownConfiguration.join(', ')} comes from a resource not applied yet, so the account cannot be read while planning. ` +
      'Give the provider block known values, or apply the resource it depends on first (terraform apply -target=...), then plan again.',
  );
}
