import { error, messageOf } from '../diagnostics';
import { argumentDiagnostics, dataSchemaMessageOf, decodeArguments, notFoundDiagnostic } from '../data-sources/handlers';
import { objectTypeOfData } from '../data-sources/data-source';
import type { ReconcileContext } from '../../reconcile';
import type { Schema } from '../wire/rpc';
import { containsUnknown, encodeDynamic, TfObject, UNKNOWN } from '../wire/values';
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
      const type = types.get(resource.typeName)!;
      const config = decode(req.config, type);
      const result: TfObject = {};
      for (const a of resource.attributes) result[a.name] = config[a.name] ?? null;
      // Terraform opens only wholly known configurations; should one arrive unknown, so is every result.
      if (resource.attributes.some((a) => a.mode !== 'computed' && containsUnknown(config[a.name]))) {
        for (const a of resource.attributes) if (a.mode === 'computed') result[a.name] = UNKNOWN;
        return { result: encodeDynamic(result, type), diagnostics: [] };
      }
      const problems = validate(resource, config);
      if (problems.length) return { diagnostics: problems };
      try {
        const read = await resource.open(config, model!.context);
        if ('notFound' in read) return { diagnostics: [notFoundDiagnostic(resource, read.notFound)] };
        for (const a of resource.attributes) if (a.mode === 'computed' || a.mode === 'lookup') result[a.name] = read.values[a.name] ?? result[a.name] ?? null;
        return { result: encodeDynamic(result, type), diagnostics: [] };
      } catch (err) {
        return { diagnostics: [error(`${resource.typeName}: cannot read the account`, messageOf(err))] };
      }
    },
    // Nothing is leased: Open never asks for a renewal, and Close has nothing to release.
    RenewEphemeralResource: async (req: { typeName: string; private?: Buffer }) => (resources.has(req.typeName) ? { diagnostics: [] } : unknownType(req.typeName)),
    CloseEphemeralResource: async (req: { typeName: string; private?: Buffer }) => (resources.has(req.typeName) ? { diagnostics: [] } : unknownType(req.typeName)),
  };
}
