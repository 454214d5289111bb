import {
  enabledFromPackageDetail,
  labelFromPackageDetail,
  labelFromPackageLabels,
  typeRefFromPackageDetail,
  verifiableLabelFromPackageLabels,
} from './assumptions';
import { ApiError, isMissingObject } from './errors';
import { booleanArg, nonEmptyString, packageSegment, stringList, toId } from './ids';
import type { ApiContext } from './request';
import { Resource } from './resource';
import * as shape from './shape';
import type {
  CreatePackageOnCloudServerRequest,
  CreatePackageRequest,
  PackageDetail,
  PackageNamesChange,
  PackageSummary,
} from './types';

/** Hosting packages (api-notes "Packages"). */

export function parsePackageSummary(value: unknown, where: string): PackageSummary {
  const entry = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  return {
    id: shape.id(entry.id, f('id')),
    created: shape.optString(entry.created, f('created')),
    enabled: shape.boolean(entry.enabled, f('enabled')),
    name: shape.string(entry.name, f('name')),
    names: shape.stringArray(entry.names, f('names')),
    packageTypeName: shape.optString(entry.packageTypeName, f('packageTypeName')),
    productSpec: entry.productSpec ?? null,
    stackUsers: entry.stackUsers === undefined ? [] : shape.stringArray(entry.stackUsers, f('stackUsers')),
    typeRef: shape.id(entry.typeRef, f('typeRef')),
    packageLabels: entry.packageLabels === undefined || entry.packageLabels === null ? [] : shape.array(entry.packageLabels, f('packageLabels')),
  };
}

/** The label of a package list entry, read from its `packageLabels` (see assumptions.ts); "" for none. */
export function labelOf(summary: PackageSummary): string {
  return labelFromPackageLabels(Array.isArray(summary.packageLabels) ? summary.packageLabels : []);
}

/**
 * The label of a package list entry for comparing with a declared one: undefined when
 * the entry cannot tell (an empty `packageLabels`, see assumptions.ts).
 */
export function verifiableLabelOf(summary: PackageSummary): string | undefined {
  return verifiableLabelFromPackageLabels(Array.isArray(summary.packageLabels) ? summary.packageLabels : []);
}

export function parsePackageDetail(value: unknown, where: string): PackageDetail {
  const body = shape.object(value, where);
  const f = (key: string) => shape.at(where, key);
  const web = shape.object(body.web, f('web'));
  const detail: PackageDetail = {
    id: shape.id(body.id, f('id')),
    enabled: enabledFromPackageDetail(body, where),
    name: shape.string(web.name, shape.at(f('web'), 'name')),
    names: shape.stringArray(body.names, f('names')),
    stackUsers: body.stackUsers === undefined || body.stackUsers === null ? [] : shape.stringArray(body.stackUsers, f('stackUsers')),
    typeRef: typeRefFromPackageDetail(body, web, where),
    platform: shape.string(web.platform, shape.at(f('web'), 'platform')),
  };
  const label = labelFromPackageDetail(body, where);
  if (label !== undefined) detail.label = label;
  return detail;
}

async function updatePackage(ctx: ApiContext, operation: string, body: unknown): Promise<void> {
  const path = `${ctx.resellerPath}/updatePackage`;
  const ok = await ctx.transport.call({
    operation,
    method: 'POST',
    path,
    body,
    parse: (data) => shape.boolean(data, 'result'),
  });
  if (!ok) throw refused(operation, path);
}

/** The API answered 2xx with `{"result": false}`: it refused the change without an error status. */
function refused(operation: string, path: string): ApiError {
  return new ApiError(`${operation} POST ${path} failed: the API answered {"result": false}`, {
    operation,
    method: 'POST',
    path,
    status: 200,
  });
}

/** Hosting packages: list, read, create (also on a cloud server), delete, and change type, label, names, status. */
export class Packages extends Resource {
  /** `GET /package`: every package of the account (spec 2.4). */
  async list(): Promise<PackageSummary[]> {
    return this.ctx.transport.call({
      operation: 'listPackages',
      method: 'GET',
      path: '/package',
      parse: (data) => shape.arrayOf(data, '', parsePackageSummary),
    });
  }

