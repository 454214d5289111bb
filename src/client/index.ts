/**
 * `cdktf-reseller-hosting/client`: typed client of the reseller hosting API.
 *
 * ```ts
 * import { ResellerClient, isDuplicateError, WriteOutcomeUnknownError } from 'cdktf-reseller-hosting/client';
 * const client = new ResellerClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.RESELLER_API_KEY! });
 * const packages = await client.listPackages();
 * ```
 */
export { ResellerClient } from './client';
export type { ResellerClientOptions } from './client';
export * from './errors';
export * from './types';
export { labelOf, verifiableLabelOf } from './packages';
export {
  postRejectedWithoutEffect,
  isDuplicateError,
  isValidationError,
  labelFromPackageLabels,
  labelFromPackageDetail,
  verifiableLabelFromPackageLabels,
  enabledFromPackageDetail,
  typeRefFromPackageDetail,
  forwardListOfMailRead,
  parseForwarderEntry,
  parseForwarderCreateResult,
  mailboxUpdateBody,
  acceptMailboxUpdateResult,
  brandFromHeaders,
} from './assumptions';
export { backoffDelay, parseRetryAfter } from './request';
export type { AttemptRecord } from './request';
export { clientFor, clientFromEnv, connectionFromEnv, ConnectionError } from './from-env';
export type { Connection } from './from-env';
