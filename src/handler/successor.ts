import { definitionOf, Identity, identityOf, ObjectSpec, parseIdentity } from '../protocol';
import { Journal } from './journal';

/**
 * A carrier's object resource is replaced (destroyed, then created) when its identity
 * changes, and its destroy-time `delete` runs before the `ensure` of the new identity.
 * For a kind the API replaces in one write (a DNS record: one zone POST adds the new
 * record and deletes the old), that order would leave the account with neither in
 * between. So the destroy provisioner is told the identity its construct declares now
 * (RESELLER_SUCCESSOR, a literal of the configuration); when it differs, `delete` notes
 * the old identity here, under the new one, and deletes nothing, and the `ensure` of
 * the new identity replaces the old in one write, then removes the note. The note
 * outlives a failed `ensure` (retried in the next hour); lost, the old object stays in
 * the account, never a wrong delete.
 */
const SUCCESSOR_TTL_MS = 60 * 60_000;

const entryName = (id: Pick<Identity, 'kind' | 'key' | 'placement'>) => `replaced-by:${id.kind}:${id.placement}:${id.key}`;

/**
 * `delete` of `identity` with RESELLER_SUCCESSOR: the new identity when the object is
 * replaced in one write by the `ensure` that follows (noted), else undefined (delete it).
 */
export function deferToSuccessor(journal: Journal, identity: Identity, successorJson: string | undefined): Identity | undefined {
  if (!successorJson || !definitionOf(identity.kind).lifecycle?.replacesInOneWrite) return undefined;
  const successor = parseIdentity(successorJson);
  if (successor.kind !== identity.kind || (successor.key === identity.key && successor.placement === identity.placement)) return undefined;
  journal.write(entryName(successor), { kind: identity.kind, key: identity.key, placement: identity.placement, parent: '' } satisfies Identity);
  return successor;
}

/**
 * The identity that the `ensure` of `spec` replaces in one write, if a `delete` left it
 * so (with its note's name, to forget it). Other kinds never have one: no journal read.
 */
export function replacedIdentity(journal: Journal, spec: ObjectSpec): { replacing: Identity; note: string } | undefined {
  if (!definitionOf(spec.kind).lifecycle?.replacesInOneWrite) return undefined;
  const note = entryName(identityOf(spec));
  const replacing = journal.read<Identity>(note, SUCCESSOR_TTL_MS) ?? undefined;
  return replacing && { replacing, note };
}

/** Called when that `ensure` succeeded. */
export function forgetReplaced(journal: Journal, note: string): void {
  journal.remove(note);
}
