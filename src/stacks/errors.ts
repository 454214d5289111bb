/**
 * A synthesized stack that cannot be read or used as asked (not synthesized, not JSON,
 * no such stack, stacks of different accounts): the message says what to do. Commands
 * print it as one line and exit 1.
 */
export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}
