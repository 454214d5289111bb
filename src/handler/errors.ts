/** An error the handler reports as is: it already names the object and what to do. */
export class HandlerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandlerError';
  }
}
