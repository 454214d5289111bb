/**
 * `cdktf-reseller-hosting/client`: typed client of the reseller hosting API.
 *
 * ```ts
 * import { ResellerClient, isDuplicateError, WriteOutcomeUnknownError } from 'cdktf-reseller-hosting/client';
 * const client = new ResellerClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.RESELLER_API_KEY! });
 * const packages = await client.packages.list();
 * await client.dns.changeZone(packages[0].id, packages[0].name, { add: [{ type: 'TXT', host: '@', value: 'v=spf1 -all' }] });
 * ```
 */
export { ResellerClient } from './client';
export type { ResellerClientOptions } from './client';
export * from './errors';
export * from './types';
export { labelOf, verifiableLabelOf } from './packages';
export type { Users } from './users';
export type { PackageTypes } from './package-types';
export type { Packages } from './packages';
export type { Mail } from './mail';
export type { CloudServers } from './cloud-servers';
export type { Dns } from './dns';
export type { Web } from './web';
export type { Domains } from './domains';
export { parseRegistration } from './domains';
export type { Responders } from './responders';
export type { Databases } from './databases';
export type { Ftp } from './ftp';
export { fullyQualifiedHost, normaliseIpv6, parseDnsRecord, relativeHost } from './dns';
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
  recordListOfZoneValue,
  dnsNameOfRead,
  dnsNumberOfRead,
  acceptDnsWriteResult,
  forceHttpsAlreadySo,
  isFreeCertificateProvider,
  phpVersionWriteBody,
  phpVersionOnWire,
  phpVersionOfRead,
  phpVersionOfAvailable,
  nameserversOfRead,
  nameserverChangeBody,
  registrationDateOfRead,
  renewalConstraintOfRead,
  isStoredNameOf,
  mysqlUserIdOf,
  primaryFtpCredentials,
} from './assumptions';
export { backoffDelay, parseRetryAfter } from './request';
export type { AttemptRecord } from './request';
export { clientFor, clientFromEnv, connectionFromEnv, ConnectionError } from './from-env';
export type { Connection } from './from-env';
