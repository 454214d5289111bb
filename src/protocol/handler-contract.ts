/**
 * The contract between the synthesized provisioners and `reseller-hosting handler`.
 * Provisioners run `node <relative path>/bin/reseller-hosting.js handler <command>`
 * (interpreter + command, no shell), or, in a stack synthesized with
 * `providerPlatforms`, the installed provider executable's `handler <command>` (found
 * by a /bin/sh line: constructs/private/engines/provider-placement.ts), with these
 * environment variables:
 * - `ensure` (settings resource, create): create, adopt or update the object;
 * - `retire-settings` (settings resource of a mailbox with a password or of a cloud
 *   server, destroy): note the outgoing settings for the `ensure` that follows;
 * - `delete` (object resource, destroy): delete the object, found by its identity (or,
 *   replaced in one write, leave it to the `ensure` that follows: RESELLER_SUCCESSOR);
 * - an object's secret (a mailbox password) comes in the variable its kind's secret facet
 *   names (`environment`, e.g. RESELLER_MAILBOX_PASSWORD), or the one its spec names;
 * - `update`, `set-password`: what stacks synthesized by 0.1 ran from their separate
 *   settings and password resources; still served, each reconciling for real.
 */
export const HANDLER_COMMANDS = ['ensure', 'retire-settings', 'delete', 'update', 'set-password'] as const;
export type HandlerCommand = (typeof HANDLER_COMMANDS)[number];

export const ENV = {
  /**
   * ensure/update/set-password: JSON ObjectSpec. delete: JSON Identity, and
   * retire-settings: the settings triggers (both from `self`).
   */
  spec: 'RESELLER_SPEC',
  /**
   * delete, for a kind the API replaces in one write (`lifecycle.replacesInOneWrite`):
   * the identity (JSON, without parent) the construct declares now, a literal of the
   * configuration. When it differs from the one deleted, the object resource is being
   * replaced: `delete` notes the old identity instead of deleting it, and the `ensure`
   * of the new one that follows in the same apply replaces the old in one write.
   */
  successor: 'RESELLER_SUCCESSOR',
  /**
   * delete, for a kind whose removal restores defaults (`lifecycle.restoresDefaults`):
   * the spec the construct declares (JSON, a literal of the configuration, as with
   * `absent: true`), for what the removal depends on (whether certificates are deleted).
   */
  declared: 'RESELLER_DECLARED',
  /**
   * delete, for a kind with `lifecycle.keepOnDestroy`: `true` when the construct declares
   * it kept on destroy (a literal of the configuration: a destroy provisioner reads
   * nothing else). `delete` then leaves the object in the account and deletes nothing.
   */
  keep: 'RESELLER_KEEP_ON_DESTROY',
  /** Terraform id of the object resource: what `retire-settings` notes are kept under. */
  objectId: 'RESELLER_OBJECT_ID',
  /** Base URL of the API (or the `apiUrl` prop of ResellerHosting). */
  apiUrl: 'RESELLER_API_URL',
  /** The general API key: environment only, never a prop, never in any file. */
  apiKey: 'RESELLER_API_KEY',
  /** Reseller id for `/reseller/{id}/…` paths; default `*` (the caller's own account). */
  resellerId: 'RESELLER_ID',
  /** Retries of a request after its first attempt, where the retry policy allows one (0-100; default 4): the provider block's `max_retries` reads it too. */
  maxRetries: 'RESELLER_MAX_RETRIES',
} as const;

/** Exit codes of every reseller-hosting command. */
export const EXIT = {
  ok: 0,
  /** The operation failed (API error, bad input at apply time, timeout). */
  failure: 1,
  /** Command-line usage error. */
  usage: 64,
  /** drift --detailed-exitcode: drift found. */
  drift: 2,
  /** review --fail-on: a named category is present. */
  reviewFailed: 3,
} as const;

export const DEFAULT_API_URL = 'http://127.0.0.1:8080';
export const DEFAULT_CLOUD_TIMEOUT_MINUTES = 30;
