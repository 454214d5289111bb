import { Resource } from './resource';
import * as shape from './shape';
import type { PackageType } from './types';

export function parsePackageType(value: unknown, where: string): PackageType {
  const entry = shape.object(value, where);
  const platform = shape.string(entry.platform, shape.at(where, 'platform')).toLowerCase();
  if (platform !== 'linux' && platform !== 'windows') {
    throw new shape.ShapeMismatch(`expected ${shape.at(where, 'platform')} to be "linux" or "windows", got another string`);
  }
  return {
    id: shape.id(entry.id, shape.at(where, 'id')),
    label: shape.string(entry.label, shape.at(where, 'label')),
    platform,
  };
}

/** Package types of the account. */
export class PackageTypes extends Resource {
  /** Package types of the account: `GET /reseller/{id}/packageTypes` -> `[{id, label, platform}]` (api-notes). */
  async list(): Promise<PackageType[]> {
    return this.ctx.transport.call({
      operation: 'listPackageTypes',
      method: 'GET',
      path: `${this.ctx.resellerPath}/packageTypes`,
      parse: (data) => shape.arrayOf(data, '', parsePackageType),
    });
  }
}
