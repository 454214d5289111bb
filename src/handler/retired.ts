import { secretFacets } from '../protocol';
import { HandlerError } from './errors';
import { Journal } from './journal';

/**
 * The settings resource is replaced (destroyed, then created) whenever a mutable field
 * or the secret's version (a mailbox's password version) changes, and its create-time `ensure` cannot see what the
 * old triggers were. Its destroy-time provisioner (`retire-settings`, which sees the
 * old triggers in `self`) notes them here for the `ensure` that follows in the same
 * apply, keyed by the object's Terraform id:
 * - no note: the object's first `ensure` (or a retry after a failed one; Terraform
 *   does not run destroy provisioners of a tainted resource): set the declared
 *   password, order a missing cloud server;
 * - a note: a settings change of an object that exists already. The password is set
 *   only when its version changed (not when the old settings had no version: no
 *   password was declared, or the stack was synthesized by 0.1), and a missing cloud
 *   server is reported, not ordered again (charged) behind a plan that said "update".
 * The note is removed only when `ensure` succeeds, so a failed `ensure` that is run
 * again in this hour still knows. Losing the note (another machine, a cleared temp
 * directory) means "first ensure": the declared password is set again.
 */
const RETIRED_TTL_MS = 60 * 60_000;

export interface RetiredSettings {
  /** The secret version of the outgoing settings (an object whose kind has a secret, and declares one). */
  readonly secretVersion?: number;
}

/** `handler retire-settings`: notes the outgoing settings triggers (RESELLER_SPEC, from `self`). */
export function retireSettings(journal: Journal, triggersJson: string | undefined): void {
  let triggers: unknown;
  try {
    triggers = JSON.parse(triggersJson ?? '');
  } catch {
    throw new HandlerError('retire-settings: RESELLER_SPEC is not the JSON of the settings triggers');
  }
  const t = (triggers ?? {}) as Record<string, unknown>;
  if (typeof t.object !== 'string' || t.object === '') {
    throw new HandlerError('retire-settings: the settings triggers name no object id');
  }
  // The settings triggers do not name their kind: the version is the trigger of any kind's secret facet.
  const field = secretFacets().map((s) => s.versionField).find((f) => f in t);
  const version = field === undefined ? NaN : Number(t[field]);
  const note: RetiredSettings = Number.isInteger(version) && version > 0 ? { secretVersion: version } : {};
  journal.write(entryName(t.object), note);
}

/** The note of the settings this `ensure` of object `objectId` replaces, if any (see above). */
export function retiredSettings(journal: Journal, objectId: string): RetiredSettings | undefined {
  return journal.read<RetiredSettings>(entryName(objectId), RETIRED_TTL_MS) ?? undefined; // (a null entry: written as "cleared" by earlier versions)
}

/** Called when `ensure` succeeded: the note has been acted on. */
export function forgetRetired(journal: Journal, objectId: string): void {
  journal.remove(entryName(objectId));
}

// The object id is a fresh UUID per object instance: it cannot name another object.
const entryName = (objectId: string) => `retired-settings:${objectId}`;
