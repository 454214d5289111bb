import type { ApiContext } from './request';

/**
 * Base of the API nouns (the model: stripe-node's `StripeResource` and its resource
 * classes). Each noun's operations are methods of its class, and the client exposes
 * one instance per noun as a property (`client.packages.list()`); nothing repeats them.
 *
 * The context (which holds the transport, and so the API key) is a private field: an
 * instance shows nothing of it to `util.inspect` or `JSON.stringify`.
 */
export abstract class Resource {
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
  }

  /** The transport and reseller path every operation of the noun goes through. */
  protected get ctx(): ApiContext {
    return this.#ctx;
  }

  toJSON(): Record<string, never> {
    return {};
  }
}
