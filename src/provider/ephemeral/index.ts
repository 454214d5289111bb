import type { EphemeralResource } from './ephemeral-resource';
import { ftpCredentials } from './sources/ftp-credentials';
import { mysqlConnection } from './sources/mysql-connection';

export type { EphemeralResource } from './ephemeral-resource';
export { ephemeralHandlers, ephemeralSchemaMessageOf } from './handlers';
export type { EphemeralModel } from './handlers';

/** Every ephemeral resource of the provider, one line each (the RPC layer, handlers.ts, knows none of them). */
export function ephemeralResources(): EphemeralResource[] {
  return [ftpCredentials, mysqlConnection];
}
