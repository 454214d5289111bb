/**
 * cdktf-reseller-hosting: CDK for Terraform constructs for a web-hosting reseller
 * account. Constructs and their props only; the handler, client, emulator and drift
 * tools have their own entry points.
 */
export { ResellerHosting } from './constructs/reseller-hosting';
export type { ResellerHostingProps, CarrierResourceType, Engine } from './constructs/reseller-hosting';
export { ManagedObject } from './constructs/managed-object';
export type { ManagedObjectProps } from './constructs/managed-object';
export { HostingPackage } from './constructs/hosting-package';
export type { HostingPackageProps, IHostingPackage } from './constructs/hosting-package';
export { Mailbox } from './constructs/mailbox';
export type { MailboxProps } from './constructs/mailbox';
export { Forwarder } from './constructs/forwarder';
export type { ForwarderProps } from './constructs/forwarder';
export { DnsRecord } from './constructs/dns-record';
export type { DnsRecordProps } from './constructs/dns-record';
export type { DnsRecordType } from './protocol/kinds/dns-record';
export { WebSettings, DataResellerCertificates, DataResellerPhpVersions } from './constructs/web-settings';
export type { WebSettingsProps, DataResellerCertificatesProps, DataResellerPhpVersionsProps } from './constructs/web-settings';
export type { CertificateTimeoutAction } from './protocol/kinds/web-settings';
export { ManagedCloudServer } from './constructs/managed-cloud-server';
export type { ManagedCloudServerProps, ICloudServer } from './constructs/managed-cloud-server';
export { StackUser } from './constructs/stack-user';
export type { StackUserProps } from './constructs/stack-user';
export { CloudProvider } from './protocol/cloud';
export type { StackUserRef } from './protocol/names';
export {
  DataResellerPackage, DataResellerPackages, DataResellerPackageTypes, DataResellerStackUser, DataResellerStackUsers,
  DataResellerMailDomain, DataResellerCloudServer, DataResellerCloudServers, DataResellerCloudServerSpecs,
  DataResellerDnsRecords,
} from './constructs/data-sources';
export type {
  DataResellerPackageProps, DataResellerPackagesProps, DataResellerPackageTypesProps, DataResellerStackUserProps,
  DataResellerStackUsersProps, DataResellerMailDomainProps, DataResellerCloudServerProps, DataResellerCloudServersProps,
  DataResellerCloudServerSpecsProps, DataResellerDnsRecordsProps,
} from './constructs/data-sources';
export { DomainNameservers, DomainTransferLock, DataResellerDomain, DataResellerDomains } from './constructs/domain-nameservers';
export type { DomainNameserversProps, DomainTransferLockProps, DataResellerDomainProps } from './constructs/domain-nameservers';
export { Autoresponder, DataResellerAutoresponder, DataResellerAutoresponders } from './constructs/autoresponder';
export type { AutoresponderProps, DataResellerAutoresponderProps, DataResellerAutorespondersProps } from './constructs/autoresponder';
export type { AutoresponderContentType } from './protocol/kinds/autoresponder';
export {
  MysqlDatabase, DataResellerMysqlDatabase, DataResellerMysqlDatabases, EphemeralResellerFtpCredentials, EphemeralResellerMysqlConnection,
} from './constructs/mysql-database';
export type {
  MysqlDatabaseProps, DataResellerMysqlDatabaseProps, DataResellerMysqlDatabasesProps, EphemeralResellerFtpCredentialsProps,
  EphemeralResellerMysqlConnectionProps,
} from './constructs/mysql-database';
