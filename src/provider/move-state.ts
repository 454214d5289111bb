import { Diagnostic, error } from './diagnostics';
import type { ResourceKind } from './resources/kind';
import { importState, Result } from './resources/resource';
import { nullObject } from './resources/values';
import type { RpcResponse } from './wire/rpc';
import { encodeDynamic, TfObject, TfType } from './wire/values';

/**
 * MoveResourceState: `moved { from = terraform_data.shop  to = reseller_package.shop }`
 * turns a carrier of a stack synthesized with the provisioner engines into the provider's
 * resource, with nothing deleted or created. The carrier's replace-triggers hold the
 * object's identity (kind, natural key, placement; see protocol/kinds/identity.ts), from
 * which the moved state gets its id (the natural key) and, through the kind definition's
 * `formatImportId`, the import id of the object. Terraform calls this before the provider
 * is configured, so nothing is read here: the state is marked (private data, with the
 * import id) and the refresh that follows reads the object as an import does
 * (readMovedState): every readable attribute from the account, what cannot be read back
 * null for the configuration to decide. The plan then compares it with the configuration
 * like any other (so a move is planned with a refresh, Terraform's default).
 */

/**
 * Private data of a moved state, until its first refresh: the marker, then the import id
 * the refresh reads the object by (a line of its own). A state moved by a version that
 * wrote the bare marker is read by its `id`.
 */
const MOVED_MARKER = 'reseller:moved-from-carrier';

export function isMoved(priv: unknown): boolean {
  return Buffer.isBuffer(priv) && priv.toString('utf8').split('\n')[0] === MOVED_MARKER;
}

function movedPrivate(importId: string): Buffer {
  return Buffer.from(`${MOVED_MARKER}\n${importId}`);
}

/** The first refresh of a moved state: the object read as an import reads it, by its natural key. */
export async function readMovedState(kind: ResourceKind, state: TfObject | null, priv: unknown): Promise<Result<TfObject | null>> {
  if (!state || typeof state.id !== 'string') return { value: state, diagnostics: [] };
  const importId = Buffer.isBuffer(priv) ? priv.toString('utf8').split('\n')[1] : undefined;
  return importState(kind, importId || state.id);
}

/** The carriers a state can move from: Terraform's built-in `terraform_data`, and `null_resource`. */
const SOURCES: Record<string, { provider: RegExp; triggers: string }> = {
  terraform_data: { provider: /(^|\/)terraform\.io\/builtin\/terraform$/, triggers: 'triggers_replace' },
  null_resource: { provider: /(^|\/)hashicorp\/null$/, triggers: 'triggers' },
};

export interface MoveRequest {
  readonly sourceProviderAddress?: string;
  readonly sourceTypeName?: string;
  readonly sourceState?: { readonly json?: Buffer };
}

export async function moveResourceState(kind: ResourceKind, type: TfType, req: MoveRequest): Promise<RpcResponse<'MoveResourceState'>> {
  const fail = (summary: string, detail: string): { diagnostics: Diagnostic[] } => ({ diagnostics: [error(summary, detail)] });
  const source = SOURCES[req.sourceTypeName ?? ''];
  const from = `${req.sourceTypeName ?? '?'} (${req.sourceProviderAddress ?? '?'})`;
  if (!source || !source.provider.test(req.sourceProviderAddress ?? '')) {
    return fail(
      `Cannot move ${from} to ${kind.typeName}`,
      'The reseller provider moves only the carriers of its provisioner engines: terraform_data (terraform.io/builtin/terraform) and null_resource (hashicorp/null).',
    );
  }
  let triggers: Record<string, unknown> | undefined;
  try {
    const state = JSON.parse(req.sourceState?.json?.toString('utf8') ?? 'null');
    const raw = state?.[source.triggers] ?? undefined;
    // terraform_data's triggers_replace is dynamically typed: its JSON state is { value, type }.
    triggers = raw && typeof raw === 'object' && 'value' in raw && 'type' in raw ? raw.value : raw;
  } catch {
    triggers = undefined;
  }
  const wanted = kind.kindName;
  if (!triggers || typeof triggers.key !== 'string' || !triggers.key) {
    return fail(
      `Cannot move ${from} to ${kind.typeName}: it is not an object carrier`,
      `Its ${source.triggers} do not hold an object identity (kind, key). Move the object resource (e.g. terraform_data.shop), not its _settings resource; remove the settings resources with removed blocks (lifecycle { destroy = false }).`,
    );
  }
  if (triggers.kind !== wanted) {
    return fail(
      `Cannot move ${from} to ${kind.typeName}: it carries a ${String(triggers.kind)}`,
      `The moved block's target must be the resource type of a ${String(triggers.kind)}, not ${kind.typeName}.`,
    );
  }
  const placement = typeof triggers.placement === 'string' ? triggers.placement : '';
  return { targetState: encodeDynamic(keyState(kind, triggers.key), type), targetPrivate: movedPrivate(kind.importIdOf(triggers.key, placement)), diagnostics: [] };
}

/**
 * A state with only the natural key (`id`): the refresh that follows reads everything else
 * from the account, by the import id the private data holds (readMovedState).
 */
function keyState(kind: ResourceKind, key: string): TfObject {
  const state = nullObject(kind);
  state.id = key;
  return state;
}
