import { cloudServerDataSources } from './cloud-servers';
import type { DataSource } from './data-source';
import { dnsDataSources } from './dns';
import { domainDataSources } from './domains';
import { mailDataSources } from './mail';
import { kindDataSources } from './of-kind';
import { packageDataSources } from './packages';
import { userDataSources } from './users';
import { webDataSources } from './web';

export type { DataSource } from './data-source';
export { dataSourceHandlers } from './handlers';
export type { DataSourceModel } from './handlers';

/** Every data source of the provider (a function: their attributes come from the kind definitions at start-up). */
export function dataSources(): DataSource[] {
  return [...packageDataSources(), ...userDataSources(), ...mailDataSources(), ...cloudServerDataSources(), ...dnsDataSources(), ...kindDataSources(), ...webDataSources(), ...domainDataSources()];
}
