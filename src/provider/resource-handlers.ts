import { Diagnostic, error, hasErrors } from './diagnostics';
import { isMoved, moveResourceState, readMovedState } from './move-state';
import type { ProviderModel, ProviderSession } from './provider';
import { notRefreshed, ResourceLevelRpc } from './provider-handlers';
import type { ResourceKind } from './resources/kind';
import { applyChange, checkAgainstAccount, importState, planChange, readState, ResourceRuntime, validateConfig } from './resources/resource';
import { appliedFixedValues, appliedPrivate, pendingRecord } from './resources/private-state';
import { objectTypeOf } from './resources/schema';
import type { Logger } from './transport/log';
import { checkedHandlers, DynamicValue, ProviderServer } from './wire/rpc';
import { decodeDynamic, encodeDynamic, TfObject, TfType } from './wire/values';

type ResourceLevel = Pick<ProviderServer, ResourceLevelRpc>;

/** Whether two values are the same msgpack bytes (JSON-encoded ones are not compared). */
function sameBytes(a: DynamicValue | undefined, b: DynamicValue | undefined): boolean {
  return Boolean(a?.msgpack?.length && b?.msgpack?.length && a.msgpack.equals(b.msgpack));
}

/** The raw state of a resource with no stored state: every attribute null. */
const EMPTY_OBJECT_JSON = Buffer.from('{}');

/** The RPCs about one resource type, over the generic resource layer (resources/resource.ts). */
export function resourceLevelHandlers(model: ProviderModel, session: ProviderSession, logger: Logger): ResourceLevel {
  const kinds = new Map(model.kinds.map((k) => [k.typeName, k]));
  const types = new Map(model.kinds.map((k) => [k.typeName, objectTypeOf(k)]));
  const runtime: ResourceRuntime = {
    log: (level, message, fields) => logger.log(level, message, fields),
    now: () => Date.now(),
  };

  /** Runs a resource RPC, or answers a diagnostic when the type is not ours. */
  const withKind = async <R extends { diagnostics?: readonly Diagnostic[] }>(
    typeName: string, body: (kind: ResourceKind, type: TfType) => Promise<R>,
  ): Promise<R | { diagnostics: Diagnostic[] }> => {
    const kind = kinds.get(typeName);
    if (!kind) return { diagnostics: [error(`Unknown resource type ${typeName}`, `The reseller provider offers: ${[...kinds.keys()].join(', ')}.`)] };
    logger.log('trace', 'resource call', { resource: typeName });
    return body(kind, types.get(typeName)!);
  };
  const obj = (value: DynamicValue | undefined, type: TfType) => decodeDynamic(value, type) as TfObject | null;

  return checkedHandlers({
    ValidateResourceConfig: (req) => withKind(req.typeName, async (kind, type) => ({
      diagnostics: validateConfig(kind, obj(req.config, type) ?? {}, Boolean(req.clientCapabilities?.writeOnlyAttributesAllowed)),
    })),
    UpgradeResourceState: (req) => withKind(req.typeName, async (_kind, type) => {
      // Version 0 is the only schema version so far: keep the known attributes, drop the rest.
      const json = req.rawState?.json?.length ? req.rawState.json : EMPTY_OBJECT_JSON;
      return { upgradedState: encodeDynamic(decodeDynamic({ json }, type), type), diagnostics: [] };
    }),
    ReadResource: (req) => withKind(req.typeName, async (kind, type) => {
      const current = obj(req.currentState, type);
      if (session.unknownConfiguration.length && current) {
        return { newState: req.currentState, private: req.private, diagnostics: [notRefreshed(session, `${kind.typeName} ${String(current.id)}`)] };
      }
      const moved = isMoved(req.private); // the first refresh after a moved block (move-state.ts)
      if (moved) {
        const { value, diagnostics } = await readMovedState(kind, current, req.private);
        return { newState: encodeDynamic(value, type), diagnostics, private: Buffer.alloc(0) };
      }
      // The elements still pending (a certificate being issued) stay recorded; those read back leave the record.
      const { value, diagnostics, pending } = await readState(kind, current, pendingRecord(req.private), runtime.now());
      const stillPending = Object.keys(pending).length > 0 || Object.keys(pendingRecord(req.private)).length > 0;
      return { newState: encodeDynamic(value, type), diagnostics, private: stillPending ? appliedPrivate(kind, value ?? current, pending) : req.private };
    }),
    PlanResourceChange: (req) => withKind(req.typeName, async (kind, type) => {
      const prior = obj(req.priorState, type);
      // With nothing to change, Terraform proposes the prior state itself: the same bytes, decoded once (planChange copies, never mutates them).
      const proposed = sameBytes(req.proposedNewState, req.priorState) ? prior : obj(req.proposedNewState, type);
      const { value, diagnostics } = planChange(kind, prior, proposed, obj(req.config, type), appliedFixedValues(req.priorPrivate), pendingRecord(req.priorPrivate), runtime.now());
      // With the provider block known, what the plan references of the account is there (a package type).
      const account = session.unknownConfiguration.length ? { value: value.planned, diagnostics: [] } : await checkAgainstAccount(kind, value);
      return {
        plannedState: encodeDynamic(account.value, type),
        requiresReplace: value.requiresReplace.map((a) => ({ steps: [{ attributeName: a }] })),
        plannedPrivate: req.priorPrivate,
        diagnostics: [...diagnostics, ...account.diagnostics],
      };
    }),
    ApplyResourceChange: (req) => withKind(req.typeName, async (kind, type) => {
      const { value, diagnostics, pending } = await applyChange(kind, obj(req.priorState, type), obj(req.plannedState, type), obj(req.config, type), runtime);
      // What was applied, and what it left pending, for the next plan (private-state.ts); a failed apply keeps the record it had.
      const priv = hasErrors(diagnostics) ? req.plannedPrivate : appliedPrivate(kind, value, pending);
      return { newState: encodeDynamic(value, type), private: priv, diagnostics };
    }),
    ImportResourceState: (req) => withKind(req.typeName, async (kind, type) => {
      if (session.unknownConfiguration.length) {
        return { diagnostics: [error(`Cannot import ${kind.typeName} "${req.id}" yet`, `The provider's ${session.unknownConfiguration.join(', ')} is known only after apply. Apply first, then import.`)] };
      }
      const { value, diagnostics } = await importState(kind, req.id);
      const imported = value ? [{ typeName: kind.typeName, state: encodeDynamic(value, type), private: appliedPrivate(kind, value) }] : [];
      return { importedResources: imported, diagnostics };
    }),
    MoveResourceState: (req) => withKind(req.targetTypeName, (kind, type) => moveResourceState(kind, type, req)),
  });
}