  /** One package by id or by one of its domain names; undefined when the API answers 404 for the object. */
  async get(idOrDomain: string | number): Promise<PackageDetail | undefined> {
    const operation = 'getPackage';
    try {
      return await this.ctx.transport.call({
        operation,
        method: 'GET',
        path: `/package/${packageSegment(idOrDomain, operation)}`,
        parse: (data) => parsePackageDetail(data, ''),
      });
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  /** `POST /reseller/{id}/addWeb` (spec 4.2) -> the new package id. */
  async create(request: CreatePackageRequest): Promise<number> {
    const operation = 'createPackage';
    const body = {
      type: String(toId(request.type, operation, 'type')),
      domain_name: nonEmptyString(request.domainName, operation, 'domainName'),
      extra_domain_names: stringList(request.extraDomainNames ?? [], operation, 'extraDomainNames'),
      label: request.label ?? '',
      documentRoots: { ...(request.documentRoots ?? {}) },
      stackUser: request.stackUser ?? null,
    };
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/addWeb`,
      body,
      parse: (data) => shape.id(data, 'result'),
    });
  }

  /** `POST /cloud_server/{id}/addWeb` (spec 4.6) -> the new package id. */
  async createOnCloudServer(serverId: string | number, request: CreatePackageOnCloudServerRequest): Promise<number> {
    const operation = 'createPackageOnCloudServer';
    const id = toId(serverId, operation, 'cloud server id');
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `/cloud_server/${id}/addWeb`,
      body: {
        domain_name: nonEmptyString(request.domainName, operation, 'domainName'),
        extra_domain_names: stringList(request.extraDomainNames ?? [], operation, 'extraDomainNames'),
      },
      parse: (data) => shape.id(data, 'result'),
    });
  }

  /** `POST /reseller/{id}/deleteWeb {"delete-id": ["123"]}` -> the boolean the API reports for that id. */
  async delete(packageId: string | number): Promise<boolean> {
    const operation = 'deletePackage';
    const key = String(toId(packageId, operation, 'package id'));
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `${this.ctx.resellerPath}/deleteWeb`,
      body: { 'delete-id': [key] },
      parse: (data) => {
        const results = shape.map(data, 'result');
        return shape.boolean(results[key], shape.at('result', key));
      },
    });
  }

  /** Changes the package type (`updatePackage` with `packageBundleTypes`); the new type must be on the same platform. */
  async setType(packageId: string | number, typeId: string | number): Promise<void> {
    const operation = 'setPackageType';
    const key = String(toId(packageId, operation, 'package id'));
    const type = String(toId(typeId, operation, 'package type id'));
    await updatePackage(this.ctx, operation, { id: [key], packageBundleTypes: { [key]: type } });
  }

  /** Changes the package label (`updatePackage` with `labels`). */
  async setLabel(packageId: string | number, label: string): Promise<void> {
    const operation = 'setPackageLabel';
    const key = String(toId(packageId, operation, 'package id'));
    if (typeof label !== 'string') throw new TypeError(`${operation}: label must be a string`);
    await updatePackage(this.ctx, operation, { id: [key], labels: { [key]: label } });
  }

  /**
   * Adds and removes domain names (`POST /package/{id}/names {"add", "rem"}`) -> the
   * package's names afterwards. Adding a name it already has is a silent no-op; removing
   * the last name is an API error.
   */
  async changeNames(packageId: string | number, change: PackageNamesChange): Promise<string[]> {
    const operation = 'changePackageNames';
    const id = toId(packageId, operation, 'package id');
    return this.ctx.transport.call({
      operation,
      method: 'POST',
      path: `/package/${id}/names`,
      body: {
        add: stringList(change.add ?? [], operation, 'add'),
        rem: stringList(change.remove ?? [], operation, 'remove'),
      },
      parse: (data) => shape.stringArray(data, 'result'),
    });
  }

  /** Enables or disables a package (`POST /package/{id}/userStatus`, the two documented bodies). */
  async setEnabled(packageId: string | number, enabled: boolean): Promise<void> {
    const operation = 'setPackageEnabled';
    const id = toId(packageId, operation, 'package id');
    const body = booleanArg(enabled, operation, 'enabled')
      ? { includeRepeated: true, subservices: { default: true } }
      : { subservices: { default: false } };
    const path = `/package/${id}/userStatus`;
    const ok = await this.ctx.transport.call({ operation, method: 'POST', path, body, parse: (data) => shape.boolean(data, 'result') });
    if (!ok) throw refused(operation, path);
  }
}
