import { checkSpec, definitionOf, Identity, isKind, ObjectSpec } from './kinds';
import { describeObject } from './specs';

/** RESELLER_SPEC (or a spec read from a synthesized stack) is not a valid spec or identity: the message says why. */
export class SpecInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecInputError';
  }
}

/**
 * Reads and checks the spec a provisioner passed (or drift read from a stack). Synth-time validation skips values
 * that were Terraform tokens then; here they are resolved, so everything is checked
 * with the kind's definition, and names are put in canonical form (a value that was a
 * Terraform variable arrives exactly as the user typed it).
 */
export function parseSpec(raw: string | undefined): ObjectSpec {
  const spec = parseJsonObject(raw) as ObjectSpec;
  if (!isKind(spec.kind)) throw new SpecInputError(`RESELLER_SPEC: unknown kind ${JSON.stringify(spec.kind)}`);
  const checked = checkSpec(spec, spec.path ?? spec.kind);
  if (checked.problems.length) {
    throw new SpecInputError(`${spec.path ?? spec.kind}: ${checked.problems.map((p) => `${p.field} ${p.rule}`).join('; ')}`);
  }
  return checked.spec;
}

/** The identity a destroy-time provisioner passes (`jsonencode(self.triggers_replace)`). */
export function parseIdentity(raw: string | undefined): Identity {
  const id = parseJsonObject(raw) as unknown as Identity;
  if (!isKind(id.kind) || typeof id.key !== 'string' || id.key === '') {
    throw new SpecInputError('RESELLER_SPEC: expected the object identity {kind, key, placement, parent}');
  }
  const def = definitionOf(id.kind);
  const given: Identity = { kind: id.kind, key: id.key, placement: String(id.placement ?? ''), parent: String(id.parent ?? '') };
  let identity: Identity;
  try {
    identity = def.canonicalIdentity(given);
  } catch (err) {
    throw new SpecInputError(`RESELLER_SPEC: ${(err as Error).message}`);
  }
  // A name that does not survive canonicalisation must never address another object.
  const problems = def.checkIdentity(given);
  if (problems.length) throw new SpecInputError(`RESELLER_SPEC: ${describeObject({ kind: id.kind, key: id.key })}: ${problems.join('; ')}`);
  return identity;
}

function parseJsonObject(raw: string | undefined): Record<string, unknown> {
  if (!raw) throw new SpecInputError('RESELLER_SPEC is not set: this command is run by the provisioners that cdktf-reseller-hosting synthesizes');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new SpecInputError('RESELLER_SPEC is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new SpecInputError('RESELLER_SPEC must be a JSON object');
  return value as Record<string, unknown>;
}
