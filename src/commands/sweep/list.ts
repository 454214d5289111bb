import type { ResellerClient } from '../../client';
import { definitionOf, DEFINITIONS } from '../../protocol';
import type { Identity, Kind } from '../../protocol';
import { createContext, list, sweepNames } from '../../reconcile';
import type { Observed } from '../../reconcile';

/**
 * What `sweep` can see in the account: every object of every kind, as the core lists it
 * (reconcile `list`: the package list read once, one mail read per domain, one zone read
 * per package), with the names the kind's reconciler says a test's prefix must mark.
 * Nothing here knows a kind: a new kind is swept once the core can list it.
 */
export interface SweepCandidate {
  readonly kind: Kind;
  /** The name shown to the user: a domain, an address, a host name, `owner TYPE value`. */
  readonly name: string;
  /**
   * Every name that must carry the prefix for the object to be swept: a package's
   * domain names (deleting a package deletes the mail of all of them), else its name.
   */
  readonly names: readonly string[];
  /** How the core (reconcile `remove`) finds the object. */
  readonly identity: Identity;
  /**
   * The natural key of the object that holds it (a mail object's or DNS record's
   * package), when deleting that one deletes this one too: when the holder is swept,
   * this object goes with it and is not deleted on its own.
   */
  readonly package?: string;
}

/** The key of the object whose delete takes `o` with it (its parent, when the parent kind's delete takes its children). */
function holderOf(o: Observed): string | undefined {
  const parent = definitionOf(o.kind).parent;
  if (!parent || !o.identity.placement) return undefined;
  const lifecycle = definitionOf(parent.kind as Kind).lifecycle;
  return lifecycle?.deletes && !lifecycle.cannotDelete ? o.identity.placement : undefined;
}

function candidateOf(o: Observed): SweepCandidate {
  const { shown, names } = sweepNames(o);
  const holder = holderOf(o);
  return { kind: o.kind, name: shown, names, identity: o.identity, ...(holder ? { package: holder } : {}) };
}

export async function listSweepCandidates(client: ResellerClient): Promise<SweepCandidate[]> {
  // One context for every kind: its list cache reads the package list once for all of them.
  const ctx = createContext({ client });
  const listed = await Promise.all(DEFINITIONS.map((def) => list(ctx, def.kind)));
  return listed.flat().map(candidateOf);
}
