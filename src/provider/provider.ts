import type { DataSourceModel } from './data-sources';
import type { EphemeralModel } from './ephemeral';
import { providerLevelHandlers } from './provider-handlers';
import type { ProviderSettings } from './provider-config';
import { resourceLevelHandlers } from './resource-handlers';
import type { ResourceKind } from './resources/kind';
import type { Logger } from './transport/log';
import type { ProviderServer } from './wire/rpc';
import { providerVersion } from './version';

export type { ProviderSettings } from './provider-config';

/** What the RPC layer drives: resource kinds, and how to connect them to the account. */
export interface ProviderModel {
  readonly kinds: readonly ResourceKind[];
  /** The data sources and the context they read through (the resources' shared list cache). */
  readonly dataSources?: DataSourceModel;
  /** The ephemeral resources (Terraform >= 1.10) and the context they read through. */
  readonly ephemeralResources?: EphemeralModel;
  /** Connects the kinds' operations to the account; an error message when it cannot. */
  configure(settings: ProviderSettings): string | undefined;
  /** Terraform asked to stop (Ctrl-C): long waits give up at their next check. */
  stop(): void;
}

/** What the provider-level handlers learn that the resource-level ones act on. */
export interface ProviderSession {
  readonly version: string;
  /** Attributes of the provider block known only after apply (set while planning); empty once known. */
  unknownConfiguration: readonly string[];
}

/** The tfplugin6.Provider RPCs over a ProviderModel: the provider-level ones and the resource-level ones. */
export function providerHandlers(model: ProviderModel, logger: Logger, env: NodeJS.ProcessEnv): ProviderServer {
  const session: ProviderSession = { version: providerVersion(env), unknownConfiguration: [] };
  return { ...providerLevelHandlers(model, session, logger, env), ...resourceLevelHandlers(model, session, logger) };
}
