import type { ObjectSpec } from '../protocol';
import { secretVersionOf } from '../protocol';
import type { ReconcileContext } from './context';

/**
 * Whether `ensure` writes the declared secret (the kind's secret facet: a mailbox's or a
 * database's password) of an object that exists. A secret cannot be read back, and the
 * customer may have changed it in the control panel, so it is written when the object is
 * first ensured (adopting it) and when its version changed, not on other settings
 * changes (the context's history says which this is). A history whose replaced settings
 * had no version had no secret declared (or comes from a stack synthesized by 0.1): the
 * object's secret is kept then, and the user is told how to set it. Without history
 * (drift --fix) the object keeps its secret.
 */
export type SecretDue = 'yes' | 'no' | 'undeclared-before';

export function secretDue(ctx: ReconcileContext, spec: ObjectSpec): SecretDue {
  if (!ctx.history) return 'no';
  const replaced = ctx.history.replaced;
  if (!replaced) return 'yes';
  if (replaced.secretVersion === undefined) return 'undeclared-before';
  return replaced.secretVersion !== secretVersionOf(spec) ? 'yes' : 'no';
}
