import { limitsOfPackageType } from './assumptions';
import type { ApiContext } from './request';
import * as shape from './shape';
import type { PackageType } from './types';

/** Package types of the account: `GET /reseller/{id}/packageTypes` -> `[{id, label, platform}]` (api-notes). */
export async function listPackageTypes(ctx: ApiContext): Promise<PackageType[]> {
  return ctx.transport.call({
    operation: 'listPackageTypes',
    method: 'GET',
    path: `${ctx.resellerPath}/packageTypes`,
    parse: (data) => shape.arrayOf(data, '', parsePackageType),
  });
}

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
    limits: limitsOfPackageType(entry),
  };
}
