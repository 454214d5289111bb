import { brandFromHeaders } from './assumptions';
import { isMissingObject } from './errors';
import { nonEmptyString, toId, toUserRef } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { CloudServer, CloudServerConfiguration, CloudServerWithBrand, OrderCloudServerRequest } from './types';

/** Managed cloud servers (spec 2.6, 4.5, 4.7; api-notes "Cloud servers"). There is no cancel operation. */

export function parseCloudServer(value: unknown, where: string): CloudServer {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  return {
    id: shape.id(entry.id, f('id')),
    name: shape.string(entry.name, f('name')),
    location: shape.optString(entry.location, f('location')),
    configuration: parseConfiguration(entry.configuration, f('configuration')),
    externalId: shape.optNumber(entry.externalId, f('externalId')),
    productSpec: shape.optString(entry.productSpec, f('productSpec')),
    // Spec 2.6: boolean or 1/0.
    isCloud: shape.optBoolean(entry.isCloud, f('isCloud'), false),
    isManaged: shape.optBoolean(entry.isManaged, f('isManaged'), false),
    packageIds:
      entry.packageIds === undefined || entry.packageIds === null ? [] : shape.arrayOf(entry.packageIds, f('packageIds'), shape.id),
    profileId: shape.optNumber(entry.profileId, f('profileId')),
    timelineService: shape.optString(entry.timelineService, f('timelineService')),
  };
}

function parseConfiguration(value: unknown, where: string): CloudServerConfiguration {
  const c = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  return {
    CpuCores: shape.optNumber(c.CpuCores, f('CpuCores')),
    RamMb: shape.optNumber(c.RamMb, f('RamMb')),
    OsDiskSizeGb: shape.optNumber(c.OsDiskSizeGb, f('OsDiskSizeGb')),
    DataDiskSizeGb: shape.optNumber(c.DataDiskSizeGb, f('DataDiskSizeGb')),
    Provider: shape.string(c.Provider, f('Provider')),
    Zone: shape.string(c.Zone, f('Zone')),
    Country: shape.optString(c.Country, f('Country')),
    VpsOsId: shape.optNumber(c.VpsOsId, f('VpsOsId')),
    spec: shape.string(c.spec, f('spec')),
  };
}

/** Managed cloud servers: list, read, order. */
export class CloudServers extends Resource {
  /** `GET /cloud_server`: the account's provisioned servers (spec 2.6). */
  async list(): Promise<CloudServer[]> {
    return this.ctx.transport.call({
      operation: 'listCloudServers',
      method: 'GET',
      path: '/cloud_server',
      parse: (data) => shape.arrayOf(data, '', parseCloudServer),
    });
  }

  /** One server with its reseller brand (from response headers); undefined when the API answers 404 for it. */
  async get(serverId: string | number): Promise<CloudServerWithBrand | undefined> {
    const operation = 'getCloudServer';
    const id = toId(serverId, operation, 'cloud server id');
    try {
      return await this.ctx.transport.call({
        operation,
        method: 'GET',
        path: `/cloud_server/${id}`,
        parse: (data, response) => {
          const server = parseCloudServer(data, '');
          const brand = brandFromHeaders(response.headers);
          return brand ? { server, brand } : { server };
        },
      });
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  /**
   * Orders a managed cloud server (`POST /reseller/{id}/addCloudServer`, spec 4.7). Charges
   * the account at once (402 when the balance is too low); the server provisions
   * asynchronously. The API answers `{"result": "<id>"}`; the id is returned as a number.
   */
  async order(request: OrderCloudServerRequest): Promise<number> {
    const operation = 'orderCloudServer';
    const c = request.configuration;
    if (c === null || typeof c !== 'object') throw new TypeError(`${operation}: configuration must be an object`);
    if (!Number.isSafeInteger(request.periodMonths) || request.periodMonths < 1) {
      throw new TypeError(`${operation}: periodMonths must be a positive integer`);
    }
    const configuration: Record<string, string | boolean> = {
      spec: nonEmptyString(c.spec, operation, 'configuration.spec'),
      zone: nonEmptyString(c.zone, operation, 'configuration.zone'),
      provider: nonEmptyString(c.provider, operation, 'configuration.provider'),
      mvpsName: nonEmptyString(c.mvpsName, operation, 'configuration.mvpsName'),
    };
    if (c.bandwidth !== undefined) configuration.bandwidth = String(c.bandwidth);
    if (c.disk !== undefined) configuration.disk = String(c.disk);
    if (c.resellerCloudBranded !== undefined) configuration.resellerCloudBranded = c.resellerCloudBranded === true;
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/addCloudServer`,
      body: {
        configuration,
        periodMonths: String(request.periodMonths),
        type: nonEmptyString(request.type, operation, 'type'),
        ...(request.forUser !== undefined ? { forUser: toUserRef(request.forUser, operation) } : {}),
      },
      parse: (data) => shape.id(data, 'result'),
    });
  }
}
