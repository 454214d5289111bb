import type { ReconcileContext } from '../../reconcile';
import type { ArgumentProblem, DataAttribute, ReadResult } from '../data-sources/data-source';
import type { TfValue } from '../wire/values';

/**
 * What the generic ephemeral-resource layer (handlers.ts) needs from one ephemeral
 * resource: a secret, or facts that go with one, that Terraform (>= 1.10) reads at plan
 * and apply time and never stores in state or plan (`ephemeral "reseller_…"` blocks).
 * Each is a small table entry (ftp-credentials.ts, mysql-connection.ts), like the data
 * sources: its attributes and an `open` over the provider's shared reconcile context.
 * Nothing here expires, so there is nothing to renew or close.
 */

/** An attribute of an ephemeral resource: a data source's kind of attribute, often sensitive (a password). */
export type EphemeralAttribute = DataAttribute;

export interface EphemeralResource {
  readonly typeName: string;
  readonly description: string;
  readonly attributes: readonly EphemeralAttribute[];
  /** Problems of the arguments that are known (unknown and null ones are absent). */
  check?(args: Readonly<Record<string, TfValue>>): ArgumentProblem[];
  /**
   * The values of every computed attribute for the given arguments, read now from the
   * account (never from a cache that outlives the call when the value is a secret).
   * A look-up that finds nothing gives `notFound` (the closest names are suggested).
   */
  open(args: Readonly<Record<string, TfValue>>, ctx: () => ReconcileContext): Promise<ReadResult>;
}

export const sensitive = (attribute: DataAttribute): EphemeralAttribute => ({ ...attribute, sensitive: true });
