import { primaryFtpCredentials } from './assumptions';
import { webPath } from './databases';
import { Resource } from './resource';
import * as shape from './shape';
import type { FtpCredentials } from './types';

/**
 * The FTP credentials of a package (api-notes "FTP credentials"):
 * `GET /package/{id or domain}/web/ftpCredentials` -> `[{"username", "password"}]`.
 * A secret the service hands out: the provider reads it for an ephemeral resource,
 * at plan or apply time, and nothing keeps it (no log line, state, plan or error).
 */
export class Ftp extends Resource {
  /** The package's primary FTP user and its password. */
  async credentials(packageRef: string | number): Promise<FtpCredentials> {
    const operation = 'getFtpCredentials';
    return this.ctx.transport.call({
      operation,
      method: 'GET',
      path: `${webPath(packageRef, operation)}/ftpCredentials`,
      parse: (data) => primaryFtpCredentials(shape.arrayOf(data, '', parseFtpCredentials)),
    });
  }
}

function parseFtpCredentials(value: unknown, where: string): FtpCredentials {
  const entry = shape.object(value, where);
  return { username: shape.string(entry.username, shape.at(where, 'username')), password: shape.string(entry.password, shape.at(where, 'password')) };
}
