import { error } from '../diagnostics';
import { argumentDiagnostics, dataSchemaMessageOf, decodeArguments, readEntry } from '../data-sources/handlers';
import { objectTypeOfData } from '../data-sources/data-source';
import type { ReconcileContext } from '../../reconcile';
import type { Schema } from '../wire/rpc';
import type { EphemeralResource } from './ephemeral-resource';

/**
 * The tfplugin6 ephemeral-resource RPCs over a table of ephemeral resources
 * (provider-handlers.ts registers them): metadata, schemas,
 * ValidateEphemeralResourceConfig, OpenEphemeralResource, RenewEphemeralResource and
 * CloseEphemeralResource. Nothing here knows a particular ephemeral resource. No
 * value is logged, cached or kept: Open reads, answers, and forgets; nothing is leased,
 * so no renewal is ever asked for (no `renew_at`) and Close has nothing to release.
 */

export interface EphemeralModel {
  readonly resources: readonly EphemeralResource[];
  /** The provider's shared reconcile context (throws before ConfigureProvider). */
  readonly context: () => ReconcileContext;
}

/** The `Schema` message of an ephemeral resource: a data source's, its secrets sensitive. */
export const ephemeralSchemaMessageOf = (resource: EphemeralResource): Schema => dataSchemaMessageOf(resource);

export function ephemeralHandlers(model: EphemeralModel | undefined) {
  const resources = new Map((model?.resources ?? []).map((r) => [r.typeName, r]));
  const types = new Map([...resources.values()].map((r) => [r.typeName, objectTypeOfData(r)]));
  const unknownType = (typeName: string) => ({
    diagnostics: [error(`Unknown ephemeral resource ${typeName}`, `The reseller provider offers: ${[...resources.keys()].join(', ') || 'none'}.`)],
  });
  const decode = decodeArguments;
  const validate = argumentDiagnostics;

  return {
    metadata: () => [...resources.keys()].map((typeName) => ({ typeName })),
    schemas: () => Object.fromEntries([...resources.values()].map((r) => [r.typeName, ephemeralSchemaMessageOf(r)])),
    ValidateEphemeralResourceConfig: async (req: { typeName: string; config?: unknown }) => {
      const resource = resources.get(req.typeName);
      if (!resource) return unknownType(req.typeName);
      return { diagnostics: validate(resource, decode(req.config, types.get(resource.typeName)!)) };
    },
    OpenEphemeralResource: async (req: { typeName: string; config?: unknown }) => {
      const resource = resources.get(req.typeName);
      if (!resource) return unknownType(req.typeName);
      const { value, diagnostics } = await readEntry(resource, req.config, types.get(resource.typeName)!, (config) => resource.open(config, model!.context));
      return value ? { result: value, diagnostics } : { diagnostics };
    },
    // Nothing is leased: Open never asks for a renewal, and Close has nothing to release.
    RenewEphemeralResource: async (req: { typeName: string; private?: Buffer }) => (resources.has(req.typeName) ? { diagnostics: [] } : unknownType(req.typeName)),
    CloseEphemeralResource: async (req: { typeName: string; private?: Buffer }) => (resources.has(req.typeName) ? { diagnostics: [] } : unknownType(req.typeName)),
  };
}
