import { ConnectionError } from '../client';
import { SpecInputError } from '../protocol';
import { ReconcileError } from '../reconcile';

/** An error of the handler's own (a command it cannot run): reported as is. */
export class HandlerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandlerError';
  }
}

/** Errors that already name the object and what to do: printed without a prefix. */
export function isSelfExplaining(err: unknown): err is Error {
  return err instanceof HandlerError || err instanceof ReconcileError || err instanceof ConnectionError || err instanceof SpecInputError;
}
