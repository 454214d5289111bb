import type { ResellerClient } from '../../client';
import type { Kind } from '../../protocol';
import { DEFINITIONS, definitionOf, isKind } from '../../protocol';
import type { Observed } from '../../reconcile';
import { createContext, declarable, list } from '../../reconcile';
import { mapConcurrent } from '../../stacks';

/**
 * What `reseller-hosting import` reads: every live object of the chosen kinds, through
 * the core's `list` (as drift reads: one request per list, one mail read per domain, one
 * zone read per package; shared between kinds), each completed by the core's
 * `declarable` with what its declaration needs and the list does not show (a cloud
 * server's brand: one read per server; the package types: one read).
 */
export interface ImportAccount {
  /** The kinds read and declared, parents first. */
  readonly kinds: readonly Kind[];
  /** Every listed object of each kind, as `declarable` gives it. */
  readonly objects: ReadonlyMap<Kind, readonly Observed[]>;
  /** How many reads the pass made (each one request, or one per page). */
  readonly reads: number;
}

/** Reads for `declarable` in flight at once (a server's brand is a read of its own). */
const DECLARABLE_READS_AT_ONCE = 4;

/** The kinds import declares without `--kinds`: those whose import facet does not say otherwise. */
export const DEFAULT_IMPORT_KINDS: readonly Kind[] = DEFINITIONS.filter((d) => d.import.byDefault !== false).map((d) => d.kind);

/**
 * The kinds to declare: `wanted` with their parents (a mailbox is declared on its
 * package, a package on its cloud server), in definition order.
 */
export function importKinds(wanted: readonly Kind[] = DEFAULT_IMPORT_KINDS): Kind[] {
  const chosen = new Set<Kind>();
  const add = (kind: Kind) => {
    if (chosen.has(kind)) return;
    chosen.add(kind);
    const parent = definitionOf(kind).parent?.kind;
    if (isKind(parent)) add(parent);
  };
  wanted.forEach(add);
  return DEFINITIONS.map((d) => d.kind).filter((k) => chosen.has(k));
}

export async function readImportAccount(client: ResellerClient, options: { readonly kinds?: readonly Kind[] } = {}): Promise<ImportAccount> {
  const kinds = importKinds(options.kinds);
  const ctx = createContext({ client, oneReadPerList: true });
  const lists = await Promise.all(kinds.map((kind) => list(ctx, kind)));
  const completed = await Promise.all(lists.map((objects) => mapConcurrent(objects, DECLARABLE_READS_AT_ONCE, (o) => declarable(ctx, o))));
  return { kinds, objects: new Map(kinds.map((kind, i) => [kind, completed[i]])), reads: ctx.lists.reads };
}
