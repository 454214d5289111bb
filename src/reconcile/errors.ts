/**
 * An error reported as is: it already names the object (path) and what to do. `field`:
 * the spec field (camelCase) it is about, when it is about one, for an adapter to point
 * at (the provider's diagnostics name the attribute).
 */
export class ReconcileError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
    this.name = 'ReconcileError';
  }
}

/**
 * The caller was asked to stop (Terraform's StopProvider, after a Ctrl-C): a wait ended
 * at once instead of running to its deadline. What was written stays written.
 */
export class StoppedError extends ReconcileError {
  constructor(message = 'stopped: Terraform asked the provider to stop') {
    super(message);
    this.name = 'StoppedError';
  }
}

/**
 * A declared reference (package type, control-panel user) the account does not have.
 * `problem` is the field and the rule alone (what drift reports); the message adds the
 * path and what to do.
 */
export class UnknownReference extends ReconcileError {
  constructor(message: string, readonly problem: string, field?: string) {
    super(message, field);
    this.name = 'UnknownReference';
  }
}
