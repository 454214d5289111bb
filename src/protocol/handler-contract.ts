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

/** The handler's verbs, written the one way every usage and page lists them. */
export const HANDLER_VERBS = HANDLER_COMMANDS.join('|');

/** What `reseller-hosting handler --help` prints (and, on stderr, a wrong verb). */
export const HANDLER_USAGE = `usage: reseller-hosting handler ${HANDLER_VERBS}

Reconciles one object against the reseller API: what the provisioners of the carrier
engines (terraform_data, null_resource) run, not a command to run by hand.
  ensure            create, adopt or update the object (the settings resource, create)
  retire-settings   note the outgoing settings for the ensure that follows (destroy)
  delete            delete the object (the object resource, destroy)
  update, set-password   what stacks synthesized by 0.1 run; still served

It reads the object from RESELLER_SPEC and the connection from RESELLER_API_URL,
RESELLER_API_KEY and RESELLER_ID. Exit codes: 0 done, 1 failed, 64 usage error.
--version prints the version.
`;

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

/** Exit codes of every reseller-hosting command (DESIGN §1: the same for all of them). */
export const EXIT = {
  ok: 0,
  /** The operation failed (API error, bad input at apply time, timeout). */
  failure: 1,
  /**
   * Differences found, only where a command documents it: `drift --detailed-exitcode`
   * (declared objects differ from the account), `review --fail-on` (a named category is
   * in the plan), as `terraform plan -detailed-exitcode` uses 2.
   */
  differences: 2,
  /** Command-line usage error. */
  usage: 64,
} as const;

/** The base URL of the real service's API (20i's reseller REST API), for messages and docs. */
export const SERVICE_API_URL = 'https://api.20i.com';

/**
 * The one line that says the API URL is missing. DESIGN §1: there is no silent default
 * (only the emulator and the demo set one), so a job that forgot it fails with this,
 * not with "connection refused" at an address nobody chose.
 */
export const MISSING_API_URL =
  `${ENV.apiUrl} is not set: export the reseller API's base URL (${SERVICE_API_URL} for 20i's reseller API; ` +
  `for the local emulator, the URL 'reseller-hosting emulator' prints), or set apiUrl on ResellerHosting (api_url of the provider block)`;

export const DEFAULT_CLOUD_TIMEOUT_MINUTES = 30;
