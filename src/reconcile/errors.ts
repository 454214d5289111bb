/** An error reported as is: it already names the object (path) and what to do. */
export class ReconcileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReconcileError';
  }
}
