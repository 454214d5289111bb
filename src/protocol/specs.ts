import { definitionOf, Identity, Kind, ObjectSpec } from './kinds';

/** The identity (object replace-triggers, without the parent id) of a spec. */
export function identityOf(spec: ObjectSpec, parent = ''): Identity {
  return definitionOf(spec.kind).identity(spec as never, parent);
}

/**
 * The mutable fields of a spec: what the settings resource's replace-triggers hold
 * (one trigger per field, each value a string: JSON for non-strings) and what
 * `handler update` reconciles. Identity and create-only fields are not here.
 */
export function settingsOf(spec: ObjectSpec): Record<string, string> {
  return definitionOf(spec.kind).settings(spec as never);
}

export function kindLabel(kind: Kind): string {
  return definitionOf(kind).label;
}

/** Human name of an object for one-line messages: `mailbox info@example.com`. */
export function describeObject(id: Pick<Identity, 'kind' | 'key'>): string {
  return `${kindLabel(id.kind)} ${id.key}`;
}
