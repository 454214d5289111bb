/** An error reported as is: it already names the object (path) and what to do. */
export class ReconcileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReconcileError';
  }
}

/**
 * A declared reference (package type, control-panel user) the account does not have.
 * `problem` is the field and the rule alone (what drift reports); the message adds the
 * path and what to do.
 */
export class UnknownReference extends ReconcileError {
  constructor(message: string, readonly problem: string) {
    super(message);
    this.name = 'UnknownReference';
  }
}
