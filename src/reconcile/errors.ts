/** An error reported as is: it already names the object (path) and what to do. */
export class ReconcileError extends Error {
  constructor(message: string) {
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
  /** `field`: the spec field (camelCase) that holds the reference, for an adapter to point at. */
  constructor(message: string, readonly problem: string, readonly field?: string) {
    super(message);
    this.name = 'UnknownReference';
  }
}
